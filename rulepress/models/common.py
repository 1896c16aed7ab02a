"""Small value types shared by several rulesets' models."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Literal, NamedTuple

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


INCLUDES_BELOW = re.compile(r"\binclud(?:e|es|ed|ing)\b[^.;\n]*?\babove\b", re.IGNORECASE)
"""How a source says that a step of a ladder takes in the steps before it: "(includes
above)", "(including the 1TC for above)", "(includes lethal weapons above)"."""


def says_includes_below(text: str) -> bool:
    """Whether `text`, a step's words, says the step includes the steps above it in the
    list (the lower ones), as INCLUDES_BELOW reads it."""
    return INCLUDES_BELOW.search(text) is not None


class LadderStep(NamedTuple):
    """A step of a ladder above its first, and whether the source says it includes the
    steps below it."""

    step: str
    """The step's name or id, as a message names it."""
    includes_below: bool
    """The source's words for this step say it includes the ones below."""
    words: str
    """The source's words for this step ("" when it has none of its own)."""
    path: tuple
    """Where the step is in the document's data."""


class StatesLadder(Model):
    """A document kind that is a ladder: steps from the lowest to the highest of one
    condition. Ladders of one kind are compared on whether their source says each step
    includes the ones below (the ladder-inclusion check)."""

    def ladder_steps(self) -> list[LadderStep]:
        """Each step above the first, lowest first (a kind that is a ladder says how)."""
        return []
