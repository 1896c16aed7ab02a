"""The live form (`LiveExporter`) of a target made of one file per ruleset: the markdown
and json targets' for `rulepress build --watch` (their exporters' `live`).

Each changed ruleset's file is rendered again through the build's own function and
written only if its bytes changed (and so is each of its editions in another language,
`<language>/<ruleset id><suffix>`: rulepress.translations), replaced whole through the
output folder's guard (output_folder: a temporary file in the same folder, then a
rename, never through a link). The foundry target's live form is foundry/live.py.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path

from rulepress.caching import digest_of_parts
from rulepress.compendium.model import Compendium
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.pieces import Pieces
from rulepress.exporters.squeezed import as_stored
from rulepress.output_names import safe_child
from rulepress.translations import Translated, editions

Key = tuple[str, str]
"""(ruleset id, language): one file of the target; "" is the source's language."""


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
            with self.output.replacing(path) as file:
                file.writelines(map(as_stored, parts))  # a kept part may be compressed
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
