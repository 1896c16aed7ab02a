"""Pieces of the previous export that a rebuild takes again instead of rendering them.

A piece is keyed by a digest of exactly what it is rendered from: the function that
renders it, and its inputs. A document counts by the digest of its file's bytes (the
model is a pure function of them), anything else by its value; the code, the templates
and the Python that render are the memo's salt, so other code never meets old pieces.

A piece may name the file it was written to. It is taken again only while the previous
output still holds that very file (same inode, size and modification time), which the
new output then shares by a hard link instead of writing it again. The memo is saved
only after its output replaced the previous one, and it keeps just that build's pieces.
Each piece is stored as its own pickle, so a rebuild unpickles only the pieces it asks
for and copies a piece taken again as the bytes it was read as. Like the document cache
the memo is sealed with the user's key (rulepress.sealed): a memo this user's rulepress
did not write is never unpickled. Inside, a record is a piece's key (32 characters), its
length (8 bytes) and its pickle; the pieces read are views into the one file read.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass, is_dataclass
from pathlib import Path
from typing import Any

import jinja2

from rulepress import sealed
from rulepress.caching import cache_folder, digest
from rulepress.compendium.cache import cache_header
from rulepress.compendium.model import Compendium
from rulepress.models import Document

FORMAT = "rulepress-renders 3"
Signature = tuple[int, int, int]
KEY_SIZE = 32  # a digest's hex characters
FILES_RECORD = b"=" * KEY_SIZE
"""The key of the last record, the signatures of the files the output holds."""


@dataclass(frozen=True)
class Written:
    """A piece that the output holds as a file: `file`, a path relative to the output."""

    file: str
    value: Any


class RenderMemo:
    """Use as a context manager around one export: on leaving, a memo not saved is
    discarded. New pieces go to disk as they come, so a large export does not hold them
    all in memory."""

    def __init__(
        self, previous: Path, salt: str = "", folder: Path | None = None, *, fresh: bool = False
    ) -> None:
        self.previous = previous
        """The output folder this export replaces; files named by pieces are below it."""
        self.folder = str(folder or cache_folder())
        self.name = f"renders-{digest(str(previous.resolve()).encode())}.pickle"
        self.path = Path(self.folder, self.name)
        self.header = cache_header(FORMAT, salt)
        self.old_pieces, self.old_files = ({}, {}) if fresh else self._read()
        self.files: dict[str, Signature] = {}
        self.digests: dict[int, str] = {}
        self._pending: sealed.Writer | None = None
        self._usable = True

    def __enter__(self) -> RenderMemo:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._discard()

    def bind(self, compendium: Compendium) -> None:
        """Learn the content digests of the documents about to be rendered (a document
        not bound has no key: it is always rendered)."""
        for ruleset in compendium:
            self.digests[id(ruleset.info)] = ruleset.info_digest
            for entry in ruleset.entries:
                self.digests[id(entry.document)] = entry.digest

    def key(self, function: Callable, *inputs: object) -> str | None:
        """The digest of `function` applied to `inputs`; None when an input is a document
        of unknown content (made in code), which is then always rendered."""
        parts = [f"{function.__module__}.{function.__qualname__}"]
        for value in inputs:
            part = self._part(value)
            if part is None:
                return None
            parts.append(part)
        return digest("\x1f".join(parts).encode("utf-8", "surrogateescape"))

    def _part(self, value: object) -> str | None:
        if isinstance(value, Document):
            return self.digests.get(id(value)) or None
        if value is None or isinstance(value, str | int | float):
            return repr(value)
        if isinstance(value, tuple | list):
            parts = [self._part(item) for item in value]
            return None if None in parts else f"({','.join(parts)})"  # type: ignore[arg-type]
        if hasattr(value, "memo_key"):  # e.g. what renders with templates the salt covers
            return value.memo_key()
        if is_dataclass(value) and value.__dataclass_params__.frozen:  # type: ignore[union-attr]
            return repr(value)
        raise TypeError(f"a rendered piece cannot be keyed by a {type(value).__name__}")

    def recall(self, key: str | None) -> Any | None:
        """The piece stored under `key`, kept for the next build. A Written piece only
        while the previous output still holds its file as it was written."""
        stored = self.old_pieces.get(key) if key is not None else None
        if stored is None:
            return None
        try:
            piece = pickle.loads(stored)
        except Exception:  # damaged inside a readable file: render it afresh
            return None
        if isinstance(piece, Written) and not self.previous_file(piece.file):
            return None
        self._store(key, stored)
        return piece

    def keep(self, key: str | None, piece: Any) -> None:
        """Store a rendered piece under `key` for the next build (without a key, nothing)."""
        if key is not None and self._usable:
            self._store(key, pickle.dumps(piece, protocol=pickle.HIGHEST_PROTOCOL))

    def _store(self, key: str, stored: bytes | memoryview) -> None:
        if not self._usable:
            return
        try:
            if self._pending is None:
                self._pending = sealed.Writer.start(self.folder, self.name)
                if self._pending is None:
                    raise OSError("no cache folder")
                self._pending.write(self.header + b"\n")
            self._pending.write(record(key.encode("ascii"), stored))
            self._pending.write(stored)
        except OSError:  # a read-only folder or a full disk: the next build renders all
            self._discard()
            self._usable = False

    def previous_file(self, file: str) -> str | None:
        """The previous output's `file`, if it is still the one a build wrote there."""
        recorded = self.old_files.get(file)
        path = os.path.join(self.previous, file)
        if recorded is None or _signature(path) != recorded:
            return None
        return path

    def wrote(self, file: str, path: str) -> None:
        """Note the file written (or linked) at `path`, which will be the output's `file`."""
        self.files[file] = _signature(path)  # type: ignore[assignment]

    def save(self) -> None:
        """Store this build's pieces; call once its output has replaced the previous one."""
        if self._pending is None:
            return
        try:
            files = pickle.dumps(self.files, protocol=pickle.HIGHEST_PROTOCOL)
            self._pending.write(record(FILES_RECORD, files) + files)
            self._pending.commit()  # a full disk: the next build renders everything
        except OSError:
            pass
        self._discard()

    def _discard(self) -> None:
        if self._pending is not None:
            self._pending.discard()
            self._pending = None

    def _read(self) -> tuple[dict[str, memoryview], dict[str, Signature]]:
        """The pieces (pickled) and file signatures of the last saved export. A file that
        is missing, damaged, cut short or written by other code gives none."""
        body = sealed.read(self.folder, self.name)  # None unless this user's rulepress wrote it
        start = len(self.header) + 1
        if body is None or body[:start] != self.header + b"\n":
            return {}, {}
        pieces: dict[str, memoryview] = {}
        try:
            for key, stored in records(memoryview(body)[start:]):
                if key == FILES_RECORD:
                    files = pickle.loads(stored)
                    return (pieces, files) if isinstance(files, dict) else ({}, {})
                pieces[key.decode("ascii")] = stored
        except Exception:  # damaged
            pass
        return {}, {}


def record(key: bytes, stored: bytes | memoryview) -> bytes:
    """The head of a record holding `stored` under `key`."""
    return key + memoryview(stored).nbytes.to_bytes(8, "big")


def records(view: memoryview) -> Iterator[tuple[bytes, memoryview]]:
    """(key, stored) of each whole record in `view`."""
    start = 0
    while start + KEY_SIZE + 8 <= len(view):
        key = bytes(view[start : start + KEY_SIZE])
        size = int.from_bytes(view[start + KEY_SIZE : start + KEY_SIZE + 8], "big")
        start += KEY_SIZE + 8
        if start + size > len(view):
            return
        yield key, view[start : start + size]
        start += size


def templates_key(env: jinja2.Environment, *more: str) -> str:
    """How a piece rendered with `env` counts in a key: by the folders it loads templates
    from (their files' bytes are in the salt), with `more` values it renders with."""
    return repr((env.loader.searchpath, *more))  # type: ignore[union-attr]


def reused(memo: RenderMemo | None, render: Callable[..., Any], *inputs: object) -> Any:
    """render(*inputs), or what it gave the previous export for the same inputs."""
    if memo is None:
        return render(*inputs)
    key = memo.key(render, *inputs)
    value = memo.recall(key)
    if value is None:
        value = render(*inputs)
        memo.keep(key, value)
    return value


def _signature(path: str) -> Signature | None:
    try:
        status = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (status.st_ino, status.st_size, status.st_mtime_ns)
