"""The check that a ruleset's durations are in units it converts between (RP228)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pydantic import BaseModel

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.kinds import games
from rulepress.validators.plugin_calls import stated
from rulepress.validators.registry import Report, check, strings_index

CALENDAR = ("second", "minute", "hour", "day", "week", "month", "year")
"""Units of fixed length, which convert among themselves without a rule saying how."""
PLAY = ("round", "turn")
"""Units of play: no calendar fixes their length, so two of them (or one and a unit the
ruleset names) are comparable only where the rules state a conversion."""
NOT_READ = frozenset({"rulings", "acknowledged", "previous_ids", "id", "kind", "status"})
"""A document's fields that are not the source's words: its rulings, acknowledgements, ids."""
COUNT = (
    r"the|a|an|one|two|three|four|five|six|that|this|each|every|next|following|current|"
    r"same|their|your|his|her|its|per|of|several|[0-9]+(?:d[0-9]+)?(?:[+-][0-9]+)?"
)
"""What stands before a unit that is a duration ("the following round", "1d6+1 turns")."""


def conversions(entry: Entry) -> tuple[list[tuple[str, str, tuple]], Report | None]:
    """The conversions a document states, as (unit, unit it is measured in, data path):
    a kind states them with a `stated_conversions()` method (a time table's "Round: 5-10
    seconds"); and an error report if a plugin's method failed."""
    listed, failed = stated(entry, "stated_conversions")
    return [(unit_name(unit), unit_name(other), path) for unit, other, path in listed], failed


def unit_name(word: str) -> str:
    """A unit's name as the check compares it: lowercase and singular (`Rounds`: round)."""
    word = word.strip().lower()
    for ending in ("es", "s"):
        if word.endswith(ending) and word[: -len(ending)] in (*CALENDAR, *PLAY):
            return word[: -len(ending)]
    if word.endswith("es") and word.endswith(("ches", "shes", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _pattern(units: tuple[str, ...]) -> re.Pattern:
    """A unit of `units` after a count, in a text ("for 1d6+1 rounds")."""
    return re.compile(
        rf"\b(?:{COUNT})\s+(?:(?:full|whole|entire|single)\s+)?"
        rf"({'|'.join(map(re.escape, units))})(?:e?s)?\b",
        re.IGNORECASE,
    )


def _walk(value: object, path: tuple, pattern: re.Pattern, units: tuple[str, ...]) -> Iterator:
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            if not path and name in NOT_READ:
                continue
            field = getattr(value, name)
            if name == "unit" and isinstance(field, str) and unit_name(field) in units:
                yield unit_name(field), (*path, name), True
            else:
                yield from _walk(field, (*path, name), pattern, units)
    elif isinstance(value, list):  # not a tuple: a table's row of figures holds no words
        for index, item in enumerate(value):
            if not isinstance(item, tuple | int | float):  # nor do its rows, one by one
                yield from _walk(item, (*path, index), pattern, units)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, (*path, key), pattern, units)
    elif isinstance(value, str):
        for match in pattern.finditer(value):
            yield unit_name(match.group(1)), path, False


class _Joined:
    """Which units convert into which: a union of the units each conversion joins, the
    calendar's units one group from the start."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {unit: CALENDAR[0] for unit in CALENDAR}

    def find(self, unit: str) -> str:
        while self.parent.setdefault(unit, unit) != unit:
            unit = self.parent[unit]
        return unit

    def join(self, one: str, other: str) -> None:
        self.parent[self.find(one)] = self.find(other)


@check("RP228", "duration-units", Level.WARNING, index=strings_index)
def duration_units(ruleset: Ruleset):
    """Durations of one ruleset are given in two units of play (rounds and turns, or a
    round and a unit of the ruleset's own) that nothing in the ruleset converts between,
    so a reader cannot tell whether 1d6+1 turns is as long as 1d6+1 rounds. A duration is
    a `unit` field (`{dice: 1d6+1, unit: turns}`) or a unit after a count in the text
    ("for 1d6+1 rounds", "the following turn"). A conversion is what a kind states with
    `stated_conversions()` (a time table's "Round: 5-10 seconds"); units converted into
    calendar units (seconds, minutes, hours) convert into each other through them.
    Calendar units alone are never reported. One finding per document and unit, at its
    first duration as data, else its first in the text.

    A ruleset holding several games' kinds (`rulepress init --samples all`) compares
    durations game by game (each game's units are its own; the core's kinds, rule texts,
    count with every game's), with the conversions any document states.

    Example: a shock roll knocks a character out "for 1d6+1 rounds" and a panic freezes
    one "for 1d6+1 turns", and no table says how long a turn or a round is."""
    joined, named, defining = _Joined(), set(PLAY), set()
    for entry in ruleset.entries:  # the conversions any document states hold for all
        if not entry.document.is_draft:
            listed, failed = conversions(entry)
            if failed is not None:
                yield failed
            for unit, other, path in listed:
                named.update((unit, other))
                joined.join(unit, other)
                defining.add((id(entry), path[:-1]))  # the row that states it
    by_game: dict[str, list[Entry]] = {}
    shared = []
    owners = _owners()
    for entry in ruleset.entries:
        owner = owners.get(entry.document.KIND)
        (shared if owner in (None, "core") else by_game.setdefault(owner, [])).append(entry)
    reported = set()  # a core document's duration is compared within each game's
    for entries in by_game.values() or [[]]:
        for report in _units_of(shared + entries, joined, named, defining):
            if (id(report.entry), report.path) not in reported:
                reported.add((id(report.entry), report.path))
                yield report


def _owners() -> dict[str, str]:
    """Each kind's game id."""
    return {kind.name: game.id for game in games() for kind in game.kinds}


def _units_of(entries: list[Entry], joined, named: set, defining: set) -> Iterator[Report]:
    """The findings among `entries` (one game's, and the core's), under the conversions."""
    units = tuple(sorted(named - set(CALENDAR)))
    pattern = _pattern(units)
    used: dict[str, dict[int, tuple[Entry, tuple, bool]]] = {}
    for entry in entries:
        if entry.document.is_draft:
            continue
        for unit, path, as_data in _walk(entry.document, (), pattern, units):
            if as_data and (id(entry), path[:-1]) in defining:
                continue  # a unit a conversion defines, not a duration
            first = used.setdefault(unit, {}).get(id(entry))
            if first is None or (as_data and not first[2]):
                used[unit][id(entry)] = (entry, path, as_data)
    groups = {joined.find(unit) for unit in used}
    if len(groups) < 2:
        return
    for unit, places in used.items():
        others = [
            f"{other}s in {', '.join(e.document.id for e, _, _ in found.values())}"
            for other, found in used.items()
            if joined.find(other) != joined.find(unit)
        ]
        for entry, path, _ in places.values():
            yield Report(
                entry,
                f"a duration in {unit}s here, but in " + "; ".join(others) + ", and nothing "
                "in the ruleset converts between them",
                path,
            )
