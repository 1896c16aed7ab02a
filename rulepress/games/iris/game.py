"""IRIS: traits, skills and the skill test, weapons, corruption, character points."""

from __future__ import annotations

from pathlib import Path

from rulepress.games import bundled_kinds, bundled_scripts
from rulepress.plugin import Game

GAME = Game(
    "iris",
    "IRIS",
    samples=Path(__file__).resolve().parent / "samples",
    commands=("rulepress.games.iris.import_group:import_group",),
    order=10,
    kinds=bundled_kinds(
        "iris",
        "trait",
        "skill",
        "skill-test",
        "weapon-section",
        "weapon",
        "corruption-rules",
        "corruption-triggers",
        "obedience-consequences",
        "cp-spending",
        "cp-earning",
    ),
    scripts=bundled_scripts("iris"),
)
"""The game rulepress's pyproject.toml registers as `iris` (group `rulepress.games`)."""
