"""Game systems the weapon Items can target. Each maps a weapon profile to an Item's
`type` and `system` data; add a system by adding a mapping to SYSTEMS."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from rulepress.models import WeaponProfile


class ItemSystem(Protocol):
    id: str
    """The Foundry system id packs of these Items require."""
    title: str

    def weapon(
        self, weapon: WeaponProfile, skill_name: str, currency: str, description: str
    ) -> tuple[str, dict]:
        """(Item type, system data) for a weapon profile."""


def _attribute(key: str, label: str, value: object) -> dict:
    dtype = "Number" if isinstance(value, int) else "String"
    return {"key": key, "label": label, "value": value, "dtype": dtype}


@dataclass(frozen=True)
class SimpleWorldbuilding:
    """Foundry's own Simple Worldbuilding system: Item type `item`, free attributes."""

    id: str = "worldbuilding"
    title: str = "Simple Worldbuilding"

    def weapon(
        self, weapon: WeaponProfile, skill_name: str, currency: str, description: str
    ) -> tuple[str, dict]:
        capacity = (
            ("magazine", "Magazine", weapon.magazine)
            if weapon.magazine is not None
            else ("attacks", "Attacks", weapon.attacks)
        )
        attributes = [
            ("tier", "Tier", weapon.tier),
            capacity,
            ("reload", "Reload", weapon.reload),
            ("cost", f"Cost ({currency})" if currency else "Cost", weapon.cost),
            ("rarity", "Rarity", weapon.rarity),
            ("skill", "Skill", skill_name),
        ]
        return "item", {
            "description": description,
            "quantity": 1,
            "weight": weapon.weight,
            "attributes": {key: _attribute(key, label, value) for key, label, value in attributes},
            "groups": {},
        }


SYSTEMS: dict[str, ItemSystem] = {system.id: system for system in (SimpleWorldbuilding(),)}
