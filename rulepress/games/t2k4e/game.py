"""Twilight: 2000 4th edition: step dice, pushing, modifiers, group and opposed rolls,
odds, time."""

from __future__ import annotations

from pathlib import Path

from rulepress.games import bundled_kinds, bundled_scripts
from rulepress.plugin import Game

GAME = Game(
    "t2k4e",
    "Twilight: 2000 4th Edition",
    samples=Path(__file__).resolve().parent / "samples",
    order=20,
    kinds=bundled_kinds(
        "t2k4e",
        "step-dice",
        "push-rule",
        "modifier-rule",
        "group-roll",
        "opposed-roll",
        "odds-table",
        "time-units",
    ),
    scripts=bundled_scripts("t2k4e"),
)
"""The game rulepress's pyproject.toml registers as `t2k4e` (group `rulepress.games`)."""
