"""The changes between two revisions, kept between builds by the git ids of their trees.

What `history` finds between two revisions is a function of the two trees of the
compendium folder (git names each by the digest of everything below it) and of the code
that compares them; so it is kept in the cache folder, keyed by the two tree ids, under a
first line naming the code (the document cache's: rulepress, its plugins, Python,
pydantic). A rebuild whose history is unchanged reads no revision at all.

The file is JSON, never a pickle, and sealed with the user's key (rulepress.sealed): one
this user's rulepress did not write, one larger than `MAX_BYTES`, one of another shape
or written by other code is no cache. It holds the pairs of the last `history` call
only, so it stays as small as the history shown.
"""

from __future__ import annotations

import json
from pathlib import Path

from rulepress import sealed
from rulepress.caching import digest
from rulepress.compendium.cache import cache_header
from rulepress.history.changes import Change

FORMAT = "rulepress-history 1"
MAX_BYTES = 8 << 20
"""A larger file is not read: the history of twenty commits is far smaller."""
FIELDS = ("ruleset", "kind", "document", "change", "text", "before", "after")

Pair = tuple[str, str]
"""The tree ids of the compendium folder before and after a commit."""


class StoredChanges:
    """The changes of pairs of trees, read from and written to one sealed file."""

    def __init__(self, folder: str, root: Path) -> None:
        """The file of the compendium at `root` in the cache `folder` (read on first use)."""
        self.folder = folder
        self.name = f"history-{digest(str(root.resolve()).encode())}.json"
        self.header = cache_header(FORMAT)
        self.stored: dict[Pair, tuple[Change, ...] | None] | None = None
        self.used: dict[Pair, tuple[Change, ...] | None] = {}

    def get(self, pair: Pair) -> tuple[Change, ...] | bool | None:
        """The changes of `pair` (None: a side did not load); False when not stored."""
        if self.stored is None:
            self.stored = self._read()
        if pair not in self.stored:
            return False
        self.used[pair] = self.stored[pair]
        return self.stored[pair]

    def put(self, pair: Pair, changes: tuple[Change, ...] | None) -> None:
        """Note what `pair` gave (None: a side that does not load), for `save`."""
        self.used[pair] = changes

    def save(self) -> None:
        """Write the pairs this call used, if they differ from the file's."""
        if self.used == self.stored:
            return
        body = {
            f"{old} {new}": None
            if changes is None
            else [[getattr(change, name) for name in FIELDS] for change in changes]
            for (old, new), changes in self.used.items()
        }
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        if len(text) + len(self.header) < MAX_BYTES:
            sealed.write(self.folder, self.name, self.header + b"\n" + text)

    def _read(self) -> dict[Pair, tuple[Change, ...] | None]:
        body = sealed.read(self.folder, self.name, limit=MAX_BYTES)
        start = len(self.header) + 1
        if body is None or body[:start] != self.header + b"\n":
            return {}
        try:
            return _pairs(json.loads(body[start:]))
        except (ValueError, TypeError):  # not JSON, or not the shape `save` writes
            return {}


def _pairs(data: object) -> dict[Pair, tuple[Change, ...] | None]:
    """The pairs of a file's JSON; TypeError for any other shape."""
    if not isinstance(data, dict):
        raise TypeError("not a mapping")
    pairs: dict[Pair, tuple[Change, ...] | None] = {}
    for key, rows in data.items():
        old, _, new = key.partition(" ")
        if rows is None:
            pairs[(old, new)] = None
            continue
        if not isinstance(rows, list):
            raise TypeError("not a list")
        pairs[(old, new)] = tuple(_change(row) for row in rows)
    return pairs


def _change(row: object) -> Change:
    if not isinstance(row, list) or len(row) != len(FIELDS):
        raise TypeError("not a change")
    if not all(isinstance(v, str) for v in row[:5]) or not all(
        v is None or isinstance(v, str) for v in row[5:]
    ):
        raise TypeError("not a change")
    return Change(*row)
