"""Rendered pieces kept between renders of a ruleset: what makes `build --watch` fast.

A watch run renders a ruleset again after each edit. Most of what it renders (a
weapon's Item, a section's guide text, a document's JSON) reads a few documents, and an
edit changes a few: the loader keeps every unchanged document the same Python object
between updates, so a piece is looked up by the identity of the documents it reads (and
of what else it reads: the plain values of its key). A piece whose documents are all
the same objects is the same text; the others are rendered again.

What a piece reads beyond its key (the ruleset's info, the other documents' names and
places, the settings) must not have changed: the caller keeps the pieces only for an
update that left it alone (`clear` otherwise; `steady` below says which, from each
changed document's kind's `steady` hook).
Each piece holds the documents it was keyed by, so their ids are never reused while it
is kept; `sweep` after each whole render drops the pieces it did not ask for, so an edit
never leaves the old version behind (memory stays flat over a long watch).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from rulepress import kinds
from rulepress.compendium.model import Ruleset

T = TypeVar("T")


class Pieces:
    """Rendered pieces of one ruleset's output, keyed by what they read."""

    def __init__(self) -> None:
        """Empty: the first render makes every piece."""
        self._kept: dict[Hashable, tuple[tuple, object]] = {}
        self._used: dict[Hashable, tuple[tuple, object]] = {}
        self.made = 0
        """Pieces rendered since the last sweep (the others were kept): for tests and benches."""

    def get(self, name: Hashable, reads: tuple, make: Callable[[], T]) -> T:
        """The piece `name` made from the objects `reads` (compared by identity): kept from
        an earlier render if they are the same objects, else `make()`."""
        key = (name, *map(id, reads))
        found = self._used.get(key)
        if found is None:
            found = self._kept.get(key)
            if found is None:
                found = (reads, make())
                self.made += 1
            self._used[key] = found
        return found[1]  # type: ignore[return-value]

    def sweep(self) -> None:
        """End a render: keep only the pieces it asked for."""
        self._kept, self._used = self._used, {}

    def clear(self) -> None:
        """Forget every piece: what they read beyond their keys changed."""
        self._kept, self._used = {}, {}
        self.made = 0

    def start(self) -> None:
        """Begin a render: count the pieces it makes from zero."""
        self.made = 0


def steady(previous: Ruleset, current: Ruleset, changed: Iterable[str]) -> bool:
    """Whether the pieces of `current` rendered from unchanged documents are those of
    `previous`: the `changed` document ids are all in both, of a kind with a `steady`
    hook (what other pieces read of its documents: no other piece reads more), which
    gives the same before and after, in the same file."""
    placings = {kind.model: kind for kind in kinds.registry().values() if kind.steady}
    for document_id in changed:
        before, after = previous.get(document_id), current.get(document_id)
        kind = placings.get(type(before))
        if kind is None or type(before) is not type(after):
            return False
        placing = kinds.kind_hook(kind, kind.steady, "steady")
        if placing(before) != placing(after):
            return False
        if previous.entry(document_id).file != current.entry(document_id).file:
            return False  # another file: its place among the files may differ
    return True
