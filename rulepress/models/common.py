"""Small value types shared by several rulesets' models."""

from __future__ import annotations

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
