"""Cool: shock and fear rolls, critical failures."""

from __future__ import annotations

from pathlib import Path

from rulepress.games import bundled_kinds, bundled_scripts
from rulepress.plugin import Game

GAME = Game(
    "cool",
    "Cool",
    samples=Path(__file__).resolve().parent / "samples",
    order=40,
    kinds=bundled_kinds("cool", "shock-roll", "fear-roll", "critical-failure"),
    scripts=bundled_scripts("cool"),
)
"""The game rulepress's pyproject.toml registers as `cool` (group `rulepress.games`)."""
