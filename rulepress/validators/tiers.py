"""The check that each stat that progresses across tiers does so in every step (RP229)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.per_object import PerObject
from rulepress.validators.plugin_calls import guarded
from rulepress.validators.registry import Report, check, group_of

FEWEST_CARRIERS = 3
"""A stat is judged only where at least this many documents of its kind give it."""
ALTERNATIVES_COVER = Fraction(2, 3)
"""Fields no document gives together are one stat when, together, at least this share
of their kind's documents give one of them."""
NOT_STATS = frozenset({"tier", "order"})
"""Numbers that are not stats: the tier itself, and where a document sits."""

Stat = tuple[str, ...]
"""A stat: the field that gives it, or the alternative fields that do (`magazine`,
`attacks`), each document giving at most one of them."""


def _numbers(document) -> dict[str, float]:
    """The numbers a document gives at its top level, by field (a flag is not a number)."""
    return {
        name: value
        for name in type(document).model_fields
        if name not in NOT_STATS
        and isinstance(value := getattr(document, name), (int, float))
        and not isinstance(value, bool)
    }


def _tier(document) -> int | None:
    tier = getattr(document, "tier", None)
    return tier if isinstance(tier, int) and not isinstance(tier, bool) else None


_NUMBERS = PerObject()
"""Each document's numbers (`_numbers`), worked out once: a watch keeps the unchanged."""
Numbers = dict[int, dict[str, float]]
"""The numbers of each document of one run (`_numbers`), by its entry's id."""


def _value(numbers: Numbers, entry: Entry, stat: Stat) -> float | None:
    given = numbers[id(entry)]
    for field in stat:
        if field in given:
            return given[field]
    return None


def _stats(numbers: Numbers, entries: list[Entry]) -> list[Stat]:
    """The stats documents of one kind give: each numeric field, and fields that are
    alternatives (no document gives two of them, and together most documents give one)
    as one stat."""
    given = [set(numbers[id(e)]) for e in entries]
    fields = sorted(set().union(*given))
    apart = {
        (a, b)
        for a, b in itertools.combinations(fields, 2)
        if not any(a in numbers and b in numbers for numbers in given)
        and Fraction(sum(a in n or b in n for n in given), len(given)) >= ALTERNATIVES_COVER
    }
    stats: list[Stat] = []
    for field in fields:
        joined = next((s for s in stats if all((f, field) in apart for f in s)), None)
        if joined is None:
            stats.append((field,))
        else:
            stats[stats.index(joined)] = (*joined, field)
    return stats


def _steps(
    numbers: Numbers, groups: list[list[Entry]], stat: Stat
) -> Iterator[tuple[float, float]]:
    """The values of each step of `stat` from a tier of a group to the next tier of the
    group that gives it, between documents whose values differ (a group's documents are
    met by tier, so the steps cost what they are, not the group's size squared)."""
    for entries in groups:
        by_tier: dict[int, list[float]] = {}
        for entry in entries:
            value = _value(numbers, entry, stat)
            if value is not None:
                by_tier.setdefault(_tier(entry.document), []).append(value)
        for lower, higher in itertools.pairwise(sorted(by_tier)):
            for a in by_tier[lower]:
                yield from ((a, b) for b in by_tier[higher] if a != b)


def _way(numbers: Numbers, groups: list[list[Entry]], stat: Stat) -> int:
    """The way `stat` progresses across the tiers of its kind's groups: 1 when its steps
    rise at least twice as often as they fall, -1 the other way, 0 for neither or when
    no step goes against it."""
    if (
        sum(_value(numbers, e, stat) is not None for entries in groups for e in entries)
        < FEWEST_CARRIERS
    ):
        return 0
    steps = list(_steps(numbers, groups, stat))
    rises = sum(b > a for a, b in steps)
    falls = len(steps) - rises
    if falls and rises >= 2 * falls:
        return 1
    if rises and falls >= 2 * rises:
        return -1
    return 0


def _groups(entries: list[Entry]) -> tuple[dict[tuple[str, str], list[Entry]], list[Report]]:
    """`entries` by their kind and group, and an error for each whose plugin's group hook
    failed (its document left out of the comparison)."""
    groups: dict[tuple[str, str], list[Entry]] = {}
    failed = []
    for entry in entries:
        group, report = guarded(entry, "the group hook", lambda e=entry: group_of(e.document))
        if report is not None:
            failed.append(report)
        elif group is not None:
            groups.setdefault((entry.document.kind, group), []).append(entry)
    return groups, failed


def _tier_index(document) -> tuple:
    """What RP229 reads of a document: its kind, id, name, status, tier, group and numbers
    (a plugin's group hook that fails is the check's to report, not the index's)."""
    try:
        group = group_of(document) if _tier(document) is not None else None
    except Exception:
        group = RuntimeError
    return (
        document.KIND,
        document.id,
        document.display_name,
        document.is_draft,
        _tier(document),
        group,
        tuple(sorted(_numbers(document).items())),
    )


@check("RP229", "tier-progression", Level.INFO, reads="ruleset", index=_tier_index)
def tier_progression(ruleset: Ruleset):
    """Within a group of documents with tiers (the weapons of one section), a stat that
    progresses across the tiers goes the other way. A stat is a number a document gives
    at its top level (capacity, weight, reload, cost), whatever its name; fields no
    document gives together, which together most documents of the kind give, are one
    stat (a capacity printed as a Magazine or as Attacks). It progresses when at least 3
    documents of the kind give it and, over the steps from each tier of a group to the
    next, at least twice as many rise as fall (or fall as rise), in all the kind's groups
    together: each document whose value goes against that way from a lower tier's of its
    group is named, with those lower tiers. The tiers' tables are the tier-weaker-table
    check's. It may be a trade-off, so it is information.

    Example: magazines of 4, 6 and 8 at tiers 1-3 of one section and 5 at tier 4, in a
    ruleset whose sections' magazines otherwise only grow."""
    tiered = [
        e for e in ruleset.entries if not e.document.is_draft and _tier(e.document) is not None
    ]
    numbers = {id(e): _NUMBERS.get(e.document, _numbers) for e in tiered}
    by_group, failed = _groups(tiered)
    yield from failed
    kinds: dict[str, list[list[Entry]]] = {}
    for (kind, _), entries in by_group.items():
        kinds.setdefault(kind, []).append(entries)
    for groups in kinds.values():
        for stat in _stats(numbers, [e for entries in groups for e in entries]):
            way = _way(numbers, groups, stat)
            if way:
                for entries in groups:
                    yield from _against(numbers, entries, stat, way)


def _against(numbers: Numbers, entries: list[Entry], stat: Stat, way: int) -> Iterator[Report]:
    """A report for each entry whose `stat` goes against `way` from a lower tier's (each
    entry's value and tier looked up once, not once per pair)."""
    carriers = [
        (entry, value, _tier(entry.document))
        for entry in entries
        if (value := _value(numbers, entry, stat)) is not None
    ]
    for b, value, tier in carriers:
        lower = [
            a
            for a, theirs, their_tier in carriers
            if their_tier < tier and (value - theirs) * way < 0
        ]
        if not lower:
            continue
        names = ", ".join(
            f"tier {_tier(a.document)} '{a.document.display_name}' ({_value(numbers, a, stat)})"
            for a in sorted(lower, key=lambda a: (_tier(a.document), a.document.id))
        )
        field = next(f for f in stat if f in numbers[id(b)])
        yield Report(
            b,
            f"{'/'.join(stat)} {'rises' if way > 0 else 'falls'} with the tiers, but tier "
            f"{tier} gives {field} {value}, {'less' if way > 0 else 'more'} "
            f"than {names}",
            (field,),
        )
