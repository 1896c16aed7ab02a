"""A value worked out once per document object while it lives.

A watch keeps the documents of unchanged files between edits (the same objects), so a
check that needs a figure of every document to judge one (misspelled-word's count of
each document's British and American spellings) works out only the changed ones'.
Documents are frozen: an object's figure cannot go stale.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
D = TypeVar("D")


class PerDocument:
    """Values by document object, forgotten once their document is gone."""

    def __init__(self) -> None:
        """Empty."""
        self.values: dict[int, tuple[weakref.ref, Any]] = {}
        self.kept = 0
        """How many values lived at the last pruning."""

    def get(self, document: D, make: Callable[[D], T]) -> T:
        """The document's value, `make(document)` the first time."""
        known = self.values.get(id(document))
        if known is not None and known[0]() is document:  # an id is reused once freed
            return known[1]
        if len(self.values) > 2 * self.kept + 1000:  # the documents gone leave dead values
            self.values = {k: v for k, v in self.values.items() if v[0]() is not None}
            self.kept = len(self.values)
        value = make(document)
        self.values[id(document)] = (weakref.ref(document), value)
        return value
