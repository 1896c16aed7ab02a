"""Cool's document kinds, in the registry's order: the shock roll, the fear roll and the
critical failure both judge. Their templates are the package's `templates` folder."""

from __future__ import annotations

from pathlib import Path

from rulepress.games.cool.models import CriticalFailure, FearRoll, ShockRoll
from rulepress.plugin import Guide, Kind

TEMPLATES = Path(__file__).resolve().parent / "templates"

# Hooks, named here and imported only where used (the commands import click).
COMMANDS, CALCULATOR, RULES = (
    "rulepress.games.cool.commands",
    "rulepress.games.cool.calculator",
    "rulepress.games.cool.rules",
)

KINDS = (
    Kind(
        ShockRoll,
        guide=Guide("Cool", "shock-roll", 200),
        roll=f"{COMMANDS}:roll_cool",
        odds=f"{COMMANDS}:odds_cool",
        calculator=f"{CALCULATOR}:cool_calculator",
        example=f"{RULES}:shock_roll_example",
        templates=TEMPLATES,
    ),
    Kind(
        FearRoll,
        guide=Guide("Cool", "fear-roll", 210),
        example=f"{RULES}:fear_roll_example",
        example_reads=("critical-failure",),
        templates=TEMPLATES,
    ),
    Kind(CriticalFailure, guide=Guide("Cool", "critical-failure", 220), templates=TEMPLATES),
)
"""Cool's kinds: shock-roll, fear-roll, critical-failure."""
