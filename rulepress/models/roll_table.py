"""A rollable table (`kind: roll-table`), for any game: a dice formula and rows of inclusive
ranges, each with its text, and optionally a document it links and an image.

Formulas: `NdS` (`2d6`, `1d20`; `dS` is `1dS`), with `+k` or `-k` (`1d6+1`); `d%` for
`d100`; and `d66`, two six-sided dice read as tens and units (11-16, 21-26 ... 61-66: 36
results, none with a digit 0 or 7-9). A row's range is a number (`5`) or `low-high`
(`"99-100"`), either end `00` for 100 as d100 tables print it (`"96-00"`; quoted, since
YAML reads a bare `00` as 0). Rows must cover every result the formula can give, once:
a gap, an overlap, a range outside the formula's (or, on d66, an end no roll gives) is a
finding at the row's range.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from rulepress import dice
from rulepress.models.base import Document, Model, Name, Text, ref
from rulepress.models.rows import (
    RowProblem,
    RowRange,
    Span,
    checked_by,
    gaps,
    invalid,
    overlaps,
    parse_range,
    raise_problems,
)

MAX_DICE, MAX_SIDES, MAX_BONUS = 100, 1000, 1000
MAX_SPREAD = 1000
"""The most dice times sides a formula may roll (`10d100`, `1d1000`): its exact
distribution, worked out at load, stays quick however the formula is written."""
FORMULA_TEXT = r"^(?:d66|d%|[0-9]{0,3}d[0-9]{1,4}(?:[+-][0-9]{1,4})?)$"
_DICE = re.compile(r"^([0-9]{0,3})d([0-9]{1,4})(?:([+-])([0-9]{1,4}))?$")
TENS_AND_UNITS = "d66"


@dataclass(frozen=True)
class Formula:
    """A parsed dice formula: `count` dice of `sides` plus `bonus`, or the tens-and-units d66."""

    text: str
    count: int
    sides: int
    bonus: int = 0
    tens_and_units: bool = False

    @functools.cached_property
    def distribution(self) -> dict[int, Fraction]:
        """The exact chance of each result."""
        if self.tens_and_units:
            faces = range(1, 7)
            return {10 * tens + units: Fraction(1, 36) for tens in faces for units in faces}
        faces = dice.die(self.sides)
        rolled = faces if self.count == 1 else dice.repeated(faces, self.count)
        return {value + self.bonus: chance for value, chance in rolled.items()}

    @functools.cached_property
    def outcomes(self) -> list[int]:
        """Every result the formula can give, ascending."""
        return sorted(self.distribution)

    @property
    def span(self) -> Span:
        """The lowest and highest result."""
        return Span(self.outcomes[0], self.outcomes[-1])

    def chance(self, span: Span) -> Fraction:
        """The exact chance of a result within `span`."""
        return sum(
            (p for value, p in self.distribution.items() if span.low <= value <= span.high),
            Fraction(0),
        )

    @property
    def foundry(self) -> str:
        """The formula in Foundry's roll syntax (d66 as its two dice: `1d6*10+1d6`)."""
        if self.tens_and_units:
            return "1d6*10+1d6"
        bonus = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{bonus}"


@functools.cache
def parse_formula(text: str) -> Formula:
    """The formula `text` writes; ValueError, saying why, for one rulepress does not roll."""
    if text == TENS_AND_UNITS:
        return Formula(text, 2, 6, tens_and_units=True)
    found = _DICE.match("d100" if text == "d%" else text)
    if found is None:
        raise ValueError(f"{text!r} is not a dice formula: write NdS, NdS+k, d% or d66 (`2d6`)")
    count = int(found.group(1) or 1)
    sides = int(found.group(2))
    bonus = int(found.group(4) or 0) * (-1 if found.group(3) == "-" else 1)
    if sides == 66 and found.group(1):
        raise ValueError(f"{text!r}: write d66 for the tens-and-units roll of two d6")
    if not (1 <= count <= MAX_DICE and 2 <= sides <= MAX_SIDES and abs(bonus) <= MAX_BONUS):
        raise ValueError(
            f"{text!r}: a formula rolls 1 to {MAX_DICE} dice of 2 to {MAX_SIDES} sides, "
            f"plus or minus at most {MAX_BONUS}"
        )
    if count * sides > MAX_SPREAD:
        raise ValueError(f"{text!r}: dice times sides is at most {MAX_SPREAD} (`10d100`)")
    return Formula(text, count, sides, bonus)


# The pattern is the JSON Schema's (an editor flags a typo); the validator says what is wrong.
FormulaText = Annotated[
    str,
    Field(json_schema_extra={"pattern": FORMULA_TEXT}),
    AfterValidator(checked_by(parse_formula)),
]
"""A dice formula, as written (`2d6`, `d100`, `1d6+1`, `d66`)."""
IMAGE_PATH = r"^[A-Za-z0-9_-]+(?:[./][A-Za-z0-9_-]+)*\.(?:webp|png|jpg|jpeg|svg|gif|avif)$"
_IMAGE = re.compile(IMAGE_PATH)


def _checked_image(path: str) -> str:
    if len(path) > 200 or not _IMAGE.match(path):
        raise invalid(
            "an image is a path inside Foundry's data ending in .webp, .png, .jpg, .svg, "
            ".gif or .avif (`icons/svg/d20.svg`): no scheme, no `..`, no leading /",
        )
    return path


Image = Annotated[
    str, Field(json_schema_extra={"pattern": IMAGE_PATH}), AfterValidator(_checked_image)
]
"""An image path inside Foundry's data (`icons/svg/d20.svg`): no scheme, no `..`."""


class RollTableRow(Model):
    """One result of a roll table: the rolls it covers, its text, what it links."""

    range: RowRange
    """The results this row covers: `5`, `"5-9"`, `"96-00"` (both ends included)."""
    text: Text
    link: ref("*") | None = None
    """A document of the compendium the result links (another table: "roll on ...")."""
    img: Image | None = None
    """The result's image in Foundry (a path inside its data); Foundry's die otherwise."""

    @property
    def span(self) -> Span:
        """The rolls the row covers."""
        return parse_range(self.range)


class RollTable(Document):
    """A table rolled on with a dice formula: a d100 oracle, a 2d6 reaction table."""

    KIND = "roll-table"
    kind: Literal["roll-table"]
    name: Name
    formula: FormulaText
    """What is rolled: `1d100`, `d%`, `2d6`, `1d6+1`, `d66`."""
    text: Text | None = None
    """What the table is for, shown above it (and as the RollTable's description)."""
    rows: Annotated[list[RollTableRow], Field(min_length=1, max_length=1000)]

    @property
    def dice(self) -> Formula:
        """The parsed formula."""
        return parse_formula(self.formula)

    def chances(self) -> list[Fraction]:
        """Each row's exact chance, in order."""
        return [self.dice.chance(row.span) for row in self.rows]

    def row_for(self, roll: int) -> RollTableRow | None:
        """The row a roll gives (the rows overlap nowhere)."""
        return next((row for row in self.rows if row.span.low <= roll <= row.span.high), None)

    @model_validator(mode="after")
    def _rows_cover_the_formula_once(self) -> RollTable:
        raise_problems("roll-table", coverage_problems(self.dice, [r.span for r in self.rows]))
        return self


def coverage_problems(formula: Formula, spans: list[Span]) -> list[RowProblem]:
    """Rows outside the formula's results (or ending on one it never gives), rows that
    overlap, and results no row covers: each at its row's `range`."""
    at = lambda index: ("rows", index, "range")  # noqa: E731
    whole, possible = formula.span, set(formula.outcomes)
    problems = []
    for index, span in enumerate(spans):
        if span.low < whole.low or span.high > whole.high:
            hint = ' (write "00", quoted, for 100)' if span.low == 0 and whole.high == 100 else ""
            message = f"{span} is outside {whole}, what {formula.text} rolls{hint}"
            problems.append(RowProblem(at(index), message, str(span), outside=True))
        else:
            for end in dict.fromkeys((span.low, span.high)):
                if end not in possible:
                    message = f"{end} cannot be rolled on {formula.text} (each die reads 1-6)"
                    problems.append(RowProblem(at(index), message, str(span)))
    if problems:  # a row outside the roll makes the gaps and overlaps meaningless
        return problems
    return overlaps(spans, at) + gaps(spans, formula.outcomes, at)
