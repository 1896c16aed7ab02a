"""A compendium pack as it is written: each document ready as a JSON source file and as
the LevelDB entries of the same document and those embedded in it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulepress.exporters.foundry.leveldb import document_entries, twice_keyed
from rulepress.exporters.output import pretty_json
from rulepress.exporters.pieces import Pieces

if TYPE_CHECKING:
    from rulepress.exporters.foundry.module_writer import ModuleWriter

MAX_NAME_CHARS = 100  # file names stay well under the 255-byte limit (Cyrillic is 2 bytes)


@dataclass(frozen=True)
class Ready:
    """A document ready to write: its source file's name and bytes (None once written),
    and its LevelDB entries."""

    file_name: str
    entries: tuple[tuple[str, bytes], ...]
    source: bytes | None = None

    def forget_source(self) -> None:
        """Let the source file's bytes go once they are on disk: a watch run keeps the
        Ready (its entries, its identity: what says the file is unchanged), not a second
        copy of a file it wrote (12 KB a weapon)."""
        object.__setattr__(self, "source", None)

    def hold(self, entries: tuple[tuple[str, bytes], ...]) -> None:
        """Hold `entries` in place of its own: the same keys, their values in the form a
        watch run keeps them (compressed)."""
        object.__setattr__(self, "entries", entries)


@dataclass
class Pack:
    """One compendium pack being made: its documents, and their source files as they come."""

    name: str
    label: str
    type: str
    system: str | None = None
    output: PackOutput | None = None
    """Where each document's source file and entries are written as it is added, so that
    a large pack's are never all held at once; without it the pack holds them."""
    documents: list[Ready] = field(default_factory=list)

    def add(self, document: dict) -> Ready:
        """Add a source document (with `_id`, `_key` and its embedded documents inline)."""
        return self.keep(ready_document(document))

    def keep(self, ready: Ready) -> Ready:
        """Add a document made ready earlier (a watch run keeps an unchanged one's)."""
        if self.output is not None:
            self.output.write(self.name, ready)
            ready = Ready(ready.file_name, ())  # written: only its place is left
        self.documents.append(ready)
        return ready


def ready_document(document: dict, pieces: Pieces | None = None) -> Ready:
    """A source document as its source file and its LevelDB entries (its embedded
    documents' entries kept in a watch run's `pieces` while they are the same dicts)."""
    entries = document_entries(document, pieces)
    return Ready(source_file_name(document), entries, pretty_json(document))


def source_file_name(document: dict) -> str:
    """`<name>_<id>.json`, the name the official CLI's unpack gives the same document
    (it keeps ASCII letters, digits and Cyrillic А-я, and turns the rest into `_`)."""
    name = "".join(
        ch if (ch.isascii() and ch.isalnum()) or "А" <= ch <= "я" else "_"
        for ch in document.get("name", "")[:MAX_NAME_CHARS]
    )
    return f"{name}_{document['_id']}.json"


class PackOutput:
    """A pack's documents written as they are added: each one's source file into
    `sources`, its entries given to `writer`, which writes them as the LevelDB `folder`
    once the pack is whole (`finish`). Both folders are inside the output folder and
    reached through no link; the source folder is made with the first file, so an empty
    pack leaves none."""

    def __init__(self, sources: Path, folder: Path, writer: ModuleWriter) -> None:
        """Source files go into `sources`, the pack into `folder`, written by `writer`."""
        self.sources, self.folder, self.writer = sources, folder, writer
        self.keys: set[str] = set()

    def write(self, pack_name: str, document: Ready) -> None:
        """Write a document's source file (a new one: its folder is the build's own) and
        give its entries, refusing a key that an earlier document of the pack has."""
        for key, _ in document.entries:
            if key in self.keys:
                raise twice_keyed(pack_name, key)
            self.keys.add(key)
        self.writer.write_file(self.sources, document.file_name, document.source or b"")
        self.writer.add_entries(self.folder, document.entries)

    def finish(self) -> None:
        """Every document is given: write the pack."""
        self.writer.write_pack(self.folder)
