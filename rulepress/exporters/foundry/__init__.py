"""The `foundry` target: one Foundry VTT module per ruleset.

`dist/foundry/<module-id>/` (the id is `<id_prefix>-<ruleset id>`, `rulepress-` unless the
settings say otherwise) holds `module.json`, `packs/<name>/` (LevelDB, the layout the
official CLI writes) and `src/packs/<name>/*.json` (the same documents as source files
with `_key`, which the official CLI packs into the identical pack); beside it,
`<module-id>.zip` is the folder as a release for Foundry's installer: what Foundry reads,
without `src/` or the packs' LevelDB lock and log (rulepress.exporters.foundry.release).
"""

from __future__ import annotations

import json
from pathlib import Path

from rulepress.compendium.model import Compendium
from rulepress.exporters import ExportOptions
from rulepress.exporters.foundry.babele import write_translations
from rulepress.exporters.foundry.enrichers import inert
from rulepress.exporters.foundry.leveldb import check_pack, refuse_if_locked
from rulepress.exporters.foundry.live import LiveFoundry
from rulepress.exporters.foundry.manifest import manifest
from rulepress.exporters.foundry.module_writer import ModuleWriter
from rulepress.exporters.foundry.pack import Pack, PackOutput
from rulepress.exporters.foundry.packs import ModuleOptions, OpenPack, build_packs
from rulepress.exporters.foundry.packs.common import html_environment
from rulepress.exporters.markdown_text import environment
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.templating import with_words
from rulepress.output_names import safe_child

FOUNDRY_VERSIONS = (12, 13, 14)
"""The Foundry generations a module can be built for (`--foundry-version`); a build writes
one, v14 unless told (docs/foundry-v14.md says why)."""


class FoundryExporter:
    """The `foundry` target: one module per ruleset, its LevelDB packs and their JSON sources."""

    name = "foundry"
    description = "a Foundry VTT module per ruleset with LevelDB packs (dist/foundry/)"

    def export(self, compendium: Compendium, out: Path, options: ExportOptions) -> None:
        """Write each ruleset's module folder and its release zip into `out`."""
        publisher = compendium.settings.settings
        words = publisher.site.language  # rulepress's own words: the source's language
        env = with_words(environment(options.templates, plain=inert), words)
        html = with_words(html_environment(options.templates), words)
        output = OutputFolder(out)
        with ModuleWriter(output) as writer:
            for ruleset in compendium:
                self._export_module(ruleset, publisher, options, env, html, output, writer)

    @staticmethod
    def _export_module(ruleset, publisher, options, env, html, output, writer) -> None:
        """Write one ruleset's module folder and its release zip."""
        settings = ModuleOptions(
            publisher.foundry.module_id(ruleset.id),
            options.foundry_version,
            publisher.foundry.system,
        )
        folder = safe_child(output.root, settings.module_id)
        open_pack = _pack_opener(folder, writer)
        packs = []
        for pack in build_packs(ruleset, settings, env, html, open_pack):
            check_pack(pack)
            pack.output.finish()
            pack.documents.clear()  # only its name and type are needed now
            packs.append(pack)
        languages = write_translations(output, folder, ruleset, settings, env, html)
        text = json.dumps(
            manifest(ruleset, settings, packs, publisher, languages),
            indent=2,
            ensure_ascii=False,
        )
        output.write(folder / "module.json", (text + "\n").encode("utf-8"))
        writer.write_zip(folder, safe_child(output.root, f"{settings.module_id}.zip"))

    @staticmethod
    def check_replaceable(previous: Path) -> None:
        """Refuse before writing anything if Foundry holds a pack of the previous output."""
        output = OutputFolder(previous)
        for parts, _ in output.files(previous, skip_links=True):
            if len(parts) == 4 and parts[1] == "packs" and parts[3] == "LOCK":
                refuse_if_locked(previous.joinpath(*parts[:3]), output)

    @staticmethod
    def live(output: OutputFolder, target: Path, options: ExportOptions) -> LiveFoundry:
        """Each changed module's source files and pack keys written in place; its packs
        and release zip afresh when the watch quiets (foundry/live.py)."""
        return LiveFoundry(output, target, options)


def _pack_opener(module: Path, writer: ModuleWriter) -> OpenPack:
    """Packs whose documents `writer` takes as they are added: their source files go to
    `module`/src/packs/<name>, their entries to the pack `module`/packs/<name>."""

    def open_pack(name: str, *details, **more) -> Pack:
        sources = safe_child(module, "src", "packs", name)
        folder = safe_child(module, "packs", name)
        return Pack(name, *details, **more, output=PackOutput(sources, folder, writer))

    return open_pack
