"""The `foundry` target kept up to date in place, for `rulepress build --watch`.

A changed ruleset's packs are rendered again in memory by the build's own code
(`build_packs`, `manifest`); then only what differs is written: each source file whose
bytes changed (replaced atomically), the LevelDB keys whose values changed (put and
deleted in one batch, the pack patched in place), module.json. The entries and source
digests of what is on disk are kept between updates, so nothing is read back; an
Item's or a journal page's value is kept compressed (exporters.squeezed), a watch holding
every one between edits.

A patched pack's files differ from a fresh build's (its keys and values do not), and
the release zip holds the module's files: so `finish`, when the watch quiets or ends,
writes each patched pack afresh (the build's deterministic bytes) and then the release
zip of each changed module, the same bytes a fresh build writes.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Collection, Iterable
from pathlib import Path

from rulepress.caching import digest
from rulepress.compendium.model import Compendium
from rulepress.exporters import ExportOptions
from rulepress.exporters.foundry.babele import write_translations
from rulepress.exporters.foundry.enrichers import inert
from rulepress.exporters.foundry.leveldb import (
    pack_entries,
    patch_pack,
    read_entries,
    refuse_if_locked,
    write_entries,
)
from rulepress.exporters.foundry.manifest import manifest
from rulepress.exporters.foundry.pack import Pack, Ready
from rulepress.exporters.foundry.packs import ModuleOptions, build_packs
from rulepress.exporters.foundry.packs.common import html_environment
from rulepress.exporters.foundry.release import write_release_zip
from rulepress.exporters.markdown_text import environment
from rulepress.exporters.output import replaced_atomically
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.pieces import Pieces
from rulepress.exporters.squeezed import Stored, same, squeeze
from rulepress.exporters.templating import with_words
from rulepress.output_names import safe_child


class LiveFoundry:
    """The foundry output folder `out`, module by module, following the compendium."""

    def __init__(self, output: OutputFolder, out: Path, options: ExportOptions) -> None:
        """The template environments once; what is on disk is read on first need. Every
        file is opened through `output`, never through a link."""
        self.output, self.out, self.options = output, out, options
        self.env = environment(options.templates, plain=inert)
        self.html = html_environment(options.templates)
        self.entries: dict[Path, dict[str, bytes]] = {}
        """Pack folder -> its keys and values as on disk (read once, then kept)."""
        self.sources: dict[Path, dict[str, str]] = {}
        """Source folder -> file name -> digest of its bytes on disk (read once, then kept)."""
        self.written: dict[Path, dict[str, weakref.ref[Ready]]] = {}
        """Source folder -> file name -> the document written there last, while the pieces
        keep it (weakly: a journal chapter's 25 MB is not held for nothing): one kept
        from that render is on disk as it is (nothing to digest or compare)."""
        self.pieces: dict[str, Pieces] = {}
        """Ruleset id -> what its last render made, kept for the next (exporters.pieces)."""
        self.patched: set[Path] = set()
        """Pack folders patched since they were last written afresh."""
        self.stale: set[str] = set()
        """Module ids whose release zip no longer matches their folder."""

    def update(
        self,
        compendium: Compendium,
        rulesets: Iterable[str],
        removed: Iterable[str],
        steady: Collection[str] = (),
    ) -> None:
        """Render each ruleset's module again, keeping the pieces of unchanged documents
        for the `steady` rulesets (else rendering all); write only what differs."""
        publisher = compendium.settings.settings
        words = publisher.site.language  # rulepress's own words: the source's language
        self.env, self.html = with_words(self.env, words), with_words(self.html, words)
        for ruleset_id in rulesets:
            pieces = self.pieces.setdefault(ruleset_id, Pieces())
            if ruleset_id not in steady:
                pieces.clear()
            pieces.start()
            ruleset = compendium.ruleset(ruleset_id)
            settings = ModuleOptions(
                publisher.foundry.module_id(ruleset.id),
                self.options.foundry_version,
                publisher.foundry.system,
            )
            folder = safe_child(self.out, settings.module_id)
            try:
                packs = self._write_packs(ruleset, settings, folder, pieces)
            except _SourceForgotten:  # not expected: render every document afresh
                pieces.clear()
                packs = self._write_packs(ruleset, settings, folder, pieces)
            made = {pack.name for pack in packs}
            for kept in ("packs", "src/packs"):
                for gone in self._folders(folder / kept) - made:
                    self._forget(safe_child(folder, *kept.split("/"), gone))
            languages = write_translations(
                self.output, folder, ruleset, settings, self.env, self.html
            )
            text = json.dumps(
                manifest(ruleset, settings, packs, publisher, languages),
                indent=2,
                ensure_ascii=False,
            )
            self.output.write_if_changed(folder / "module.json", (text + "\n").encode("utf-8"))
            self.stale.add(settings.module_id)
            pieces.sweep()
        for ruleset_id in removed:
            self.pieces.pop(ruleset_id, None)
            module_id = publisher.foundry.module_id(ruleset_id)
            self._forget(safe_child(self.out, module_id))
            self.output.remove(safe_child(self.out, f"{module_id}.zip"))
            self.stale.discard(module_id)

    def _write_packs(self, ruleset, settings: ModuleOptions, folder: Path, pieces: Pieces) -> list:
        """Render the ruleset's packs and write what differs; the packs, emptied."""

        def open_pack(*args, **kwargs) -> _KeptPack:
            pack = _KeptPack(*args, **kwargs)
            pack.settle = _Sources(self, safe_child(folder, "src", "packs", pack.name))
            return pack

        packs = []
        for pack in build_packs(ruleset, settings, self.env, self.html, open_pack, pieces):
            pack.settle.finish()
            self._write_entries(safe_child(folder, "packs", pack.name), pack)
            pack.documents.clear()  # written: its name and type are what is left
            packs.append(pack)
        return packs

    def _write_entries(self, folder: Path, pack: Pack) -> None:
        entries = pack_entries(pack)
        if not self.output.entries(folder):  # a missing pack (or an empty folder)
            self.output.remove(folder)
            write_entries(Stored(entries), folder, self.output)
        else:
            stored = self._stored_entries(folder)
            put = {k: value for k, value in entries.items() if not same(stored.get(k), value)}
            delete = stored.keys() - entries.keys()
            if put or delete:
                patch_pack(folder, Stored(put), set(delete), self.output)
                self.patched.add(folder)
        self.entries[folder] = entries

    def _source_digests(self, sources: Path) -> dict[str, str]:
        known = self.sources.get(sources)
        if known is None:
            known = {}
            for name in self.output.entries(sources):
                known[name] = digest(self.output.read(sources / name) or b"")
        return known

    def _stored_entries(self, folder: Path) -> dict[str, bytes]:
        known = self.entries.get(folder)
        if known is None:
            refuse_if_locked(folder, self.output)
            known = read_entries(folder, self.output)
        return known

    def _folders(self, parent: Path) -> set[str]:
        return {name for name, is_folder in self.output.entries(parent).items() if is_folder}

    def _forget(self, path: Path) -> None:
        """Delete a module or pack folder the compendium no longer makes."""
        if path.name != "src":
            for parts, _ in self.output.files(path, skip_links=True):
                if parts[-1] == "LOCK":
                    refuse_if_locked(path.joinpath(*parts[:-1]), self.output)
        self.output.remove(path)
        for kept in (self.entries, self.sources, self.written):
            for folder in [f for f in kept if f == path or f.is_relative_to(path)]:
                del kept[folder]
        self.patched = {f for f in self.patched if not f.is_relative_to(path)}

    def finish(self) -> None:
        """Write each patched pack afresh and each changed module's release zip: the
        output is then a fresh build's, byte for byte."""
        for folder in sorted(self.patched):
            self._rewrite_pack(folder, self.entries[folder])
        self.patched.clear()
        for module_id in sorted(self.stale):
            module = safe_child(self.out, module_id)
            with self.output.replacing(safe_child(self.out, f"{module_id}.zip")) as file:
                write_release_zip(self.output, module, file)
        self.stale.clear()

    def _rewrite_pack(self, folder: Path, entries: dict[str, bytes]) -> None:
        """Replace a pack with a fresh write of its entries (a build's bytes); the old one
        stays until the new one is complete, and is swapped out by two renames."""
        refuse_if_locked(folder, self.output)
        with replaced_atomically(folder, mark=False, output=self.output) as staging:
            self.output.remove(staging)  # plyvel makes the pack's folder itself
            write_entries(Stored(entries), staging, self.output)


class _SourceForgotten(Exception):
    """A kept document whose source bytes were let go must be written again (its file is
    not the one the last render wrote): the ruleset is rendered afresh."""


class _KeptPack(Pack):
    """A pack as a watch run renders it: each document, as it is added, has its value
    compressed (`_squeeze`) and its source file settled (`_Sources`), so the render never
    holds every Item's value or source file at once (146 MB at 10,000 weapons)."""

    settle: _Sources

    def keep(self, ready: Ready) -> Ready:
        """Add a document made ready, its value compressed, its source file written if its
        bytes changed."""
        _squeeze(ready)
        self.settle(ready)
        return super().keep(ready)


class _Sources:
    """The source files of one pack of a watch run, settled as its documents come: each
    one kept from the last render is on disk as it is; any other is written if its
    digest differs from the file's (nothing read back); `finish` removes the files the
    render did not make and keeps the digests for the next."""

    def __init__(self, live: LiveFoundry, folder: Path) -> None:
        """What is on disk in `folder`, as `live` last left it (read once)."""
        self.live, self.folder = live, folder
        self.on_disk = live._source_digests(folder)
        self.last = live.written.get(folder, {})
        self.made: dict[str, str] = {}
        self.readies: dict[str, weakref.ref[Ready]] = {}

    def __call__(self, ready: Ready) -> None:
        """Settle one document's source file, then let its bytes go."""
        name = ready.file_name
        self.readies[name] = weakref.ref(ready)
        last = self.last.get(name)
        if last is not None and last() is ready and name in self.on_disk:
            self.made[name] = self.on_disk[name]
            ready.forget_source()
            return
        if ready.source is None:  # kept, its bytes let go, but not the file's last
            raise _SourceForgotten(name)
        data = ready.source
        ready.forget_source()
        self.made[name] = new = digest(data)
        known = self.on_disk.get(name)
        if known is None:  # a new file (its folder may be new too)
            self.live.output.write_if_changed(self.folder / name, data)
        elif known != new:  # changed: the digests say so without reading it back
            self.live.output.write(self.folder / name, data)

    def finish(self) -> None:
        """The pack is complete: remove the files it no longer makes."""
        for gone in self.on_disk.keys() - self.made.keys():
            self.live.output.remove(self.folder / gone)
        self.live.sources[self.folder] = self.made
        self.live.written[self.folder] = self.readies


def _squeeze(ready: Ready) -> None:
    """Keep a document kept whole (one entry: an Item) with its value compressed, once. A
    journal entry is made again on every edit, its pages' entries kept compressed by the
    pieces (leveldb.document_entries)."""
    if len(ready.entries) == 1:
        key, value = ready.entries[0]
        ready.hold(((key, squeeze(value)),))
