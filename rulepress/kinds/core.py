"""The core's own kinds, which every ruleset has whatever its game: a ruleset's
`ruleset.yaml`, the rule texts and roll tables. They come first in the registry (order 0)."""

from __future__ import annotations

from rulepress.kinds import Game
from rulepress.kinds.builtin import KINDS
from rulepress.models import RollTable, RulesetInfo, RuleText

CORE = Game(
    "core",
    "rulepress",
    order=0,
    kinds=tuple(kind for kind in KINDS if kind.model in (RulesetInfo, RuleText, RollTable)),
)
"""The core's kinds as a game, which the registry holds itself (no entry point)."""
