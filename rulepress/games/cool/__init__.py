"""Cool: shock and fear rolls, critical failures."""

from __future__ import annotations

from pathlib import Path

from rulepress.games.cool.kinds import KINDS
from rulepress.plugin import Game

HERE = Path(__file__).resolve().parent
"""The game's package folder, which holds its samples and its calculator script."""

GAME = Game(
    "cool",
    "Cool",
    samples=HERE / "samples",
    order=40,
    kinds=KINDS,
    scripts=(HERE / "calculator.js",),
)
"""The game rulepress's pyproject.toml registers as `cool` (group `rulepress.games`)."""
