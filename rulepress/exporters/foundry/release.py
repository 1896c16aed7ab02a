"""The release zip of a module: what Foundry's installer downloads from `download`.

The zip holds the module folder's contents with `module.json` at its root, as Foundry's
own systems ship (dnd5e's release workflow zips `system.json` and `packs/` from the
package root). It is byte-identical between builds: entries in sorted order, fixed
times and permissions, and a directory entry for every folder (Foundry v12's installer
failed on zips without them, foundryvtt/foundryvtt#11276).

What Foundry does not read stays out (`left_out`): the folder's `src/` (the packs' JSON
sources, for the official CLI: the packs again, as text) and the packs' LevelDB `LOCK`
and `LOG` files (LevelDB makes them anew when Foundry opens a pack; a `LOCK` unpacked
from a zip is only a file another program could take for a held lock).
"""

from __future__ import annotations

import os
import stat
import threading
import time
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from rulepress.errors import RulepressError
from rulepress.exporters.foundry.packs.common import RELEASE_TIME
from rulepress.exporters.output_folder import FileIdentity, OutputFolder, file_identity
from rulepress.files import CLOEXEC

ZIP_TIME = datetime.fromtimestamp(RELEASE_TIME / 1000, UTC).timetuple()[:6]
SOURCES = "src"
"""The module folder's JSON sources (rulepress.exporters.foundry), left out of the zip."""
LEVELDB_SESSION_FILES = frozenset({"LOCK", "LOG", "LOG.old"})
"""A LevelDB folder's lock and its log of the last session, left out of the zip."""
UNIX = 3  # ZipInfo.create_system: the mode bits in external_attr are Unix ones
FILE_MODE = 0o100644
FOLDER_MODE = 0o040755
MSDOS_DIRECTORY = 0x10
LEVEL = 9
"""The deflate level of every member."""
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | CLOEXEC
"""A table is opened without following a link, and without waiting if it is a pipe."""


@dataclass(frozen=True)
class Deflated:
    """A file's member of the release zip, deflated ahead (`deflate_ahead`): its deflated
    bytes, their CRC and size, and the identity of the file they were read from."""

    data: bytes
    crc: int
    size: int
    identity: FileIdentity


def deflate_ahead(
    output: OutputFolder, folder: Path, done: Mapping[Path, Deflated] = {}
) -> dict[Path, Deflated]:
    """Each file of `folder` (in a module folder inside `output`) that a release zip
    takes, deflated now (a pack, once it is written, while the rest of the module is
    made), but those `done` already (`TableFollower`): the zip takes these bytes for a
    file whose identity is still theirs."""
    deflated = {}
    for parts, is_folder in output.files(folder):
        path = folder.joinpath(*parts)
        if is_folder or parts[-1] in LEVELDB_SESSION_FILES:
            continue
        if path in done:
            deflated[path] = done[path]
            continue
        read = output.read_identified(path)
        if read is not None and len(read[0]) * 1.05 <= zipfile.ZIP64_LIMIT:
            data, identity = read
            squeezer = _squeezer()
            packed = squeezer.compress(data) + squeezer.flush()
            deflated[path] = Deflated(packed, zlib.crc32(data), len(data), identity)
    return deflated


def _squeezer():
    return zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)  # zipfile's deflate


class TableFollower:
    """The table LevelDB writes into a new pack folder, deflated while it is written (a
    `with` block around the pack's writing): LevelDB writes a table from its start to
    its end and never changes it after, so its bytes can be deflated as they come, and
    the zip's deflate of a large pack costs the export little more than the table's own
    writing. What it gives (`deflated`, once the block is left) is taken by the zip as
    any file deflated ahead: only while the file's identity is still the one it read."""

    POLL = 0.002
    """Seconds between looks for the table, and for more of it."""
    CHUNK = 1 << 20

    def __init__(self, output: OutputFolder, folder: Path) -> None:
        """Follow the first table (`*.ldb`) to appear in `folder`, inside `output`."""
        self.output, self.folder = output, folder
        self.written = threading.Event()
        self.deflated: dict[Path, Deflated] = {}
        self.thread = threading.Thread(target=self._follow, daemon=True)

    def __enter__(self) -> TableFollower:
        """Begin looking for the table."""
        self.thread.start()
        return self

    def __exit__(self, *error) -> None:
        """The pack is written (or failed): the table is read to its end."""
        self.written.set()
        self.thread.join()

    def _follow(self) -> None:
        try:
            table = self._wait_for_table()
            if table is not None:
                with table[1]:
                    self._deflate(*table)
        except (OSError, RulepressError):
            self.deflated.clear()  # the zip deflates the pack's files itself

    def _wait_for_table(self) -> tuple[str, BinaryIO] | None:
        while True:
            written = self.written.is_set()  # before the look: a table made before it is seen
            found = self.output.entries(self.folder)
            tables = sorted(n for n, folder in found.items() if n.endswith(".ldb") and not folder)
            if tables:
                with self.output.folder(self.folder) as handle:
                    opened = os.open(tables[0], READ_FLAGS, dir_fd=handle)
                if not stat.S_ISREG(os.fstat(opened).st_mode):  # not LevelDB's: not read
                    os.close(opened)
                    return None
                return tables[0], os.fdopen(opened, "rb", 0)
            if written:
                return None
            time.sleep(self.POLL)

    def _deflate(self, name: str, file: BinaryIO) -> None:
        squeezer, crc, size, packed = _squeezer(), 0, 0, []
        while True:
            written = self.written.is_set()  # before the read: all it wrote is there then
            data = file.read(self.CHUNK)
            if data:
                crc, size = zlib.crc32(data, crc), size + len(data)
                packed.append(squeezer.compress(data))
            elif written:
                break
            else:
                time.sleep(self.POLL)
        if size * 1.05 <= zipfile.ZIP64_LIMIT:
            packed.append(squeezer.flush())
            identity = file_identity(file)
            self.deflated[self.folder / name] = Deflated(b"".join(packed), crc, size, identity)


def write_release_zip(
    output: OutputFolder, module: Path, target: BinaryIO, ahead: Mapping[Path, Deflated] = {}
) -> None:
    """Zip the module folder `module` (inside `output`, read without following a link:
    a link in a module folder is refused, never published) into the file `target` (a
    seekable one, for the members in `ahead`: files deflated ahead, taken while still
    the files they were read from)."""
    ahead = ahead if target.seekable() else {}
    with zipfile.ZipFile(target, "w") as archive:
        for parts, is_folder in output.files(module):
            if left_out(parts):
                continue
            name = "/".join(parts)
            path = module.joinpath(*parts)
            if is_folder:
                entry = _entry(f"{name}/", FOLDER_MODE, zipfile.ZIP_STORED)
                entry.external_attr |= MSDOS_DIRECTORY
                archive.writestr(entry, b"")
            elif path in ahead and ahead[path].identity == output.identity(path):
                entry = _entry(name, FILE_MODE, zipfile.ZIP_STORED)
                _write_deflated(archive, target, entry, ahead[path])
            else:
                entry = _entry(name, FILE_MODE, zipfile.ZIP_DEFLATED)
                archive.writestr(entry, output.read(path) or b"", compresslevel=LEVEL)


def _write_deflated(
    archive: zipfile.ZipFile, target: BinaryIO, entry: zipfile.ZipInfo, member: Deflated
) -> None:
    """Write a member deflated ahead, in the bytes `writestr` gives the file: its
    deflated bytes go in as a stored member's would, then its headers are made to say
    what they are (the local one rewritten in place, the central one written from
    `entry` when the zip closes)."""
    with archive.open(entry, "w") as stored:
        stored.write(member.data)
    entry.compress_type = zipfile.ZIP_DEFLATED
    entry.CRC, entry.file_size, entry.compress_size = member.crc, member.size, len(member.data)
    end = target.tell()
    target.seek(entry.header_offset)
    target.write(entry.FileHeader(False))
    target.seek(end)


def left_out(parts: tuple[str, ...]) -> bool:
    """Whether the module folder's file or folder at `parts` stays out of the release zip."""
    in_pack = len(parts) == 3 and parts[0] == "packs"
    return parts[0] == SOURCES or (in_pack and parts[2] in LEVELDB_SESSION_FILES)


def _entry(name: str, mode: int, compression: int) -> zipfile.ZipInfo:
    entry = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    entry.create_system = UNIX
    entry.external_attr = mode << 16
    entry.compress_type = compression
    return entry
