"""The check that each stat that progresses across tiers does so in every step (RP229)."""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
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
"""Each document's numbers (`_numbers`) and the fields that give them, worked out once:
a watch keeps the unchanged."""
Numbers = dict[int, dict[str, float]]
"""The numbers of each document of one run (`_numbers`), by its entry's id."""


def _numbers_and_fields(document) -> tuple[dict[str, float], frozenset[str]]:
    numbers = _numbers(document)
    return numbers, frozenset(numbers)


def _value(numbers: Numbers, entry: Entry, stat: Stat) -> float | None:
    given = numbers[id(entry)]
    for field in stat:
        if field in given:
            return given[field]
    return None


def _stats(given: Counter[frozenset[str]]) -> list[Stat]:
    """The stats documents of one kind give (`given`: each set of fields a document gives,
    with how many do): each numeric field, and fields that are alternatives (no document
    gives two of them, and together most documents give one) as one stat."""
    total = sum(given.values())
    fields = sorted(set().union(*given))
    apart = {
        (a, b)
        for a, b in itertools.combinations(fields, 2)
        if not any(a in numbers and b in numbers for numbers in given)
        and Fraction(sum(n for f, n in given.items() if a in f or b in f), total)
        >= ALTERNATIVES_COVER
    }
    stats: list[Stat] = []
    for field in fields:
        joined = next((s for s in stats if all((f, field) in apart for f in s)), None)
        if joined is None:
            stats.append((field,))
        else:
            stats[stats.index(joined)] = (*joined, field)
    return stats


def _by_tier(numbers: Numbers, entries: list[Entry], stat: Stat) -> dict[int, list[float]]:
    """The values of `stat` the group's documents give, by tier."""
    by_tier: dict[int, list[float]] = {}
    for entry in entries:
        value = _value(numbers, entry, stat)
        if value is not None:
            by_tier.setdefault(_tier(entry.document), []).append(value)
    return by_tier


def _rises_and_falls(by_tier: dict[int, list[float]]) -> tuple[int, int]:
    """How many steps from a value of one tier to a different value of the next tier
    rise, and how many fall: counted in the lower tier's sorted values (by bisection), so
    they cost what the group's size is, not the product of two tiers' sizes."""
    rises = falls = 0
    for lower, higher in itertools.pairwise(sorted(by_tier)):
        below = sorted(by_tier[lower])
        if any(v != v for v in below) or any(v != v for v in by_tier[higher]):
            # NaN is never below nor above: each such step is a fall, as pair by pair
            steps = [(a, b) for a in below for b in by_tier[higher] if a != b]
            up = sum(b > a for a, b in steps)
            rises, falls = rises + up, falls + len(steps) - up
            continue
        for b in by_tier[higher]:
            rises += bisect.bisect_left(below, b)
            falls += len(below) - bisect.bisect_right(below, b)
    return rises, falls


def _way(numbers: Numbers, groups: list[_Group], stat: Stat) -> int:
    """The way `stat` progresses across the tiers of its kind's groups: 1 when its steps
    rise at least twice as often as they fall, -1 the other way, 0 for neither or when
    no step goes against it."""
    counted = [group.count(numbers, stat) for group in groups]
    if sum(carriers for carriers, _, _ in counted) < FEWEST_CARRIERS:
        return 0
    rises, falls = sum(r for _, r, _ in counted), sum(f for _, _, f in counted)
    if falls and rises >= 2 * falls:
        return 1
    if rises and falls >= 2 * rises:
        return -1
    return 0


class _Group:
    """What RP229 works out of one group's entries, for each stat: kept while the group is
    the same entries (a watch's edit changes one group of a thousand)."""

    __slots__ = ("counts", "entries", "reports")

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        """Held: the ids the group is kept by are not reused while it is."""
        self.counts: dict[Stat, tuple[int, int, int]] = {}
        self.reports: dict[tuple[Stat, int], list[Report]] = {}

    def count(self, numbers: Numbers, stat: Stat) -> tuple[int, int, int]:
        """How many entries give `stat`, and how many of its steps rise and fall."""
        found = self.counts.get(stat)
        if found is None:
            by_tier = _by_tier(numbers, self.entries, stat)
            carriers = sum(len(values) for values in by_tier.values())
            found = self.counts[stat] = (carriers, *_rises_and_falls(by_tier))
        return found

    def against(self, numbers: Numbers, stat: Stat, way: int) -> list[Report]:
        """The reports of the entries whose `stat` goes against `way` (`_against`)."""
        found = self.reports.get((stat, way))
        if found is None:
            found = self.reports[(stat, way)] = list(_against(numbers, self.entries, stat, way))
        return found


_KEPT: dict[str, dict[tuple[int, ...], _Group]] = {}
"""Ruleset id -> the groups of its last run, by the identities of their entries (a
loader keeps an unchanged file's entry the same object)."""


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
    known = {id(e): _NUMBERS.get(e.document, _numbers_and_fields) for e in tiered}
    numbers = {identity: given for identity, (given, _) in known.items()}
    by_group, failed = _groups(tiered)
    yield from failed
    kept, used = _KEPT.get(ruleset.id, {}), {}
    kinds: dict[str, list[_Group]] = {}
    for (kind, _), entries in by_group.items():
        identities = tuple(map(id, entries))
        group = used[identities] = kept.get(identities) or _Group(entries)
        kinds.setdefault(kind, []).append(group)
    _KEPT[ruleset.id] = used  # the groups no longer made are let go
    for groups in kinds.values():
        fields = Counter(known[id(e)][1] for group in groups for e in group.entries)
        for stat in _stats(fields):
            way = _way(numbers, groups, stat)
            if way:
                for group in groups:
                    yield from group.against(numbers, stat, way)


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
