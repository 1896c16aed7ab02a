"""The Foundry game systems a game can make its Items for (stable: see rulepress.plugin).

A game registers a system as one of its `Game.foundry_systems`: any object with the
members of `ItemSystem` (a frozen dataclass, as `SimpleWorldbuilding` is). The
`foundry.system` setting of rulepress.yaml names the one a build targets, by its `id`:
module.json's Item packs name it, each Item's `type` and `system` data come from its
`item()`, and the macros read an actor's stats with its `actor_reader`.
"""

from __future__ import annotations

from rulepress.exporters.foundry.packs.common import Shared
from rulepress.kinds.systems import ItemSystem, SimpleWorldbuilding

__all__ = ["ItemSystem", "Shared", "SimpleWorldbuilding"]
