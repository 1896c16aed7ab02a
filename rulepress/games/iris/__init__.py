"""IRIS: traits, skills and the skill test, weapons, corruption, character points."""

from __future__ import annotations

from pathlib import Path

from rulepress.games.iris.checks import CHECKS
from rulepress.games.iris.kinds import KINDS
from rulepress.plugin import Game

HERE = Path(__file__).resolve().parent
"""The game's package folder, which holds its samples and its calculator script."""

GAME = Game(
    "iris",
    "IRIS",
    samples=HERE / "samples",
    commands=("rulepress.games.iris.import_group:import_group",),
    order=10,
    kinds=KINDS,
    checks=CHECKS,
    code_prefix="RP",
    scripts=(HERE / "calculator.js",),
)
"""The game rulepress's pyproject.toml registers as `iris` (group `rulepress.games`)."""
