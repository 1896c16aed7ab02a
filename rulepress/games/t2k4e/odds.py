"""The odds a step-dice pool gives against a printed odds table: exact figures, whether a
printed whole percent agrees with one, and which reading of the push a table follows.
The printed-odds check, the Markdown text and `rulepress odds` all use them; `diff`
compares the step dice's chances (`step_dice_figures`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from rulepress.games.t2k4e.models.odds_table import OddsTable
from rulepress.games.t2k4e.models.step_dice import STEPS, Reading, StepDice

__all__ = ["ReadingFit"]
"""The typed values its rules take and return, exported with the functions."""

READINGS: tuple[Reading, ...] = ("neither-one-nor-success", "every-non-success")

Rounding = Literal["nearest", "down", "up"]
ROUNDINGS: tuple[Rounding, ...] = ("nearest", "down", "up")


def exact_percent(
    step_dice: StepDice, table: OddsTable, skill: str | None, attribute: str, reading: Reading
) -> Fraction:
    """The exact chance, in percent, of a table's cell: attribute die plus skill die."""
    pool = [attribute, *([skill] if skill else [])]
    return step_dice.chance(pool, pushed=table.roll == "pushed", reading=reading) * 100


def within_rounding(printed: int, exact: Fraction) -> bool:
    """A printed whole percent agrees when it is the exact figure rounded to the nearest
    whole number. A figure exactly half-way (12.5) agrees with both neighbours (12 and
    13): a printed table does not say whether it rounds halves up or to even (ruling
    `halves-agree-either-way` on the odds table)."""
    return rounds_to(printed, exact, "nearest")


def rounds_to(printed: int, exact: Fraction, rounding: Rounding) -> bool:
    """Whether rounding `exact` the given way gives `printed` (halves as in within_rounding)."""
    if rounding == "down":
        return printed == math.floor(exact)
    if rounding == "up":
        return printed == math.ceil(exact)
    return abs(printed - exact) <= Fraction(1, 2)


def roundings_explaining(cells: list[tuple[int, Fraction]]) -> dict[Rounding, int]:
    """For each way of rounding, how many (printed, exact) cells it gives as printed."""
    return {r: sum(rounds_to(p, e, r) for p, e in cells) for r in ROUNDINGS}


@dataclass(frozen=True)
class ReadingFit:
    """How well a reading of the push explains a printed table: the reading, and how many
    printed cells agree with its figures."""

    reading: Reading
    agreeing: int


def best_reading(step_dice: StepDice, table: OddsTable) -> ReadingFit:
    """The push reading whose figures most printed cells agree with, and how many agree;
    on a tie, the rule text's (ruling `reading-fit-tie` on the odds table)."""
    scores = {}
    for reading in READINGS:
        scores[reading] = sum(
            within_rounding(cell, exact_percent(step_dice, table, row.skill, column, reading))
            for row in table.rows
            for column, cell in zip(table.columns, row.percent, strict=False)
        )
    best = max(READINGS, key=lambda r: scores[r])
    return ReadingFit(best, scores[best])


def step_dice_figures(step_dice: StepDice, ruleset: Any) -> dict[str, Fraction]:
    """The chance of success of each attribute and skill die, pushed or not (the step
    dice's `figures` hook, which `diff` compares)."""
    figures: dict[str, Fraction] = {}
    for attribute in STEPS:
        for skill in (None, *STEPS):
            pool = [attribute, *([skill] if skill else [])]
            for pushed in (False, True):
                label = f"chance of success with {'+'.join(pool)}{', pushed' if pushed else ''}"
                figures[label] = Fraction(step_dice.chance(pool, pushed=pushed))
    return figures
