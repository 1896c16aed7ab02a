"""IRIS's models, by document kind, and the typed results their rules return."""

from rulepress.games.iris.models.character_points import (
    CpAward,
    CpCost,
    CpEarned,
    CpEarning,
    CpSpending,
)
from rulepress.games.iris.models.corruption import (
    CharacterState,
    ConsequenceOption,
    Consequences,
    CorruptionLevel,
    CorruptionRules,
    CorruptionTriggers,
    Effect,
    ObedienceConsequences,
    Presence,
    PresenceSession,
)
from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.skill_test import SkillTest, SkillTestResult
from rulepress.games.iris.models.trait import Trait
from rulepress.games.iris.models.weapon import ApRow, WeaponProfile, WeaponSection

__all__ = [
    "ApRow",
    "CharacterState",
    "ConsequenceOption",
    "Consequences",
    "CorruptionLevel",
    "CorruptionRules",
    "CorruptionTriggers",
    "CpAward",
    "CpCost",
    "CpEarned",
    "CpEarning",
    "CpSpending",
    "Effect",
    "ObedienceConsequences",
    "Presence",
    "PresenceSession",
    "Skill",
    "SkillTest",
    "SkillTestResult",
    "Trait",
    "WeaponProfile",
    "WeaponSection",
]
