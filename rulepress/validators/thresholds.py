"""Checks over the boundaries the rules state as data (models.common.Boundary)."""

from __future__ import annotations

from collections import defaultdict

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.models.common import Boundary, StatesBoundaries
from rulepress.validators.registry import Report, check


def _boundaries_index(document) -> object:
    """What threshold-wording reads of a document: the boundaries a published rule states."""
    if not isinstance(document, StatesBoundaries):
        return None
    return (document.id, document.is_draft, list(document.stated_boundaries()))


@check("RP230", "threshold-wording", Level.WARNING, index=_boundaries_index)
def threshold_wording(ruleset: Ruleset):
    """Two rules of a ruleset state a boundary of the same quantity at the same value, but
    on different sides of it: one says "0 or less" (`<= 0`) where another says "below 0"
    (`< 0`), or one starts a state when TCs exceed 3 x CUF (`> 3x-cuf`) and another ends
    it when they drop below it (`< 3x-cuf`), so exactly the value falls in neither or in
    both. A rule and its complement (`> 0` and `<= 0`) agree and are not reported. Each
    place is named; rules state boundaries in their `boundaries` list (or in fields that
    hold one, such as a threat threshold's `exceeds`).

    Example: `{quantity: stamina, comparison: "<", value: 0, text: Stamina dropping below
    0}` in one rule and `{quantity: stamina, comparison: "<=", value: 0, text: your current
    Stamina is 0 or less}` in another."""
    stated: dict[tuple[str, object], list[tuple[Entry, Boundary, tuple]]] = defaultdict(list)
    for entry in ruleset.entries:
        document = entry.document
        if document.is_draft or not isinstance(document, StatesBoundaries):
            continue
        for boundary, path in document.stated_boundaries():
            stated[(boundary.quantity, boundary.value)].append((entry, boundary, path))
    for places in stated.values():
        if len({boundary.cut for _, boundary, _ in places}) < 2:
            continue
        for entry, boundary, path in places:
            others = "; ".join(
                f"{other} ({other.text!r}) in {e.document.id}"
                for e, other, _ in places
                if other.cut != boundary.cut
            )
            yield Report(
                entry,
                f"{boundary} ({boundary.text!r}) here, but {others}: they put "
                f"{boundary.quantity} = {boundary.value} on different sides of the boundary",
                path,
            )
