"""The bundled kinds' figures and wording for `diff` (their `Kind.figures` and
`Kind.changes`, see rulepress.history); they move into their games' packages later."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulepress.games.t2k4e.models.step_dice import STEPS, StepDice


def step_dice_figures(step_dice: StepDice, ruleset: Any) -> dict[str, Fraction]:
    """The chance of success of each attribute and skill die, pushed or not."""
    figures: dict[str, Fraction] = {}
    for attribute in STEPS:
        for skill in (None, *STEPS):
            pool = [attribute, *([skill] if skill else [])]
            for pushed in (False, True):
                label = f"chance of success with {'+'.join(pool)}{', pushed' if pushed else ''}"
                figures[label] = Fraction(step_dice.chance(pool, pushed=pushed))
    return figures
