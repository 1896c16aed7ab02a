"""Game systems the Items can target. Each maps a kind's attributes (rulepress.kinds:
FoundryItems) to an Item's `type` and `system` data; add a system by adding a mapping to
SYSTEMS."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rulepress.kinds import Attribute


class ItemSystem(Protocol):
    """A Foundry game system that Items can target: how a kind's attributes become its data."""

    id: str
    """The Foundry system id packs of these Items require."""
    title: str
    version: str
    """The system's release the Items are written for (`_stats.systemVersion`)."""

    def item(
        self, attributes: Sequence[Attribute], weight: object, description: str
    ) -> tuple[str, dict]:
        """(Item type, system data) for a document's attributes."""


def _attribute(key: str, label: str, value: object) -> dict:
    dtype = "Number" if isinstance(value, int) else "String"
    return {"key": key, "label": label, "value": value, "dtype": dtype}


@dataclass(frozen=True)
class SimpleWorldbuilding:
    """Foundry's own Simple Worldbuilding system: Item type `item`, free attributes."""

    id: str = "worldbuilding"
    title: str = "Simple Worldbuilding"
    version: str = "0.8.2"

    def item(
        self, attributes: Sequence[Attribute], weight: object, description: str
    ) -> tuple[str, dict]:
        """Free attributes: each keeps its label, and numbers stay numbers."""
        return "item", {
            "description": description,
            "quantity": 1,
            "weight": weight,
            "attributes": {key: _attribute(key, label, value) for key, label, value in attributes},
            "groups": {},
        }


SYSTEMS: dict[str, ItemSystem] = {system.id: system for system in (SimpleWorldbuilding(),)}
