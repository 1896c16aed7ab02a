"""Outputs kept up to date in place, file by file: what `rulepress build --watch` writes.

A build replaces a target's folder whole; a watch run, after that first build, updates
it edit by edit. `LiveExporter` is the contract of a target that can (the built-in
foundry, markdown and json targets): given the compendium and the rulesets to redo, it
renders them through the same code as the build and writes only the files whose bytes
changed, each replaced whole through the output folder's guard (output_folder: a
temporary file in the same folder, then a rename, never through a link), so a reader
sees the old file or the new one, never half of one. Any other target (the site, a
plugin's) is exported whole again, as a build does.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Protocol

from rulepress.compendium.model import Compendium
from rulepress.exporters import ExportOptions
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.pieces import Pieces
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


class RulesetFiles:
    """A target made of one file per ruleset (`<ruleset id><suffix>`), rendered by
    `render(compendium, ruleset, pieces)`: the markdown and json targets."""

    def __init__(self, output: OutputFolder, folder: Path, suffix: str, render) -> None:
        """Files are written into `folder` (inside `output`), named by ruleset id and
        `suffix`."""
        self.output, self.folder, self.suffix, self.render = output, folder, suffix, render
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
            if before is None:  # the build's file: compared with what is on disk
                self.output.write_if_changed(path, data)
            elif before != data:
                self.output.write(path, data)
            self.written[ruleset_id] = data
        for ruleset_id in removed:
            self.pieces.pop(ruleset_id, None)
            self.written.pop(ruleset_id, None)
            self.output.remove(safe_child(self.folder, f"{ruleset_id}{self.suffix}"))

    def finish(self) -> None:
        """Every file is written as it is rendered: nothing is left."""


def live_exporter(
    name: str, output: OutputFolder, target: Path, options: ExportOptions
) -> LiveExporter | None:
    """The live form of the built-in target `name` writing into `target`, a folder of
    `output`; None for a target that is exported whole on every change (the site, a
    plugin's)."""
    if name == "json":
        from rulepress.exporters.json_data import ruleset_json

        return RulesetFiles(
            output,
            target,
            ".json",
            lambda _compendium, ruleset, pieces: ruleset_json(ruleset, pieces),
        )
    if name == "markdown":
        from rulepress.exporters.markdown_guide import guide_bytes

        return RulesetFiles(
            output,
            target,
            ".md",
            lambda compendium, ruleset, pieces: guide_bytes(
                compendium, ruleset, options.templates, pieces
            ),
        )
    if name == "foundry":
        from rulepress.exporters.foundry.live import LiveFoundry

        return LiveFoundry(output, target, options)
    return None
