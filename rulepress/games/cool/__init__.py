"""Cool: shock and fear rolls, critical failures."""

from __future__ import annotations

from pathlib import Path

from rulepress.games.cool.kinds import KINDS
from rulepress.plugin import Game

GAME = Game(
    "cool",
    "Cool",
    samples=Path(__file__).resolve().parent / "samples",
    order=40,
    kinds=KINDS,
    scripts=(Path(__file__).resolve().parent / "calculator.js",),
)
"""The game rulepress's pyproject.toml registers as `cool` (group `rulepress.games`)."""
