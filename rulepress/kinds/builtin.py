"""rulepress's own document kinds: the four source documents' rules, one entry each.

A kind with no entry field but its model is data the checks and other kinds read (a
ruleset's `ruleset.yaml`, a weapon profile shown inside its section).
"""

from __future__ import annotations

from collections.abc import Sequence

from rulepress.games.cool.models import CriticalFailure, FearRoll, ShockRoll
from rulepress.games.cuf.models.cuf import DIFFICULTY, CufRating, ThreatThreshold
from rulepress.games.cuf.models.threat import TcLadder, TcSource
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
from rulepress.kinds import (
    DiffWording,
    Guide,
    Kind,
    Macro,
    Part,
)
from rulepress.kinds.bundled_figures import step_dice_figures
from rulepress.kinds.roll_table import ROLL_TABLE
from rulepress.models import RulesetInfo, RuleText
from rulepress.output_names import slug

# Hooks in higher layers, named here and imported only where used.
ROLL, ODDS, NEW = "rulepress.commands.roll", "rulepress.commands.odds", "rulepress.commands.new"
CHARTS, HELPERS = "rulepress.exporters.site.charts", "rulepress.exporters.section_helpers"
EXAMPLES = "rulepress.rules.bundled_examples"


def _rule_texts(rules: Sequence[RuleText], ruleset) -> list[Part]:
    """Each rule text is a section of the chapter it names."""
    return [Part(rule.id, rule.title, (rule,), rule.order, chapter=rule.chapter) for rule in rules]


def _all_in_one(id_: str, title: str):
    def parts(documents: Sequence, ruleset) -> list[Part]:
        return [Part(id_, title, tuple(documents))] if documents else []

    return parts


def _tc_sources_by_effect(sources: Sequence[TcSource], ruleset) -> list[Part]:
    parts = []
    for position, (effect, title) in enumerate(
        (("adds", "Sources That Add TCs"), ("reduces", "Sources That Reduce TCs"))
    ):
        chosen = tuple(source for source in sources if source.effect == effect)
        if chosen:
            parts.append(Part(slug(title), title, chosen, 20 * position))
    return parts


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


def _threat_check_rules(ruleset) -> dict:
    thresholds = sorted(ruleset.all(ThreatThreshold), key=lambda t: t.exceeds)
    return {
        "multipliers": {name: float(value) for name, value in DIFFICULTY.items()},
        "thresholds": [
            {
                "id": t.id,
                "name": t.name,
                "exceeds": t.exceeds,
                "difficulty": t.check.difficulty,
                "asset": t.check.asset,
                "onFailure": t.on_failure.model_dump(),
                "onSuccess": t.on_success.model_dump(),
            }
            for t in thresholds
        ],
    }


LEVEL_ROWS = ("level", "id")
"""Level tables' rows are matched by their level, in `diff`."""

KINDS = (
    Kind(RulesetInfo),
    Kind(RuleText, guide=Guide("Rules", "rule", order=0, parts=_rule_texts)),
    ROLL_TABLE,
    Kind(
        StepDice,
        guide=Guide("Dice", "step-dice", 110),
        macro=Macro("t2k4e-roll", "Roll with Modifiers and Push", _step_dice_rules),
        chart=f"{CHARTS}:step_dice_charts",
        calculator="rulepress.games.t2k4e.calculator:step_dice_calculator",
        roll=f"{ROLL}:roll_t2k4e",
        odds=f"{ODDS}:odds_t2k4e",
        figures=step_dice_figures,
        changes=DiffWording(row_keys=LEVEL_ROWS),
    ),
    Kind(PushRule, guide=Guide("Dice", "push-rule", 120)),
    Kind(ModifierRule, guide=Guide("Dice", "modifier-rule", 130)),
    Kind(GroupRoll, guide=Guide("Dice", "group-roll", 140)),
    Kind(OpposedRoll, guide=Guide("Dice", "opposed-roll", 150)),
    Kind(
        OddsTable,
        guide=Guide("Dice", "odds-table", 160, helpers=f"{HELPERS}:odds_cells"),
        changes=DiffWording(row_keys=("id", "skill")),
    ),
    Kind(
        TimeUnits,
        guide=Guide("Time", "time-units", 170),
        changes=DiffWording(row_keys=("id", "unit")),
    ),
    Kind(
        CufRating,
        guide=Guide("Coolness Under Fire", "cuf-rating", 180),
        macro=Macro("cuf-threat-check", "Threat Check", _threat_check_rules),
        roll=f"{ROLL}:roll_cuf",
        calculator="rulepress.games.cuf.calculator:cuf_calculator",
    ),
    Kind(
        ThreatThreshold,
        guide=Guide("Coolness Under Fire", "threat-threshold", 190),
        example=f"{EXAMPLES}:threat_threshold_example",
        example_reads=("threat-threshold",),
    ),
    Kind(
        TcSource,
        new=f"{NEW}:new_tc_source_command",
        guide=Guide(
            "Threat Conditions",
            "tc-sources",
            parts=_tc_sources_by_effect,
            helpers=f"{HELPERS}:tc_amounts",
        ),
        changes=DiffWording("TC source"),
    ),
    Kind(
        TcLadder,
        guide=Guide(
            "Threat Conditions",
            "tc-ladders",
            order=140,
            parts=_all_in_one("includes-above-ladders", '"Includes Above" Ladders'),
            helpers=f"{HELPERS}:tc_amounts",
        ),
        changes=DiffWording("TC ladder"),
    ),
    Kind(
        ShockRoll,
        guide=Guide("Cool", "shock-roll", 200),
        roll=f"{ROLL}:roll_cool",
        calculator="rulepress.games.cool.calculator:cool_calculator",
        example=f"{EXAMPLES}:shock_roll_example",
    ),
    Kind(
        FearRoll,
        guide=Guide("Cool", "fear-roll", 210),
        example=f"{EXAMPLES}:fear_roll_example",
        example_reads=("critical-failure",),
    ),
    Kind(CriticalFailure, guide=Guide("Cool", "critical-failure", 220)),
)
