"""The core's own kinds, which every ruleset has whatever its game: a ruleset's
`ruleset.yaml`, the rule texts, the roll tables and the translations. They come first
in the registry (order 0).

A kind with no entry field but its model is data the checks and other kinds read (a
ruleset's `ruleset.yaml`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rulepress.kinds import Game, Guide, Kind, Part
from rulepress.kinds.roll_table import ROLL_TABLE
from rulepress.models import RulesetInfo, RuleText
from rulepress.models.translation import Translation


def _rule_texts(rules: Sequence[RuleText], ruleset) -> list[Part]:
    """Each rule text is a section of the chapter it names."""
    return [Part(rule.id, rule.title, (rule,), rule.order, chapter=rule.chapter) for rule in rules]


KINDS = (
    Kind(RulesetInfo),
    Kind(RuleText, guide=Guide("Rules", "rule", order=0, parts=_rule_texts)),
    ROLL_TABLE,
    Kind(Translation),
)

CORE = Game("core", "rulepress", order=0, kinds=KINDS)
"""The core's kinds as a game, which the registry holds itself (no entry point)."""
