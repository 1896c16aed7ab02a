"""Twilight: 2000 4th edition: step dice, pushing, modifiers, group and opposed rolls,
odds, time."""

from __future__ import annotations

from pathlib import Path

from rulepress.games.t2k4e.checks import CHECKS
from rulepress.games.t2k4e.kinds import KINDS
from rulepress.plugin import Game

HERE = Path(__file__).resolve().parent
"""The game's package folder, which holds its samples and its calculator script."""

GAME = Game(
    "t2k4e",
    "Twilight: 2000 4th Edition",
    samples=HERE / "samples",
    order=20,
    kinds=KINDS,
    checks=CHECKS,
    code_prefix="RP",
    scripts=(HERE / "calculator.js",),
)
"""The game rulepress's pyproject.toml registers as `t2k4e` (group `rulepress.games`)."""
