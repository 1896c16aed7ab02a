"""A value worked out once per frozen object while it lives, in memory: a watch's
unchanged documents and rulesets are the same objects from one edit to the next.

Apart from rulepress.caching, which the launcher's no-op build imports: this module
imports `typing` and `weakref`, 6 ms of that build's 45.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
D = TypeVar("D")


class PerObject:
    """Values worked out once per object while it lives, forgotten once it is gone. A
    watch keeps the documents (and ruleset) of unchanged files between edits, the same
    objects: what a check or an outline works out from each (misspelled-word's count of
    a document's spellings, RP229's numbers, a ruleset's chapters) is then worked out for
    the changed ones only. Only for frozen objects, whose values cannot go stale."""

    def __init__(self) -> None:
        """Empty."""
        self.values: dict[int, tuple[weakref.ref, Any]] = {}
        self.kept = 0
        """How many values lived at the last pruning."""

    def get(self, thing: D, make: Callable[[D], T]) -> T:
        """The value of `thing`, `make(thing)` the first time."""
        known = self.values.get(id(thing))
        if known is not None and known[0]() is thing:  # an id is reused once freed
            return known[1]
        if len(self.values) > 2 * self.kept + 1000:  # the objects gone leave dead values
            self.values = {k: v for k, v in self.values.items() if v[0]() is not None}
            self.kept = len(self.values)
        value = make(thing)
        self.values[id(thing)] = (weakref.ref(thing), value)
        return value
