"""Twilight: 2000 4e's document kinds, one entry each, in the registry's order."""

from __future__ import annotations

from pathlib import Path

from rulepress.games.t2k4e.models.improvement import CharacterImprovement
from rulepress.games.t2k4e.models.odds_table import OddsTable
from rulepress.games.t2k4e.models.step_dice import (
    STEPS,
    GroupRoll,
    ModifierRule,
    OpposedRoll,
    PushRule,
    StepDice,
    push_reading,
)
from rulepress.games.t2k4e.models.time_units import TimeUnits
from rulepress.games.t2k4e.odds import step_dice_figures
from rulepress.plugin import DiffWording, Guide, Kind, Macro

TEMPLATES = Path(__file__).resolve().parent / "templates"

# Hooks in the game's heavier modules (charts, helpers, commands), named here and
# imported only where used.
HERE = "rulepress.games.t2k4e"
CHARTS, HELPERS, COMMANDS = f"{HERE}.charts", f"{HERE}.helpers", f"{HERE}.commands"

LEVEL_ROWS = ("level", "id")
"""The step dice's die levels are matched by their level, in `diff`."""


def _step_dice_rules(ruleset) -> dict:
    step_dice, modifiers, group = (
        ruleset.one(StepDice),
        ruleset.one(ModifierRule),
        ruleset.one(GroupRoll),
    )
    return {
        "successes": [s.model_dump() for s in step_dice.successes],
        "steps": list(STEPS),
        "groupBonusPerHelper": group.bonus_per_helper if group else 0,
        "groupMaxBonus": group.max_bonus if group else 0,
        "rerolls": push_reading(ruleset.one(PushRule)),
        "highest": modifiers.highest_pool[0],
        "lowest": modifiers.lowest_pool[0],
    }


KINDS = (
    Kind(
        StepDice,
        guide=Guide("Dice", "step-dice", 110),
        macro=Macro("t2k4e-roll", "Roll with Modifiers and Push", _step_dice_rules),
        chart=f"{CHARTS}:step_dice_charts",
        calculator=f"{HERE}.calculator:step_dice_calculator",
        roll=f"{COMMANDS}:roll_t2k4e",
        odds=f"{COMMANDS}:odds_t2k4e",
        figures=step_dice_figures,
        changes=DiffWording(row_keys=LEVEL_ROWS),
        templates=TEMPLATES,
    ),
    Kind(PushRule, guide=Guide("Dice", "push-rule", 120), templates=TEMPLATES),
    Kind(ModifierRule, guide=Guide("Dice", "modifier-rule", 130), templates=TEMPLATES),
    Kind(GroupRoll, guide=Guide("Dice", "group-roll", 140), templates=TEMPLATES),
    Kind(OpposedRoll, guide=Guide("Dice", "opposed-roll", 150), templates=TEMPLATES),
    Kind(
        OddsTable,
        guide=Guide("Dice", "odds-table", 160, helpers=f"{HELPERS}:odds_cells"),
        changes=DiffWording(row_keys=("id", "skill")),
        templates=TEMPLATES,
    ),
    Kind(
        TimeUnits,
        guide=Guide("Time", "time-units", 170),
        changes=DiffWording(row_keys=("id", "unit")),
        templates=TEMPLATES,
    ),
    Kind(
        CharacterImprovement,
        guide=Guide("Character Improvement", "character-improvement", 180),
        templates=TEMPLATES,
    ),
)
"""The game's kinds, in the registry's order."""
