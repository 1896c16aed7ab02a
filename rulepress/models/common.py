"""Small value types shared by several rulesets' models."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from pydantic import Field, model_validator

from rulepress.models.base import Model, Name, Slug, Text

Die = Literal["d6", "d8", "d10", "d12", "d20"]
DIE_SIDES: dict[str, int] = {"d6": 6, "d8": 8, "d10": 10, "d12": 12, "d20": 20}
Scalar = int | str | bool
ExampleValue = Scalar | list[int]


class IntRange(Model):
    """An inclusive range of whole numbers, as the source prints `1-4`."""

    min: int
    max: int

    @model_validator(mode="after")
    def _ordered(self) -> IntRange:
        if self.min > self.max:
            raise ValueError(f"range is reversed: min {self.min} > max {self.max}")
        return self


class Example(Model):
    """A worked example printed in the source, stored next to the rule it illustrates.

    `given` holds the example's inputs and `expect` what the source says comes out; the
    rules engine replays `given` through the rule and compares with `expect`.
    """

    id: Slug
    title: Name
    text: Text
    """The example as printed."""
    given: dict[Slug, ExampleValue]
    expect: dict[Slug, ExampleValue]


Percent = Annotated[int, Field(ge=0, le=100)]


Comparison = Literal["<", "<=", ">", ">="]


class Boundary(Model):
    """A boundary a rule states, as data: `quantity comparison value` ("Stamina dropping
    below 0" is `stamina < 0`; "0 or less HP" is `health <= 0`). Stored beside the prose,
    which stays as printed, so that two rules cutting the same quantity at the same value
    on different sides of it can be found (the threshold-wording check)."""

    quantity: Slug
    """What is compared (`stamina`, `tcs`, `single-wound`), named alike across a ruleset."""
    comparison: Comparison
    value: int | Slug
    """A whole number, or a named quantity (`corruption`, `half-hp`, `3x-cuf`)."""
    text: Text
    """The words of the source that state it."""

    @property
    def cut(self) -> float:
        """Where the boundary falls between whole numbers: `< 0` and `>= 0` fall at -0.5,
        `<= 0` and `> 0` at +0.5. Two boundaries of one quantity and value that state
        the same cut agree (a rule and its complement), whatever their words."""
        return -0.5 if self.comparison in ("<", ">=") else 0.5

    def __str__(self) -> str:
        """The boundary as a reader writes it (`stamina < 0`), for the messages that name it."""
        return f"{self.quantity} {self.comparison} {self.value}"


class StatesBoundaries(Model):
    """A document kind whose rules state boundaries: an optional `boundaries` list."""

    boundaries: list[Boundary] = []
    """The boundaries the text states, as data (see Boundary); the text is kept as printed."""

    def stated_boundaries(self) -> Iterator[tuple[Boundary, tuple]]:
        """Each boundary this document states, with its data path (a kind whose fields
        already hold a boundary adds those)."""
        for number, boundary in enumerate(self.boundaries):
            yield boundary, ("boundaries", number)
