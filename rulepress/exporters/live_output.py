"""Outputs kept up to date in place, file by file: what `rulepress build --watch` writes.

A build replaces a target's folder whole; a watch run, after that first build, updates
it edit by edit. `LiveExporter` is the contract of a target that can (the built-in
foundry, markdown and json targets): given the compendium and the rulesets to redo, it
renders them through the same code as the build and writes only the files whose bytes
changed, each replaced atomically (`write_if_changed`: a temporary file in the same
folder, then os.replace), so a reader sees the old file or the new one, never half of
one. Any other target (the site, a plugin's) is exported whole again, as a build does.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Protocol

from rulepress.compendium.model import Compendium
from rulepress.errors import RulepressError
from rulepress.exporters import ExportOptions
from rulepress.exporters.pieces import Pieces
from rulepress.files import Replacement
from rulepress.output_names import safe_child


class LiveExporter(Protocol):
    """A target whose output follows a compendium in place, ruleset by ruleset."""

    def update(
        self,
        compendium: Compendium,
        rulesets: Iterable[str],
        removed: Iterable[str],
        steady: Collection[str] = (),
    ) -> None:
        """Bring the output of `rulesets` (ids of `compendium`) up to date and delete that
        of the `removed` ruleset ids, writing only what changed. In the `steady` rulesets
        only documents' own contents changed (`steady_rulesets`): what was rendered from an
        unchanged document may be kept (exporters.pieces)."""

    def finish(self) -> None:
        """Write what was left for a quiet moment (a release zip); the output then equals
        a fresh build's."""


def write_if_changed(path: Path, data: bytes) -> bool:
    """Replace `path` with `data` atomically unless it already holds those bytes; return
    whether it was written. Missing folders are made."""
    try:
        with open(path, "rb") as file:
            if file.read(len(data) + 1) == data:
                return False
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RulepressError(f"cannot read output {path}: {exc.strerror}") from None
    replace_atomically(path, data)
    return True


def replace_atomically(path: Path, data: bytes) -> None:
    """Replace `path` whole with `data` (files.Replacement: a reader finds the old file or
    the new one), readable by all as a build's files are."""
    try:
        replacement = Replacement(path)
        try:
            replacement.file.write(data)
            os.chmod(replacement.temporary, 0o644)  # Replacement's 0600
            replacement.commit()
        finally:
            replacement.discard()
    except OSError as exc:
        raise RulepressError(f"cannot write output {path}: {exc.strerror or exc}") from None


def remove_output(path: Path) -> None:
    """Delete an output file or folder that the compendium no longer makes."""
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    except OSError as exc:
        raise RulepressError(f"cannot delete output {path}: {exc.strerror or exc}") from None


class RulesetFiles:
    """A target made of one file per ruleset (`<ruleset id><suffix>`), rendered by
    `render(compendium, ruleset, pieces)`: the markdown and json targets."""

    def __init__(self, folder: Path, suffix: str, render) -> None:
        """Files are written into `folder`, named by ruleset id and `suffix`."""
        self.folder, self.suffix, self.render = folder, suffix, render
        self.pieces: dict[str, Pieces] = {}
        """Ruleset id -> what its last render made, kept for the next."""
        self.written: dict[str, bytes] = {}
        """Ruleset id -> the bytes last written to its file (nothing is read back)."""

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
            pieces = self.pieces.setdefault(ruleset_id, Pieces())
            if ruleset_id not in steady:
                pieces.clear()
            pieces.start()
            data = self.render(compendium, compendium.ruleset(ruleset_id), pieces)
            pieces.sweep()
            path = safe_child(self.folder, f"{ruleset_id}{self.suffix}")
            before = self.written.get(ruleset_id)
            if before is None:
                write_if_changed(path, data)  # the build's file: compared with what is on disk
            elif before != data:
                replace_atomically(path, data)
            self.written[ruleset_id] = data
        for ruleset_id in removed:
            self.pieces.pop(ruleset_id, None)
            self.written.pop(ruleset_id, None)
            remove_output(safe_child(self.folder, f"{ruleset_id}{self.suffix}"))

    def finish(self) -> None:
        """Every file is written as it is rendered: nothing is left."""


def live_exporter(name: str, target: Path, options: ExportOptions) -> LiveExporter | None:
    """The live form of the built-in target `name` writing into `target`; None for a
    target that is exported whole on every change (the site, a plugin's)."""
    if name == "json":
        from rulepress.exporters.json_data import ruleset_json

        return RulesetFiles(
            target, ".json", lambda _compendium, ruleset, pieces: ruleset_json(ruleset, pieces)
        )
    if name == "markdown":
        from rulepress.exporters.markdown_guide import guide_bytes

        return RulesetFiles(
            target,
            ".md",
            lambda compendium, ruleset, pieces: guide_bytes(
                compendium, ruleset, options.templates, pieces
            ),
        )
    if name == "foundry":
        from rulepress.exporters.foundry.live import LiveFoundry

        return LiveFoundry(target, options)
    return None
