"""Twilight: 2000 4e's models, by document kind, and the typed results their rules return."""

from rulepress.games.t2k4e.models.improvement import CharacterImprovement, Improvement
from rulepress.games.t2k4e.models.odds_table import OddsTable
from rulepress.games.t2k4e.models.rolls import Helper
from rulepress.games.t2k4e.models.step_dice import (
    GroupRoll,
    ModifierRule,
    OpposedResult,
    OpposedRoll,
    PushAllowance,
    PushPrice,
    PushRule,
    StepDice,
)
from rulepress.games.t2k4e.models.time_units import TimeUnits

__all__ = [
    "CharacterImprovement",
    "GroupRoll",
    "Helper",
    "Improvement",
    "ModifierRule",
    "OddsTable",
    "OpposedResult",
    "OpposedRoll",
    "PushAllowance",
    "PushPrice",
    "PushRule",
    "StepDice",
    "TimeUnits",
]
