"""The weapon profiles the IRIS checks read: all of a ruleset's, and each section's."""

from __future__ import annotations

from rulepress.games.iris.models.weapon import WeaponProfile
from rulepress.plugin import Entry, Ruleset


def weapon_entries(ruleset: Ruleset, *, drafts: bool = False) -> list[Entry]:
    """The ruleset's weapon profiles, in file order; drafts only when asked for."""
    return [
        e
        for e in ruleset.entries
        if isinstance(e.document, WeaponProfile) and (drafts or not e.document.is_draft)
    ]


def published_weapons_by_section(ruleset: Ruleset) -> dict[str, list[Entry]]:
    """The published weapons of each section (their group, the weapon kind's `group`
    hook), in file order, for the checks that compare a section's weapons."""
    by_section: dict[str, list[Entry]] = {}
    for entry in weapon_entries(ruleset):
        by_section.setdefault(entry.document.section, []).append(entry)
    return by_section
