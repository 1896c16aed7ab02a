"""The check that each stat that progresses across tiers does so in every step (RP229)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.validators.plugin_calls import guarded
from rulepress.validators.registry import Report, check, group_of

FEWEST_CARRIERS = 3
"""A stat is compared only in a group where at least this many documents give it."""
NOT_STATS = frozenset({"tier", "order"})
"""Numbers that are not stats: the tier itself, and where a document sits."""


def _stats(document) -> dict[str, float]:
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


def _against(entries: list[Entry], stat: str) -> Iterator[tuple[Entry, list[Entry], int]]:
    """Each entry whose `stat` goes against the way it progresses across the group's
    tiers, with the entries of other tiers it goes against, and the way (1 rises, -1 falls)."""
    carriers = [e for e in entries if stat in _stats(e.document)]
    if len(carriers) < FEWEST_CARRIERS:
        return
    value = {id(e): _stats(e.document)[stat] for e in carriers}
    tiers = sorted({_tier(e.document) for e in carriers})
    following = dict(itertools.pairwise(tiers))
    steps = [  # from each tier to the next that gives the stat
        (a, b)
        for a in carriers
        for b in carriers
        if following.get(_tier(a.document)) == _tier(b.document) and value[id(a)] != value[id(b)]
    ]
    rises = sum(value[id(b)] > value[id(a)] for a, b in steps)
    falls = len(steps) - rises
    if rises >= 2 * falls and falls:
        way = 1
    elif falls >= 2 * rises and rises:
        way = -1
    else:  # no progression, or none it goes against
        return
    for b in carriers:
        lower = [
            a
            for a in carriers
            if _tier(a.document) < _tier(b.document) and (value[id(b)] - value[id(a)]) * way < 0
        ]
        if lower:
            yield b, lower, way


def _groups(entries: list[Entry]) -> tuple[dict[str, list[Entry]], list[Report]]:
    """`entries` by their group, and an error for each whose plugin's group hook failed
    (its document left out of the comparison)."""
    groups: dict[str, list[Entry]] = {}
    failed = []
    for entry in entries:
        group, report = guarded(entry, "the group hook", lambda e=entry: group_of(e.document))
        if report is not None:
            failed.append(report)
        elif group is not None:
            groups.setdefault(group, []).append(entry)
    return groups, failed


@check("RP229", "tier-progression", Level.INFO, reads="group")
def tier_progression(ruleset: Ruleset):
    """Within a group of documents with tiers (the weapons of one section), a stat that
    progresses across the tiers goes the other way somewhere. A stat progresses when at
    least 3 documents of the group give it and, over the steps from each tier to the next
    whose values differ, at least twice as many rise as fall (or fall as rise): each
    document whose value goes against that way from a lower tier's is named, with the
    lower tiers. Every number a document gives at its top level is a stat (capacity,
    weight, reload, cost), whatever its name; the tiers' tables are the
    tier-weaker-table check's. It may be a trade-off, so it is information.

    Example: a section whose magazines hold 4, 6 and 8 at tiers 1-3 and 5 at tier 4."""
    tiered_entries = [
        e for e in ruleset.entries if not e.document.is_draft and _tier(e.document) is not None
    ]
    groups, failed = _groups(tiered_entries)
    yield from failed
    for tiered in groups.values():
        stats = sorted({stat for e in tiered for stat in _stats(e.document)})
        for stat in stats:
            for entry, lower, way in _against(tiered, stat):
                value = _stats(entry.document)[stat]
                names = ", ".join(
                    f"tier {_tier(a.document)} '{a.document.display_name}' "
                    f"({_stats(a.document)[stat]})"
                    for a in sorted(lower, key=lambda a: (_tier(a.document), a.document.id))
                )
                yield Report(
                    entry,
                    f"{stat} {'rises' if way > 0 else 'falls'} with the tiers of its group, "
                    f"but tier {_tier(entry.document)} gives {value}, "
                    f"{'less' if way > 0 else 'more'} than {names}",
                    (stat,),
                )
