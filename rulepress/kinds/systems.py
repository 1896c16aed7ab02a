"""The Foundry game systems a module's Items can target, and the registry of them.

A system (`ItemSystem`) says how a kind's attributes (rulepress.kinds: FoundryItems)
become an Item's `type` and `system` data, and how a macro reads a stat of an actor of
that system. rulepress's own is Simple Worldbuilding (`worldbuilding`, the default of the
`foundry.system` setting); a game registers more as `Game.foundry_systems`. This layer
sits below the settings' loader, so an unknown `foundry.system` is a finding there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from rulepress.errors import PluginError, RulepressError, closest

Attribute = tuple[str, str, object]
"""(key, label, value): one of an Item's attributes (rulepress.kinds.Attribute)."""

SYSTEM_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
"""What a Foundry system id may be (a package id: letters, digits, `-` and `_`)."""


@runtime_checkable
class ItemSystem(Protocol):
    """A Foundry game system a module's Items can target: the Items' `type` and `system`
    data, and how its macros read an actor's stats."""

    id: str
    """The Foundry system id (`worldbuilding`, `dnd5e`): the system the module's Item packs
    name (`packs[].system` in module.json) and its Items' `_stats.systemId`."""
    title: str
    """The system's name for people (`Simple Worldbuilding`)."""
    version: str
    """The system's release the Items are written for (`_stats.systemVersion`)."""
    actor_reader: str
    """JavaScript that every macro of the module runs before its own code, defining
    `selectedActor()` (the actor a macro rolls for: the selected token's, else the
    user's character, else null) and `actorValue(actor, keys)` (the value of the first
    of the stat names `keys` the actor has, else undefined). It is code, written into
    the macros as it is: never data of the compendium."""

    def item(
        self, kind: str, attributes: Sequence[Attribute], weight: object, description: str
    ) -> tuple[str, dict]:
        """(Item type, `system` data) of one document of the kind named `kind`, from its
        attributes, its weight (None when the kind has none) and its description (HTML)."""


def _attribute(key: str, label: str, value: object) -> dict:
    dtype = "Number" if isinstance(value, int) else "String"
    return {"key": key, "label": label, "value": value, "dtype": dtype}


WORLDBUILDING_READER = (Path(__file__).parent / "worldbuilding.js").read_text(encoding="utf-8")
"""Simple Worldbuilding's actor stats: `system.attributes.<key>`, or grouped
`.<group>.<key>`, each `{value}`; a stat's name matches whatever its case."""


@dataclass(frozen=True)
class SimpleWorldbuilding:
    """Foundry's own Simple Worldbuilding system: Item type `item`, free attributes."""

    id: str = "worldbuilding"
    """Its Foundry system id."""
    title: str = "Simple Worldbuilding"
    """Its name for people."""
    version: str = "0.8.2"
    """The release its Items are written for (`foundryvtt/worldbuilding` 0.8.2)."""
    actor_reader: str = WORLDBUILDING_READER
    """Reads `system.attributes.<key>` or, grouped, `.<group>.<key>`, each `{value}`."""

    def item(
        self, kind: str, attributes: Sequence[Attribute], weight: object, description: str
    ) -> tuple[str, dict]:
        """Every kind is an `item`: each attribute keeps its label, and numbers stay numbers."""
        return "item", {
            "description": description,
            "quantity": 1,
            "weight": weight,
            "attributes": {key: _attribute(key, label, value) for key, label, value in attributes},
            "groups": {},
        }


DEFAULT_SYSTEM = SimpleWorldbuilding.id
"""The system a module targets when the settings name none."""

_MEMBERS = {"id": str, "title": str, "version": str, "actor_reader": str}


def item_systems() -> dict[str, ItemSystem]:
    """Every system a build can target, by id: Simple Worldbuilding, then each game's
    `foundry_systems` in the games' order. One that lacks a member, or whose id another
    registers too, is refused naming the game's package."""
    from rulepress import kinds

    systems: dict[str, ItemSystem] = {DEFAULT_SYSTEM: SimpleWorldbuilding()}
    owners = {DEFAULT_SYSTEM: "rulepress"}
    for game in kinds.games():
        for system in game.foundry_systems:
            where = f"a Foundry system of game {game.id!r} from {game.package}"
            _check_shape(system, where)
            if system.id in systems:
                raise PluginError(
                    f"{where}: system {system.id!r} is already registered by {owners[system.id]}"
                )
            systems[system.id], owners[system.id] = system, game.package
    return systems


def _check_shape(system: object, where: str) -> None:
    """Refuse a system a build could not use, before any module is written."""
    problems = [
        f"{member} is not a {kind.__name__}"
        for member, kind in _MEMBERS.items()
        if not isinstance(getattr(system, member, None), kind)
    ]
    if not callable(getattr(system, "item", None)):
        problems.append("item() is missing")
    if not problems and not SYSTEM_ID.fullmatch(system.id):
        problems.append(f"id {system.id!r} is not letters, digits, '-' and '_'")
    if problems:
        raise PluginError(f"{where} is no ItemSystem: {'; '.join(problems)}")


def unknown_system(name: str, systems: Sequence[str]) -> str:
    """Why `name` is no system a build can target: the close ones, and every one known."""
    close = closest(name, systems, cutoff=0.6)
    hint = f" (did you mean {close!r}?)" if close else ""
    return f"unknown Foundry system {name!r}{hint}; registered: {', '.join(systems)}"


def item_system(name: str) -> ItemSystem:
    """The registered system `name` (the `foundry.system` setting), else a RulepressError."""
    systems = item_systems()
    if name not in systems:
        raise RulepressError(unknown_system(name, list(systems)))
    return systems[name]
