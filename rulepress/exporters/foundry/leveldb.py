"""Write compendium packs as LevelDB, in exactly the official Foundry CLI's layout.

A primary document is stored under `!<collection>!<id>`; each embedded document under
`!<collection>.<embedded>!<parent id>.<id>`, its parent holding the ids in order. Values
are compact JSON with sorted keys. Keys are written in sorted order in one batch, then
compacted, so the same documents always give the same files.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import plyvel

from rulepress.errors import RulepressError
from rulepress.exporters.foundry.ids import VALID_ID
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.pieces import Pieces
from rulepress.exporters.squeezed import squeeze
from rulepress.files import CLOEXEC

if TYPE_CHECKING:
    from rulepress.exporters.foundry.pack import Pack

# Embedded collections by parent collection (the CLI's HIERARCHY, for what we write).
EMBEDDED = {
    "journal": ("pages", "categories"),
    "tables": ("results",),
    "items": ("effects",),
    "actors": ("items", "effects"),
}
VOLATILE_FILES = ("LOG", "LOG.old")
MEMTABLE = 1 << 30
"""LevelDB's largest write buffer: a new pack's memtable takes every entry, as it took
them from one batch, and is written out once by the compaction, so the files are the
same whatever the batches."""
BATCH_BYTES = 4 << 20
"""Bytes of values a batch takes before it is written: a large pack is never held once
more in a batch beside its memtable (164 MB at 30,000 weapons)."""
BATCHED_UP_TO = MEMTABLE // 2
"""Past this many bytes the rest goes in one batch: a memtable past its buffer would be
written out in the background in the middle, at a moment no other build repeats."""


def flatten(
    collection: str, document: dict, parents: tuple[str, ...] = ()
) -> Iterator[tuple[str, dict, dict]]:
    """(key, stored value, the document it is made from) for a source document and every
    document embedded in it."""
    value = {k: v for k, v in document.items() if k != "_key"}
    key = f"!{collection}!{'.'.join((*parents, document['_id']))}"
    for embedded in EMBEDDED.get(collection.split(".")[-1], ()):
        if embedded not in value:  # e.g. `categories`, which a v12 JournalEntry has not
            continue
        children = value[embedded]
        value[embedded] = [child["_id"] for child in children]
        for child in children:
            yield from flatten(f"{collection}.{embedded}", child, (*parents, document["_id"]))
    yield key, value, document


def document_entries(document: dict, pieces: Pieces | None = None) -> tuple[tuple[str, bytes], ...]:
    """The LevelDB keys and values of a source document and of every document embedded in
    it, after checking what Foundry and its CLI take for granted. A watch run's `pieces`
    keep an embedded document's entry (compressed) while it is the same dict (a journal page)."""
    collection = document["_key"].split("!")[1]
    if document["_key"] != f"!{collection}!{document['_id']}":
        raise RulepressError(f"_key {document['_key']} disagrees with _id {document['_id']}")
    entries = []
    for key, value, source in flatten(collection, document):
        if pieces is None or source is document:
            entries.append(_entry(key, value))
        else:
            entries.append(
                pieces.get(("leveldb-entry", key), (source,), partial(_kept_entry, key, value))
            )
    return tuple(entries)


def _kept_entry(key: str, value: dict) -> tuple[str, bytes]:
    """An embedded document's entry as a watch run keeps it: its value compressed."""
    key, data = _entry(key, value)
    return key, squeeze(data)


def _entry(key: str, value: dict) -> tuple[str, bytes]:
    _check_document(key, value)
    try:
        return key, encode(value)
    except ValueError:  # allow_nan=False: JSON has no NaN or infinity
        raise RulepressError(f"{key}: NaN or infinity cannot be stored") from None


def _check_document(key: str, value: dict) -> None:
    if not VALID_ID.match(str(value.get("_id", ""))):
        raise RulepressError(f"{key}: _id must be 16 letters and digits")
    if not key.endswith(value["_id"]):
        raise RulepressError(f"{key}: key and _id disagree")
    span = value.get("range")
    if span is not None and (len(span) != 2 or span[0] > span[1]):
        raise RulepressError(f"{key}: range {span} must be two ascending numbers")


def encode(value: dict) -> bytes:
    """A document as the bytes Foundry stores: compact JSON, keys in order. orjson writes
    them several times faster, and the same bytes as `json.dumps` wherever the value holds
    only strings, 64-bit integers, booleans, None, lists and string-keyed mappings
    (`_plain`); a float (which the two spell differently: `1e-08`, `1e-8`), a huge integer
    or a key of another type takes json's road."""
    if _plain(value):
        try:
            # copied into bytes of their own size: a pack's values are held until it is
            # written, and orjson's grown buffers held instead cost twice the memory
            return bytes(memoryview(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)))
        except orjson.JSONEncodeError:  # a huge integer, a key not text, a lone surrogate
            pass
    return json.dumps(
        value, separators=(",", ":"), sort_keys=True, ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


_LEAVES = frozenset({str, int, bool, type(None)})
"""Types orjson writes as json does (an integer beyond 64 bits or a key that is not text
it refuses, and the value takes json's road). A str subclass (Markup) is text to both."""


def _plain(value: object) -> bool:
    """Whether `value` holds nothing that orjson would write otherwise than json: no float
    (which the two spell differently) and no object of another type. Each container's
    values are looked at where they sit; only containers are put on the stack."""
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        for child in item.values() if type(item) is dict else item:
            kind = type(child)
            if kind is dict or kind is list or kind is tuple:
                push(child)
            elif kind not in _LEAVES and not isinstance(child, str):
                return False  # a float, or an object json would refuse or write its own way
    return True


def pack_entries(pack: Pack) -> dict[str, bytes]:
    """Every key and value of the pack, after checking the pack as Foundry needs it."""
    check_pack(pack)
    entries = dict(entry for document in pack.documents for entry in document.entries)
    if len(entries) < sum(len(document.entries) for document in pack.documents):
        keys = [key for document in pack.documents for key, _ in document.entries]
        raise twice_keyed(pack.name, next(key for key in keys if keys.count(key) > 1))
    return entries


def check_pack(pack: Pack) -> None:
    """Refuse a pack Foundry could not load: its name, and the system an Item pack needs."""
    if "." in pack.name:
        raise RulepressError(f"pack name {pack.name!r} may not contain a period")
    if pack.type in ("Item", "Actor") and not pack.system:
        raise RulepressError(f"{pack.type} pack {pack.name!r} needs a system")


def twice_keyed(pack_name: str, key: str) -> RulepressError:
    """The error for a pack in which two documents have the same key."""
    return RulepressError(f"pack {pack_name}: two documents with key {key}")


def write_entries(entries: dict[str, bytes], folder: Path, output: OutputFolder) -> None:
    """Write a new LevelDB `folder` (inside `output`) holding `entries` (see write_sorted)."""
    write_sorted(((key.encode("utf-8"), entries[key]) for key in sorted(entries)), folder, output)


def write_sorted(
    entries: Iterable[tuple[bytes, bytes]], folder: Path, output: OutputFolder
) -> None:
    """Write a new LevelDB `folder` (inside `output`, its parents real folders, made if
    missing) holding `entries`, given in sorted order of keys: batched, compacted, so the
    same entries always give the same files."""
    output.real_folder(folder.parent, create=True)
    try:
        database = plyvel.DB(
            str(folder), create_if_missing=True, error_if_exists=True, write_buffer_size=MEMTABLE
        )
        try:
            batch, pending, written = database.write_batch(), 0, 0
            for key, value in entries:
                batch.put(key, value)
                pending += len(value)
                if pending >= BATCH_BYTES and written + pending < BATCHED_UP_TO:
                    batch.write()
                    batch.clear()
                    written, pending = written + pending, 0
            batch.write()
            database.compact_range()
        finally:
            database.close()
    except plyvel.Error as exc:  # as the OSError it is (a full disk, a folder there)
        words = exc.args[0] if exc.args else b""
        words = words.decode("utf-8", "replace") if isinstance(words, bytes) else str(words)
        raise OSError(errno.EIO, f"LevelDB: {words}", str(folder)) from None
    for name in VOLATILE_FILES:  # LevelDB's own log of the session: timestamps only
        output.remove(folder / name)


def patch_pack(folder: Path, put: dict[str, bytes], delete: set[str], output: OutputFolder) -> None:
    """Change a written pack in place: store `put`, drop the keys in `delete`, in one
    batch (LevelDB applies a batch whole or not at all). Refused while Foundry holds it,
    and if any part of its path below `output`'s root, or any file in it, is a link.
    The files then differ from a fresh write of the same entries; the entries do not."""
    refuse_if_locked(folder, output)
    database = plyvel.DB(output.real_folder(folder), create_if_missing=False)
    try:
        with database.write_batch() as batch:
            for key in sorted(delete):
                batch.delete(key.encode("utf-8"))
            for key in sorted(put):
                batch.put(key.encode("utf-8"), put[key])
    finally:
        database.close()
    for name in VOLATILE_FILES:
        output.remove(folder / name)


def read_entries(folder: Path, output: OutputFolder | None = None) -> dict[str, bytes]:
    """Every key and value of a written pack, as stored (never through a link below
    `output`'s root, by default the pack itself). Read from a copy: opening a LevelDB
    writes to it (a new log, a new manifest), and the pack stays a build's."""
    output = output or OutputFolder(folder)
    with tempfile.TemporaryDirectory(prefix=".rulepress-pack-") as scratch:
        copy = Path(scratch) / "pack"
        copy.mkdir()
        for parts, is_folder in output.files(folder):
            if parts[-1] == "LOCK":
                continue
            if is_folder:
                copy.joinpath(*parts).mkdir()
            else:
                copy.joinpath(*parts).write_bytes(output.read(folder.joinpath(*parts)) or b"")
        database = plyvel.DB(str(copy), create_if_missing=False)
        try:
            return {key.decode("utf-8"): value for key, value in database}
        finally:
            database.close()


def refuse_if_locked(pack_folder: Path, output: OutputFolder | None = None) -> None:
    """Refuse to replace a pack that a running program (Foundry) holds open. Its LOCK is
    opened relative to the pack's folder (reached through `output`, by default the pack
    itself) and never through a link; one that is no regular file is no lock."""
    output = output or OutputFolder(pack_folder)
    try:
        with output.folder(pack_folder) as folder:
            flags = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | CLOEXEC
            handle = os.open("LOCK", flags, dir_fd=folder)
    except OSError:
        return  # no LOCK, or a link or a folder in its place: nothing holds the pack
    try:
        if stat.S_ISREG(os.fstat(handle).st_mode):
            fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.lockf(handle, fcntl.LOCK_UN)
    except OSError:
        raise RulepressError(
            f"pack {pack_folder} is in use (is Foundry running?); close it and build again"
        ) from None
    finally:
        os.close(handle)


def read_pack(folder: Path) -> dict[str, dict]:
    """Every key and value of a pack (for tests and checks; opens a copy-safe read)."""
    database = plyvel.DB(str(folder), create_if_missing=False)
    try:
        return {key.decode("utf-8"): json.loads(value) for key, value in database}
    finally:
        database.close()
