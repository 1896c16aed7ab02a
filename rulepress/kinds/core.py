"""The core's own kinds, which every ruleset has whatever its game: a ruleset's
`ruleset.yaml` and the rule texts. They come first in the registry (order 0)."""

from __future__ import annotations

from rulepress.kinds import Game
from rulepress.kinds.builtin import KINDS
from rulepress.models import RulesetInfo, RuleText

CORE = Game(
    "core",
    "rulepress",
    order=0,
    kinds=tuple(kind for kind in KINDS if kind.model in (RulesetInfo, RuleText)),
)
"""The core's kinds as a game, which the registry holds itself (no entry point)."""
