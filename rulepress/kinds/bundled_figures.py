"""The bundled kinds' figures and wording for `diff` (their `Kind.figures` and
`Kind.changes`, see rulepress.history); they move into their games' packages later."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.games.iris.models.weapon import WeaponProfile


def skill_test_figures(skill_test: SkillTest, ruleset: Any) -> dict[str, Fraction]:
    """The chance of each AP or more at ranks 1-10."""
    figures: dict[str, Fraction] = {}
    for rank in range(1, 11):
        distribution = skill_test.distribution(rank)
        for ap in range(1, 2 * rank + 1):
            chance = sum((p for value, p in distribution.items() if value >= ap), Fraction(0))
            figures[f"chance of {ap} AP or more at rank {rank}"] = chance
    return figures


def weapon_summary(weapon: WeaponProfile) -> str:
    """A new weapon's line: its name, tier and whether it is a draft."""
    draft = ", draft" if weapon.is_draft else ""
    return f"{weapon.display_name} (tier {weapon.tier}{draft})"
