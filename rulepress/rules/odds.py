"""The odds a step-dice pool gives against a printed odds table: exact figures, whether a
printed whole percent agrees with one, and which reading of the push a table follows.
The printed-odds check, the Markdown text and `rulepress odds` all use them."""

from __future__ import annotations

from fractions import Fraction

from rulepress.models import OddsTable, PushRule, StepDice
from rulepress.models.step_dice import Reading

READINGS: tuple[Reading, ...] = ("neither-one-nor-success", "every-non-success")


def push_reading(push: PushRule | None) -> Reading:
    """The reading of the push that the ruleset's own rule text gives (the odds figures
    the outputs show and check follow it); without a push rule, neither a one nor a
    success is re-rolled. One definition, so the text, the charts and the checks agree."""
    return push.rerolls if push else "neither-one-nor-success"


def exact_percent(
    step_dice: StepDice, table: OddsTable, skill: str | None, attribute: str, reading: Reading
) -> Fraction:
    """The exact chance, in percent, of a table's cell: attribute die plus skill die."""
    pool = [attribute, *([skill] if skill else [])]
    return step_dice.chance(pool, pushed=table.roll == "pushed", reading=reading) * 100


def within_rounding(printed: int, exact: Fraction) -> bool:
    """A printed whole percent agrees when it is the exact figure rounded either way."""
    return abs(printed - exact) < 1


def best_reading(step_dice: StepDice, table: OddsTable) -> tuple[Reading, int]:
    """The push reading whose figures most printed cells agree with, and how many agree."""
    scores = {}
    for reading in READINGS:
        scores[reading] = sum(
            within_rounding(cell, exact_percent(step_dice, table, row.skill, column, reading))
            for row in table.rows
            for column, cell in zip(table.columns, row.percent, strict=False)
        )
    best = max(READINGS, key=lambda r: scores[r])
    return best, scores[best]
