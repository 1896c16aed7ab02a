"""Checks that the rules agree with themselves: names, stated figures, ladders, TC signs."""

from __future__ import annotations

import re
from collections import defaultdict

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.validators.registry import Report, check


def name_key(name: str) -> str:
    """A name as the name checks compare it: lowercase, every run of other characters
    than letters and digits one space ("LMG (Tier 1)" and "lmg tier 1" are one name)."""
    return re.sub(r"[^a-z0-9]+", " ", name.lower()).strip()


def names_index(document) -> tuple:
    """What the name checks read of a document: its kind, id, name and header (a check's
    `index` for a check that compares names)."""
    return (
        document.kind,
        document.id,
        getattr(document, "name", None),
        getattr(document, "header", None),
    )


def _figures_index(document) -> object:
    """What conflicting-figures reads of a document: its id and the figures it states."""
    figures = getattr(document, "stated_figures", None)
    stated = [(f.subject, repr(f.value), f.path) for f in figures()] if figures else []
    return (document.id, stated)


@check("RP214", "duplicate-name", Level.WARNING, index=names_index, placeholder_symptom=True)
def duplicate_name(ruleset: Ruleset):
    """Two documents of one kind carry the same display name (or header), so a reader
    cannot tell them apart.

    Example: six placeholder profiles all headed "LMG (Tier 1)"."""
    seen: dict[tuple[str, str, str], Entry] = {}
    for entry in ruleset.entries:
        doc = entry.document
        for field in ("name", "header"):
            value = getattr(doc, field, None)
            if not isinstance(value, str):
                continue
            key = (doc.kind, field, name_key(value))
            first = seen.setdefault(key, entry)
            if first is not entry:
                yield Report(
                    entry,
                    f"{doc.kind} {field} '{value}' is also used by '{first.document.id}'",
                    (field,),
                )


@check("RP216", "conflicting-figures", Level.WARNING, index=_figures_index)
def conflicting_figures(ruleset: Ruleset):
    """Two places in the rules state different figures for the same thing. Both stay as
    printed; this names every place so a ruling can pick one.

    Example: the corruption rules say each Aug adds +2 corruption, and the character
    point table says a new Aug costs +3 corruption."""
    stated: dict[str, list[tuple[Entry, object, tuple]]] = defaultdict(list)
    for entry in ruleset.entries:
        figures = getattr(entry.document, "stated_figures", None)
        for figure in figures() if figures else ():
            stated[figure.subject].append((entry, figure.value, figure.path))
    for subject, places in stated.items():
        values = {repr(value) for _, value, _ in places}
        if len(values) < 2:
            continue
        for entry, value, path in places:
            others = ", ".join(
                f"{other!r} in {e.document.id}"
                for e, other, _ in places
                if repr(other) != repr(value)
            )
            yield Report(entry, f"{subject}: {value!r} here, but {others}", path)
