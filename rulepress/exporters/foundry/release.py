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

import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from rulepress.exporters.foundry.packs.common import RELEASE_TIME
from rulepress.exporters.output_folder import OutputFolder

ZIP_TIME = datetime.fromtimestamp(RELEASE_TIME / 1000, UTC).timetuple()[:6]
SOURCES = "src"
"""The module folder's JSON sources (rulepress.exporters.foundry), left out of the zip."""
LEVELDB_SESSION_FILES = frozenset({"LOCK", "LOG", "LOG.old"})
"""A LevelDB folder's lock and its log of the last session, left out of the zip."""
UNIX = 3  # ZipInfo.create_system: the mode bits in external_attr are Unix ones
FILE_MODE = 0o100644
FOLDER_MODE = 0o040755
MSDOS_DIRECTORY = 0x10


def write_release_zip(output: OutputFolder, module: Path, target: BinaryIO) -> None:
    """Zip the module folder `module` (inside `output`, read without following a link:
    a link in a module folder is refused, never published) into the file `target`."""
    with zipfile.ZipFile(target, "w") as archive:
        for parts, is_folder in output.files(module):
            if left_out(parts):
                continue
            name = "/".join(parts)
            if is_folder:
                entry = _entry(f"{name}/", FOLDER_MODE, zipfile.ZIP_STORED)
                entry.external_attr |= MSDOS_DIRECTORY
                archive.writestr(entry, b"")
            else:
                entry = _entry(name, FILE_MODE, zipfile.ZIP_DEFLATED)
                data = output.read(module.joinpath(*parts)) or b""
                archive.writestr(entry, data, compresslevel=9)


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
