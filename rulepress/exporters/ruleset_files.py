"""The live form (`LiveExporter`) of a target made of one file per ruleset: the markdown
and json targets' for `rulepress build --watch` (their exporters' `live`).

Each changed ruleset's file is rendered again through the build's own function and
written only if its bytes changed (and so is each of its editions in another language,
`<language>/<ruleset id><suffix>`: rulepress.translations), replaced whole through the
output folder's guard (output_folder: a temporary file in the same folder, then a
rename, never through a link). A file written in parts (json: runs of documents, kept
compressed) takes each part kept from the last render from the file on disk, copied by
the kernel (os.copy_file_range) rather than decompressed and written again, while the
file is the one the last render wrote (its identity unchanged). The foundry target's
live form is foundry/live.py.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Collection, Iterable
from functools import partial
from pathlib import Path
from typing import BinaryIO

from rulepress.caching import digest_of_parts
from rulepress.compendium.model import Compendium
from rulepress.exporters.output_folder import FileIdentity, OutputFolder, file_identity
from rulepress.exporters.pieces import Pieces
from rulepress.exporters.squeezed import Squeezed, as_stored
from rulepress.output_names import safe_child
from rulepress.translations import Translated, editions

Key = tuple[str, str]
"""(ruleset id, language): one file of the target; "" is the source's language."""
Layout = tuple[FileIdentity | None, dict[int, tuple[int, int]]]
"""A file's identity, and each kept part's place in it (by the part's id): offset, size."""
COPY_IN_KERNEL = hasattr(os, "copy_file_range")
CANNOT_COPY = {errno.EXDEV, errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EPERM}
"""What copy_file_range says where a file system cannot copy: the part is written."""


class RulesetFiles:
    """A target made of one file per ruleset (`<ruleset id><suffix>`) and per edition of
    it in another language (`<language>/<ruleset id><suffix>`), rendered by
    `render(compendium, ruleset, pieces, edition)` to its bytes, or to a list of the parts
    they join, each as it is or compressed (exporters.squeezed) (`edition` None for the
    source's): the markdown and json targets'
    LiveExporter."""

    def __init__(self, output: OutputFolder, folder: Path, suffix: str, render) -> None:
        """Files are written into `folder` (inside `output`), named by ruleset id and
        `suffix`."""
        self.output, self.folder, self.suffix, self.render = output, folder, suffix, render
        self.pieces: dict[Key, Pieces] = {}
        """What each file's last render made, kept for the next."""
        self.written: dict[Key, str | list[bytes]] = {}
        """What each file last written holds: the parts it was joined from (the pieces'
        own objects, so the file is not held twice), or a file rendered whole, the digest
        of its bytes. Nothing is read back."""
        self.layouts: dict[Key, Layout] = {}
        """Where each kept part of a file written in parts lies in it, and the file's
        identity then."""

    def update(
        self,
        compendium: Compendium,
        rulesets: Iterable[str],
        removed: Iterable[str],
        steady: Collection[str] = (),
    ) -> None:
        """Render each ruleset's file again (keeping the pieces of unchanged documents of
        the `steady` ones); write it if its bytes changed."""
        for ruleset_id in rulesets:
            ruleset = compendium.ruleset(ruleset_id)
            files: list[tuple[Key, object, Translated | None]] = [((ruleset_id, ""), ruleset, None)]
            files += [((ruleset_id, e.language), e.ruleset, e) for e in editions(ruleset)]
            for key, shown, edition in files:
                self._render(key, compendium, shown, edition, steady=ruleset_id in steady)
            kept = {key for key, _, _ in files}
            self._remove([k for k in self.written if k[0] == ruleset_id and k not in kept])
        self._remove([key for key in self.written if key[0] in set(removed)])

    def _render(self, key: Key, compendium, ruleset, edition, *, steady: bool) -> None:
        pieces = self.pieces.setdefault(key, Pieces())
        if not steady:
            pieces.clear()
        pieces.start()
        data = self.render(compendium, ruleset, pieces, edition)
        pieces.sweep()
        parts = [data] if isinstance(data, bytes) else data  # a file in parts is never joined
        path = self._path(key)
        last = self.written.get(key)
        if isinstance(last, list) and isinstance(data, list):
            changed = last != data  # the kept pieces are the same objects: compared as such
        else:  # the build's file is compared with what is on disk
            now = digest_of_parts(map(as_stored, parts))
            changed = (last if isinstance(last, str) else self.output.digest(path)) != now
        if changed:
            layout = self.layouts.pop(key, None)
            with self.output.replacing(path) as file:
                places = None
                if isinstance(last, list) and layout is not None and COPY_IN_KERNEL:
                    copying = partial(_write_parts, file, parts, (last, layout))
                    places = self.output.with_file(path, copying)
                if places is None:  # no file there, or not the one last written
                    places = _write_parts(file, parts)
            if isinstance(data, list):
                self.layouts[key] = (self.output.identity(path), places)
        self.written[key] = data if isinstance(data, list) else now
        del data, parts  # the next render's file is made before this one would be let go

    def _path(self, key: Key) -> Path:
        ruleset_id, language = key
        name = f"{ruleset_id}{self.suffix}"
        return (
            safe_child(self.folder, language, name) if language else safe_child(self.folder, name)
        )

    def _remove(self, keys: list[Key]) -> None:
        for key in keys:
            self.pieces.pop(key, None)
            self.written.pop(key, None)
            self.output.remove(self._path(key))

    def finish(self) -> None:
        """Every file is written as it is rendered: nothing is left."""


def _write_parts(
    file: BinaryIO, parts: list[bytes], last: tuple | None = None, old: BinaryIO | None = None
) -> dict[int, tuple[int, int]] | None:
    """Write `parts` into `file`; where each kept (compressed) part lies in it. With the
    `last` render's parts and layout and its file `old`, each part kept from it is copied
    from where it lies there, if `old` is still that file (else nothing is written: None)."""
    copied_from: dict[int, tuple[int, int]] = {}
    if last is not None and old is not None:
        parts_before, (identity, places_before) = last
        if identity != file_identity(old):
            return None
        copied_from = {
            id(part): places_before[id(part)] for part in parts_before if id(part) in places_before
        }
    places, offset = {}, 0
    for part in parts:
        if isinstance(part, Squeezed) and id(part) in copied_from:
            file.flush()
            start, size = copied_from[id(part)]
            if not _copy(old, file, start, size):  # a file system that cannot: written
                copied_from.clear()
                file.write(as_stored(part))
        else:
            text = as_stored(part)
            file.write(text)
            size = len(text)
        if isinstance(part, Squeezed):
            places[id(part)] = (offset, size)
        offset += size
    return places


def _copy(source: BinaryIO, target: BinaryIO, offset: int, size: int) -> bool:
    """Copy `size` bytes of `source` from `offset` to where `target` is, in the kernel;
    False, with nothing copied, where the file system cannot."""
    begun = False
    while size:
        try:
            copied = os.copy_file_range(source.fileno(), target.fileno(), size, offset)
        except OSError as exc:
            if begun or exc.errno not in CANNOT_COPY:
                raise
            return False
        if not copied:
            raise OSError(f"{source.name}: shorter than when it was written")
        offset, size, begun = offset + copied, size - copied, True
    return True
