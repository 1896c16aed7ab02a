"""Coolness Under Fire for Twilight: 2000 v2.2: the CUF rating, threat thresholds and
conditions."""

from __future__ import annotations

from pathlib import Path

from rulepress.games.cuf.checks import CHECKS
from rulepress.games.cuf.kinds import KINDS
from rulepress.plugin import Game

HERE = Path(__file__).resolve().parent
"""The game's package folder, which holds its samples and its calculator script."""

GAME = Game(
    "cuf",
    "Coolness Under Fire",
    samples=HERE / "samples",
    order=30,
    kinds=KINDS,
    checks=CHECKS,
    code_prefix="RP",  # rulepress's own distribution: its games share its codes
    scripts=(HERE / "calculator.js",),
)
"""The game rulepress's pyproject.toml registers as `cuf` (group `rulepress.games`)."""
