"""Checks that the rules agree with themselves: names, stated figures, ladders, TC signs."""

from __future__ import annotations

import re
from collections import defaultdict

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.games.cuf.models.threat import TcLadder, TcSource
from rulepress.validators.registry import Report, check


def _normal(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", name.lower()).strip()


def _names_index(document) -> tuple:
    """What the name checks read of a document: its kind, id, name and header."""
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


def _ladder_index(document) -> object:
    """What ladder-order reads of a document: its id, and a ladder or a TC source whole."""
    return (document.id, document if isinstance(document, TcLadder | TcSource) else None)


@check("RP214", "duplicate-name", Level.WARNING, index=_names_index, placeholder_symptom=True)
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
            key = (doc.kind, field, _normal(value))
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


@check("RP219", "ladder-order", Level.WARNING, index=_ladder_index)
def ladder_order(ruleset: Ruleset):
    """The steps of an "includes above" ladder do not rise in TCs, or a step is not a
    fixed amount. Each step includes the ones below it, so it must count more.

    Example: a ladder "wounded (1) -> incapacitated (2) -> killed (1)"."""
    for entry in ruleset.entries:
        if not isinstance(entry.document, TcLadder):
            continue
        previous = None
        for index, step in enumerate(entry.document.steps):
            source = ruleset.get(step)
            if not isinstance(source, TcSource):
                continue  # dangling-reference reports it
            if not isinstance(source.tc, int):
                yield Report(entry, f"step '{step}' has no fixed TC amount", ("steps", index))
                continue
            if previous is not None and abs(source.tc) <= abs(previous):
                yield Report(
                    entry,
                    f"step '{step}' ({source.tc} TC) does not count more than "
                    f"the step below it ({previous} TC)",
                    ("steps", index),
                )
            previous = source.tc


@check("RP220", "tc-sign", Level.ERROR, reads="document")
def tc_sign(ruleset: Ruleset):
    """A TC source that `adds` has a negative amount, or one that `reduces` a positive one.

    Example: "Being attacked" with `effect: adds` and `tc: -1`."""
    for entry in ruleset.entries:
        source = entry.document
        if not isinstance(source, TcSource):
            continue
        sign = 1 if source.effect == "adds" else -1
        for field, amount in _amounts(source):
            if amount * sign < 0:
                yield Report(
                    entry, f"a source that {source.effect} TCs has amount {amount}", (field,)
                )


def _amounts(source: TcSource) -> list[tuple[str, int]]:
    """(field, amount) for every amount a source states."""
    if source.tc == "referee":
        amounts = []
    elif isinstance(source.tc, int):
        amounts = [("tc", source.tc)]
    else:
        amounts = [("tc", source.tc.min), ("tc", source.tc.max)]
    if source.outstanding_success_tc is not None:
        amounts.append(("outstanding_success_tc", source.outstanding_success_tc))
    return amounts
