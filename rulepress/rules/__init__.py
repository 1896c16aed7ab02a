"""The games' rules that span documents: TC totals (cuf), acting order (cool), the odds
against printed tables (odds) and the replay of worked examples (examples).

They read models and a Ruleset, so they sit above both; the exact dice engine that the
models themselves use is rulepress.dice, below the models. Every function is pure.
The typed values they take and return are exported here.
"""

from rulepress.rules.cool import Combatant
from rulepress.rules.cuf import RoundEnd, SkillRoll, TcEvent, ThreatState
from rulepress.rules.odds import ReadingFit

__all__ = ["Combatant", "ReadingFit", "RoundEnd", "SkillRoll", "TcEvent", "ThreatState"]
