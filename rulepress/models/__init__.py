"""Pydantic models of every compendium document kind (rulepress.kinds registers them), and
the typed results their rules return."""

from __future__ import annotations

from rulepress.models.base import (
    Document,
    Model,
    Ref,
    RichText,
    Ruling,
    iter_references,
    iter_rich_texts,
)
from rulepress.models.character_points import CpAward, CpCost, CpEarned, CpEarning, CpSpending
from rulepress.models.cool import CriticalFailure, FearResult, FearRoll, ShockResult, ShockRoll
from rulepress.models.corruption import (
    CharacterState,
    ConsequenceOption,
    Consequences,
    CorruptionRules,
    CorruptionTriggers,
    Effect,
    ObedienceConsequences,
    Presence,
)
from rulepress.models.cuf import CheckRoll, CufRating, ThreatThreshold
from rulepress.models.odds_table import OddsTable
from rulepress.models.roll_table import RollTable, RollTableRow
from rulepress.models.rule import RuleText
from rulepress.models.ruleset import ChapterPlan, RulesetInfo, SourceCredit
from rulepress.models.skill import Skill
from rulepress.models.skill_test import SkillTest, SkillTestResult
from rulepress.models.step_dice import (
    GroupRoll,
    ModifierRule,
    OpposedResult,
    OpposedRoll,
    PushPrice,
    PushRule,
    StepDice,
)
from rulepress.models.threat import TcLadder, TcSource
from rulepress.models.time_units import TimeUnits
from rulepress.models.trait import Trait
from rulepress.models.weapon import ApRow, WeaponProfile, WeaponSection

__all__ = [
    "ApRow",
    "ChapterPlan",
    "CharacterState",
    "CheckRoll",
    "ConsequenceOption",
    "Consequences",
    "CorruptionRules",
    "CorruptionTriggers",
    "CpAward",
    "CpCost",
    "CpEarned",
    "CpEarning",
    "CpSpending",
    "CriticalFailure",
    "CufRating",
    "Document",
    "Effect",
    "FearResult",
    "FearRoll",
    "GroupRoll",
    "Model",
    "ModifierRule",
    "ObedienceConsequences",
    "OddsTable",
    "OpposedResult",
    "OpposedRoll",
    "Presence",
    "PushPrice",
    "PushRule",
    "Ref",
    "RichText",
    "RollTable",
    "RollTableRow",
    "RuleText",
    "RulesetInfo",
    "Ruling",
    "ShockResult",
    "ShockRoll",
    "Skill",
    "SkillTest",
    "SkillTestResult",
    "SourceCredit",
    "StepDice",
    "TcLadder",
    "TcSource",
    "ThreatThreshold",
    "TimeUnits",
    "Trait",
    "WeaponProfile",
    "WeaponSection",
    "iter_references",
    "iter_rich_texts",
]
