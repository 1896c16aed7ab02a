"""What a module's writer does, in its forked child or in this process
(exporters.foundry.module_writer): create a source file, hold a pack's entries until the
pack is whole, write the pack (in the child on a thread of its own, beside the frames
that follow), write a release zip. Paths are relative to the output folder, as the
writer's frames carry them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from operator import itemgetter
from pathlib import Path

from rulepress.errors import RulepressError
from rulepress.exporters.foundry.leveldb import write_sorted
from rulepress.exporters.foundry.release import (
    Deflated,
    TableFollower,
    deflate_ahead,
    write_release_zip,
)
from rulepress.exporters.output_folder import FILE_MODE, OutputFolder
from rulepress.files import CLOEXEC

CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | CLOEXEC
Written = dict[Path, Deflated] | OSError | RulepressError
"""What a pack's thread gives: the pack's files deflated ahead, or the error it met."""


class ModuleWrites:
    """One export's writes into `output`; with `beside` (in the child), each pack is
    written by a thread beside the frames that follow (`pack`)."""

    def __init__(self, output: OutputFolder, *, beside: bool = False) -> None:
        """Nothing is written yet."""
        self.output = output
        self.beside = beside
        self.folders: dict[str, int] = {}
        """Each source folder's descriptor: thousands of files, the path walked once."""
        self.writing: list[tuple[threading.Thread, list[Written]]] = []
        """Each pack's thread, in the order of the packs, and what it gave when done."""
        self.packs: dict[bytes, list[tuple[bytes, bytes]]] = {}
        """Each pack's entries given so far, by its folder (key as UTF-8, value)."""

    def file(self, path: bytes, data: bytes) -> None:
        """Create the new file `path` holding `data`."""
        parent, _, name = os.fsdecode(path).rpartition("/")
        try:
            if parent not in self.folders:
                with self.output.folder(self.output.root / parent, create=True) as handle:
                    self.folders[parent] = os.dup(handle)
            create_file(self.folders[parent], name, data)
        except OSError as exc:
            exc.filename = self.output.root / parent / name  # the path in full
            raise

    def entry(self, folder: bytes, key: bytes, value: bytes) -> None:
        """Hold an entry of the pack `folder` until the pack is written."""
        self.packs.setdefault(folder, []).append((key, value))

    def pack(self, folder: bytes) -> None:
        """Write the new LevelDB `folder` holding its entries given (beside: begin it)."""
        entries = self.packs.pop(folder, [])
        entries.sort(key=itemgetter(0), reverse=True)  # taken from the end: `_taken`
        path = self.output.root / os.fsdecode(folder)
        if not self.beside:
            write_sorted(_taken(entries), path, self.output)
            return
        # the frames that follow (the next pack's files, the journal's) are taken while a
        # thread writes this one (LevelDB gives up the GIL, and so does zlib) and deflates
        # its files for the release zip: the render does not wait on either
        given: list[Written] = []
        thread = threading.Thread(target=self._write_beside, args=(entries, path, given))
        self.writing.append((thread, given))
        thread.start()

    def _write_beside(self, entries: list, folder: Path, given: list[Written]) -> None:
        try:
            with TableFollower(self.output, folder) as table:
                write_sorted(_taken(entries), folder, self.output)
            given.append(deflate_ahead(self.output, folder, table.deflated))
        except (OSError, RulepressError) as exc:
            given.append(exc)

    def settle(self) -> dict[Path, Deflated]:
        """Wait for the packs being written; their files deflated ahead. Raise the first
        error one met: met before any error of a frame after its pack (no pack is begun
        once an error is met)."""
        writing, self.writing = self.writing, []
        ahead: dict[Path, Deflated] = {}
        for thread, _ in writing:
            thread.join()
        for _, (result,) in writing:
            if isinstance(result, Exception):
                raise result
            ahead.update(result)
        return ahead

    def zip(self, module: bytes, target: bytes) -> None:
        """Write the release zip `target` of the module folder `module`, its packs whole."""
        ahead = self.settle()  # the module's packs are whole
        root = self.output.root
        with self.output.replacing(root / os.fsdecode(target)) as file:
            write_release_zip(self.output, root / os.fsdecode(module), file, ahead)

    def close(self) -> None:
        """Close the source folders held open; forget the entries not written."""
        for handle in self.folders.values():
            os.close(handle)
        self.folders.clear()
        self.packs.clear()


def _taken(entries: list[tuple[bytes, bytes]]) -> Iterator[tuple[bytes, bytes]]:
    """The entries from the last to the first, each leaving the list as LevelDB's batch
    takes its copy: a pack's values are never held twice (60 MB at 10,000 weapons)."""
    while entries:
        yield entries.pop()


def create_file(folder: int, name: str, data: bytes) -> None:
    """Create the file `name` in the open folder `folder` with `data`."""
    file = os.open(name, CREATE, FILE_MODE, dir_fd=folder)
    try:
        write_whole(file, data)
    finally:
        os.close(file)


def write_whole(descriptor: int, data: bytes | bytearray) -> None:
    """Write all of `data` (a write may take less than it is given)."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]
