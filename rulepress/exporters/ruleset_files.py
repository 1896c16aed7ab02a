"""The live form (`LiveExporter`) of a target made of one file per ruleset: the markdown
and json targets' for `rulepress build --watch` (their exporters' `live`).

Each changed ruleset's file is rendered again through the build's own function and
written only if its bytes changed, replaced whole through the output folder's guard
(output_folder: a temporary file in the same folder, then a rename, never through a
link). The foundry target's live form is foundry/live.py.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path

from rulepress.caching import digest
from rulepress.compendium.model import Compendium
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.pieces import Pieces
from rulepress.output_names import safe_child


class RulesetFiles:
    """A target made of one file per ruleset (`<ruleset id><suffix>`), rendered by
    `render(compendium, ruleset, pieces)` to its bytes: the markdown and json targets'
    LiveExporter."""

    def __init__(self, output: OutputFolder, folder: Path, suffix: str, render) -> None:
        """Files are written into `folder` (inside `output`), named by ruleset id and
        `suffix`."""
        self.output, self.folder, self.suffix, self.render = output, folder, suffix, render
        self.pieces: dict[str, Pieces] = {}
        """Ruleset id -> what its last render made, kept for the next."""
        self.written: dict[str, str] = {}
        """Ruleset id -> the digest of the bytes last written to its file (nothing is read
        back, and the file is not held beside the pieces it is joined from)."""

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
            before, now = self.written.get(ruleset_id), digest(data)
            if before is None:  # the build's file: compared with what is on disk
                self.output.write_if_changed(path, data)
            elif before != now:
                self.output.write(path, data)
            self.written[ruleset_id] = now
            del data  # the next render's file is made before this one would be let go
        for ruleset_id in removed:
            self.pieces.pop(ruleset_id, None)
            self.written.pop(ruleset_id, None)
            self.output.remove(safe_child(self.folder, f"{ruleset_id}{self.suffix}"))

    def finish(self) -> None:
        """Every file is written as it is rendered: nothing is left."""
