"""What several checks work out from the same document, worked out once per run.

A run of the checks (`validate`'s, or a live update's re-check) is `one_run()`; inside
it, `shared(name, document, make)` gives every check the same value for a document (its
prose, walked once rather than by each of six checks). Outside a run it is made each
time. Each value keeps its document alive until the run ends, so no object's id is
reused for another while the run remembers it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
D = TypeVar("D")

_run: dict[tuple[str, int], tuple[Any, Any]] | None = None


@contextlib.contextmanager
def one_run() -> Iterator[None]:
    """The checks run inside: each shared value is made once (a run inside a run is the
    outer one's)."""
    global _run
    if _run is not None:
        yield
        return
    _run = {}
    try:
        yield
    finally:
        _run = None


def shared(name: str, document: D, make: Callable[[D], T]) -> T:
    """`make(document)`, made once in a run for each name and document."""
    if _run is None:
        return make(document)
    key = (name, id(document))
    known = _run.get(key)
    if known is None:
        known = _run[key] = (document, make(document))
    return known[1]
