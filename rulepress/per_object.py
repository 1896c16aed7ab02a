"""A value worked out once per frozen object while it lives, in memory: a watch's
unchanged documents and rulesets are the same objects from one edit to the next.

Apart from rulepress.caching, which the launcher's no-op build imports: this module
imports `typing` and `weakref`, 6 ms of that build's 45.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial
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

    def get(self, thing: D, make: Callable[[D], T]) -> T:
        """The value of `thing`, `make(thing)` the first time."""
        key = id(thing)
        known = self.values.get(key)
        if known is not None and known[0]() is thing:  # an id is reused once freed
            return known[1]
        value = make(thing)
        self.values[key] = (weakref.ref(thing, partial(self._forget, key)), value)
        return value

    def _forget(self, key: int, gone: weakref.ref) -> None:
        """Let a value go with its object (a watch's old ruleset's outline is large)."""
        known = self.values.get(key)
        if known is not None and known[0] is gone:  # not a newer object's, given its id
            del self.values[key]
