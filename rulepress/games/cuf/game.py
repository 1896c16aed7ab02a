"""Coolness Under Fire for Twilight: 2000 v2.2: the CUF rating, threat thresholds and
conditions."""

from __future__ import annotations

from pathlib import Path

from rulepress.games import bundled_kinds, bundled_scripts
from rulepress.plugin import Game

GAME = Game(
    "cuf",
    "Coolness Under Fire",
    samples=Path(__file__).resolve().parent / "samples",
    order=30,
    kinds=bundled_kinds("cuf", "cuf-rating", "threat-threshold", "tc-source", "tc-ladder"),
    scripts=bundled_scripts("cuf"),
)
"""The game rulepress's pyproject.toml registers as `cuf` (group `rulepress.games`)."""
