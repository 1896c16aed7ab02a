"""IRIS's checks that the weapons agree with themselves and with their sections: the
header and the name, a column's label, the tiers of a section."""

from __future__ import annotations

import operator
from collections import Counter

from rulepress.games.iris.checks.weapon_tables import ap_spans
from rulepress.games.iris.checks.weapons import published_weapons_by_section, weapon_entries
from rulepress.games.iris.models.weapon import WeaponProfile
from rulepress.plugin import Entry, Level, Report, Ruleset, check, name_key, names_index

RARITY_ORDER = ("Ubiquitous", "Common", "Uncommon", "Rare", "Legendary")


def _labels_index(document) -> object:
    """What column-named-two-ways reads of a document: a weapon's labels and section."""
    if not isinstance(document, WeaponProfile):
        return None
    return (document.is_draft, document.section, document.move_column, _capacity_label(document))


@check("RP213", "header-mismatch", Level.WARNING, index=names_index, placeholder_symptom=True)
def header_mismatch(ruleset: Ruleset):
    """A weapon profile's header ("Weapon Profile - X (Tier N)") names a different weapon
    than the name printed under it. Exports use the name under the header.

    Example: the header says "Scattergun" and the profile says "Pump Action Shotgun"."""
    weapons = weapon_entries(ruleset, drafts=True)
    names = {name_key(e.document.name): e.document.id for e in weapons if e.document.name}
    for entry in weapons:
        profile = entry.document
        if not profile.header:
            continue
        if not profile.name:
            other = names.get(name_key(profile.header))
            if other:
                yield Report(
                    entry,
                    f"unnamed profile's header '{profile.header}' is the name "
                    f"of '{other}' (a copied placeholder?)",
                    ("header",),
                )
            continue
        header, name = name_key(profile.header), name_key(profile.name)
        if header == name:
            continue
        if header.startswith(name) or name.startswith(header):
            yield Report(
                entry,
                f"header '{profile.header}' and name '{profile.name}' differ in length only",
                ("header",),
                level=Level.INFO,
            )
            continue
        other = names.get(header)
        also = f" (the name of '{other}')" if other else ""
        yield Report(
            entry,
            f"header names '{profile.header}'{also} but the profile is '{profile.name}'",
            ("header",),
        )


@check("RP215", "column-named-two-ways", Level.WARNING, index=_labels_index)
def column_named_two_ways(ruleset: Ruleset):
    """The same column or stat is printed under two names: the movement column as Move
    and Speed, the capacity stat as Magazine and Attacks. Every profile of the minority
    name is named: the ruleset's minority in every section, and a section's own minority
    where the section mostly uses the ruleset's minority name.

    Example: every shotgun table says "Move" but one says "Speed"; or most weapons give a
    Magazine and the three rapid-fire weapons give Attacks."""
    weapons = weapon_entries(ruleset)
    for what, label, path in LABELS:
        reported: set[int] = set()
        for report in _minority(weapons, label, path, what, "in the ruleset"):
            reported.add(id(report.entry))
            yield report
        for section, entries in published_weapons_by_section(ruleset).items():
            for report in _minority(entries, label, path, what, f"in section '{section}'"):
                if id(report.entry) not in reported:
                    yield report


def _capacity_label(profile: WeaponProfile) -> str | None:
    if profile.magazine is not None:
        return "Magazine"
    return "Attacks" if profile.attacks is not None else None


LABELS = (
    ("movement column", lambda d: d.move_column, ("move_column",)),
    ("capacity stat", _capacity_label, ()),
)
"""Every label a weapon profile prints: (what it names, how to read it, its data path;
no path: the field named by the label itself, `magazine` or `attacks`)."""


def _minority(entries: list[Entry], label, path: tuple, what: str, where: str):
    """A report for each entry whose label is not the one most of `entries` print."""
    counts = Counter(label(e.document) for e in entries if label(e.document))
    if len(counts) < 2:
        return
    usual = min(counts, key=lambda name: (-counts[name], name))  # a tie goes to the first name
    for entry in entries:
        own = label(entry.document)
        if own and own != usual:
            yield Report(
                entry,
                f"{what} is printed as '{own}' here but as '{usual}' in "
                f"{counts[usual]} other profiles {where}",
                path or (own.lower(),),
            )


@check("RP217", "tier-order", Level.WARNING, reads="group")
def tier_order(ruleset: Ruleset):
    """Within a weapon section, a higher tier is cheaper or less rare than a lower one.

    Example: a Tier 3 pistol costing 8 Bar when the Tier 2 one costs 18."""
    for entries in published_weapons_by_section(ruleset).values():
        for higher in entries:
            b = higher.document
            lower = [e.document for e in entries if e.document.tier < b.tier]
            dearer = [
                a for a in lower if a.cost is not None and b.cost is not None and b.cost < a.cost
            ]
            if dearer:
                a = max(dearer, key=lambda d: (d.cost, d.id))
                yield Report(
                    higher,
                    f"tier {b.tier} costs {b.cost}, less than tier {a.tier} '{a.name}' ({a.cost})",
                    ("cost",),
                )
            rarer = [
                a
                for a in lower
                if a.rarity in RARITY_ORDER
                and b.rarity in RARITY_ORDER
                and RARITY_ORDER.index(b.rarity) < RARITY_ORDER.index(a.rarity)
            ]
            if rarer:
                a = max(rarer, key=lambda d: (RARITY_ORDER.index(d.rarity), d.id))
                yield Report(
                    higher,
                    f"tier {b.tier} is {b.rarity}, commoner than tier "
                    f"{a.tier} '{a.name}' ({a.rarity})",
                    ("rarity",),
                )


TIER_COLUMNS = ("damage", "defense", "range")
"""The table columns a higher tier is expected to match or beat at every AP."""


@check("RP225", "tier-weaker-table", Level.INFO, reads="group")
def tier_weaker_table(ruleset: Ruleset):
    """Within a weapon section, a higher tier's table gives a lower damage, defense or
    range than a lower tier's at the same AP. It may be intended (a trade-off for another
    column), so it is information: one finding per profile and column, naming each lower
    tier it falls below with the APs (one per pair would leave an acknowledgement stale
    whenever the other profile fails to load).

    Example: "tier 4 range is lower at the same AP than tier 1 'Pump Action Shotgun' at
    AP 1-10 (AP 1: 15 against 20); tier 2 'Semi-Auto Shotgun' at AP 1-15 (...)"."""
    for entries in published_weapons_by_section(ruleset).values():
        rows_at = {id(e.document): _rows_by_ap(e.document) for e in entries}
        columns = {id(e.document): _columns(e.document) for e in entries}
        for higher in entries:
            b = higher.document
            lower = sorted(
                (e.document for e in entries if e.document.tier < b.tier),
                key=lambda d: (d.tier, d.order),
            )
            for column in TIER_COLUMNS:
                first, parts = None, []
                for a in lower:
                    if _never_lower(columns[id(b)], columns[id(a)], column):
                        continue
                    weaker = [
                        (index, row, theirs)
                        for index, row in enumerate(b.table)
                        if (theirs := rows_at[id(a)].get(row.ap)) is not None
                        and getattr(row, column) < getattr(theirs, column)
                    ]
                    if not weaker:
                        continue
                    index, row, theirs = weaker[0]
                    first = index if first is None else min(first, index)
                    parts.append(
                        f"tier {a.tier} '{a.display_name}' at AP "
                        f"{ap_spans([w[1].ap for w in weaker])} (AP {row.ap}: "
                        f"{getattr(row, column)} against {getattr(theirs, column)})"
                    )
                if parts:
                    yield Report(
                        higher,
                        f"tier {b.tier} {column} is lower at the same AP than " + "; ".join(parts),
                        ("table", first, column),
                    )


def _columns(profile: WeaponProfile) -> dict[str, tuple] | None:
    """A profile's APs and TIER_COLUMNS' figures, row by row; None when an AP repeats (a
    row is then compared with the first of its AP's, not the one beside it)."""
    aps = tuple(row.ap for row in profile.table)
    if len(set(aps)) < len(aps):
        return None
    return {"ap": aps} | {c: tuple(getattr(row, c) for row in profile.table) for c in TIER_COLUMNS}


def _never_lower(higher: dict | None, lower: dict | None, column: str) -> bool:
    """Whether `higher`'s column is lower than `lower`'s at no AP, told in one pass where
    both tables hold the same APs in the same order (most do); False when it cannot be told
    so, and the rows are compared one by one."""
    if higher is None or lower is None or higher["ap"] != lower["ap"]:
        return False
    return not any(map(operator.lt, higher[column], lower[column]))


def _rows_by_ap(profile: WeaponProfile) -> dict[int, object]:
    """A profile's rows by AP, the first of a repeated AP (as `row_at` finds it): looked
    up once per section rather than row by row."""
    rows: dict[int, object] = {}
    for row in profile.table:
        rows.setdefault(row.ap, row)
    return rows


@check("RP221", "tier-repeated", Level.WARNING, reads="group", placeholder_symptom=True)
def tier_repeated(ruleset: Ruleset):
    """A profile has the same tier as a published profile of its section. Each section
    offers one weapon per tier, so a repeat is usually a placeholder copied unchanged.

    Example: "Tactical Railgun (Tier 1)" beside the published Tier 1 "Bolt-Action Sniper"."""
    # entries, not documents, are compared: the document cache gives two files with the
    # same bytes one document
    published: dict[tuple[str, int], Entry] = {}
    for entry in weapon_entries(ruleset):
        published.setdefault((entry.document.section, entry.document.tier), entry)
    for entry in weapon_entries(ruleset, drafts=True):
        doc = entry.document
        first = published.get((doc.section, doc.tier))
        if first is not None and first is not entry:
            yield Report(
                entry,
                f"tier {doc.tier} is already '{first.document.display_name}' in section "
                f"'{doc.section}'",
                ("tier",),
            )
