"""Twilight: 2000 4e's models, by document kind, and the typed results their rules return."""

from rulepress.games.t2k4e.models.odds_table import OddsTable
from rulepress.games.t2k4e.models.step_dice import (
    GroupRoll,
    ModifierRule,
    OpposedResult,
    OpposedRoll,
    PushPrice,
    PushRule,
    StepDice,
)
from rulepress.games.t2k4e.models.time_units import TimeUnits

__all__ = [
    "GroupRoll",
    "ModifierRule",
    "OddsTable",
    "OpposedResult",
    "OpposedRoll",
    "PushPrice",
    "PushRule",
    "StepDice",
    "TimeUnits",
]
