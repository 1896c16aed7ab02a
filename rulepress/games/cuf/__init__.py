"""Coolness Under Fire for Twilight: 2000 v2.2: the CUF rating, threat thresholds and
conditions."""

from __future__ import annotations

from rulepress.games import bundled_kinds
from rulepress.plugin import Game

GAME = Game(
    "cuf",
    "Coolness Under Fire",
    order=30,
    kinds=bundled_kinds("cuf-rating", "threat-threshold", "tc-source", "tc-ladder"),
)
"""The game rulepress's pyproject.toml registers as `cuf` (group `rulepress.games`)."""
