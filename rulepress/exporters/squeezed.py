"""Bytes a watch run keeps between edits, zlib-compressed (level 1): each Item's and
journal page's LevelDB value, the JSON file's runs of documents (at 10,000 weapons 58,
25 and 48 MB as they are). Compression gives equal bytes for equal bytes, so kept
values compare as they are."""

from __future__ import annotations

import zlib


class Squeezed(bytes):
    """Bytes kept compressed."""


def squeeze(value: bytes) -> Squeezed:
    """A value to keep (once: a kept one is given back as it is)."""
    return value if isinstance(value, Squeezed) else Squeezed(zlib.compress(value, 1))


def as_stored(value: bytes) -> bytes:
    """The bytes as they are (as a pack stores a value, as a file holds a part)."""
    return zlib.decompress(value) if isinstance(value, Squeezed) else value


def same(stored: bytes | None, value: bytes) -> bool:
    """Whether a value kept (or read from the pack) is `value`: compared as kept when both
    are kept alike, else as stored."""
    if stored is None or type(stored) is type(value):
        return stored == value
    return as_stored(stored) == as_stored(value)


class Stored(dict):
    """Entries whose kept values are given as the pack stores them, one at a time."""

    def __getitem__(self, key: str) -> bytes:
        """The value under `key`, as stored."""
        return as_stored(super().__getitem__(key))
