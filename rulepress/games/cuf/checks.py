"""Coolness Under Fire's cross-document checks: the "includes above" ladders rise, and
each TC source's amounts have the sign of its effect."""

from __future__ import annotations

from rulepress.games.cuf.models.threat import TcLadder, TcSource
from rulepress.plugin import Level, Report, Ruleset, check


def _ladder_index(document) -> object:
    """What ladder-order reads of a document: its id, and a ladder or a TC source whole."""
    return (document.id, document if isinstance(document, TcLadder | TcSource) else None)


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


CHECKS = (ladder_order, tc_sign)
"""The game's checks (`Game.checks`), in code order."""
