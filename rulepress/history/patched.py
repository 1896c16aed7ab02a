"""Revisions as the working compendium with the documents that differ put in, none written.

Most of a revision's files are bytes the compendium already loaded, the working tree's
or the revision before's: `PatchedRevisions` lists each revision's files (`git ls-tree`),
reads from git only the objects it has not seen (`git cat-file --batch`, each once), and
takes the compendium it holds to that revision: a document file whose bytes (by their
digest) it holds keeps its entry, one it does not is loaded alone by the loader
(`load_document_file`, from a scratch folder holding that file only, through the document
cache), one gone is dropped. Entries keep the loader's walk order (a folder's files by
name, then its folders by name). So a revision costs the listing and what it changed.

What this cannot place the way the loader's walk would see it is handed, from then on, to
the checkout of the whole tree (rulepress.history.revisions), which is slower and as
correct: a symbolic link anywhere, a name that is not UTF-8, a file beside the ruleset
folders, a ruleset folder added, removed or whose `ruleset.yaml` differs, a compendium
that is itself one ruleset folder.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import MappingProxyType

from rulepress.caching import digest
from rulepress.compendium.cache import DocumentCache
from rulepress.compendium.loader import load_document_file
from rulepress.compendium.model import Compendium, Entry, Ruleset
from rulepress.compendium.walk import RULESET_FILE, YAML_SUFFIXES
from rulepress.errors import Level
from rulepress.history.checkout import LINK_MODE, RevisionCheckout, TreeEntry
from rulepress.history.revisions import RevisionDoesNotLoad, RevisionLoads

Held = dict[str, dict[tuple[str, ...], Entry]]
"""Ruleset folder name -> the entries of its document files by their path parts below
the compendium folder, in the walk's order."""


class Unplaceable(Exception):
    """A revision this module does not take as the loader would: the checkout takes it."""


class PatchedRevisions:
    """Revisions of the compendium `working` was loaded from, each taken from the last."""

    def __init__(
        self, working: Compendium, checkout: RevisionCheckout, scratch: Path, cache: DocumentCache
    ) -> None:
        """Start from `working`; files load through `cache`, one at a time in `scratch`."""
        self.checkout, self.scratch, self.cache = checkout, scratch, cache
        self.whole: RevisionLoads | None = None
        """Set once a revision could not be placed: the checkout loads every later one."""
        self.digests: dict[bytes, str] = {}  # git object id -> digest of its bytes
        self.root = working.root
        try:
            self.rulesets, self.held = _held(working)
        except Unplaceable:
            self.whole = RevisionLoads(checkout, cache)

    def load(self, commit: str, spec: str) -> Compendium:
        """The documents at `commit` (`spec`, as named), as RevisionLoads.load gives them."""
        if self.whole is None:
            try:
                return self._patched(commit, spec)
            except Unplaceable:
                self.whole = RevisionLoads(self.checkout, self.cache)
        return self.whole.load(commit, spec)

    def _patched(self, commit: str, spec: str) -> Compendium:
        listing = self.checkout.listing(commit, spec)
        wanted = _placed(listing, set(self.rulesets))
        documents = [entry for entry in listing if entry[3] in wanted]
        new = [entry for entry in documents if entry[1] not in self.digests]
        self.checkout.read_objects(new, spec)
        for _, obj, _, _ in new:
            self.digests[obj] = digest(self.checkout.objects[obj])
        for name, info_digest in _infos(listing, self.checkout, spec).items():
            if info_digest != self.rulesets[name].info_digest:
                raise Unplaceable(f"{name}/{RULESET_FILE} differs")
        held: Held = {}
        failed = False
        for name in self.rulesets:
            kept = self.held[name]
            files = sorted((p for p in wanted if p[0] == name), key=_walk_order)
            entries: dict[tuple[str, ...], Entry] = {}
            for parts in files:
                obj = wanted[parts]
                entry = kept.get(parts)
                if entry is None or entry.digest != self.digests[obj]:
                    entry = self._load_one(parts, obj, spec)
                if entry is None:
                    failed = True
                else:
                    entries[parts] = entry
            held[name] = entries
        self.held = held  # the state is this revision's, loaded or not
        self.cache.save()  # the documents loaded, for the next build (not with --no-cache)
        if failed:
            raise RevisionDoesNotLoad(f"the compendium at {spec} has files that do not load")
        rulesets = {}
        for name, ruleset in self.rulesets.items():
            entries = tuple(held[name].values())
            if entries != ruleset.entries:
                ruleset = Ruleset(
                    ruleset.info, ruleset.folder, ruleset.info_source, entries, ruleset.info_digest
                )
                self.rulesets[name] = ruleset
            rulesets[ruleset.id] = ruleset
        return Compendium(self.root, MappingProxyType(rulesets))

    def _load_one(self, parts: tuple[str, ...], obj: bytes, spec: str) -> Entry | None:
        """The entry of one document file at a revision, loaded alone; None if it does not
        load."""
        content = self.checkout.objects[obj]  # read with the listing
        path = self.scratch.joinpath(*parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        try:
            loaded = load_document_file(self.scratch, path, self.cache)
        finally:
            shutil.rmtree(self.scratch, ignore_errors=True)
        if loaded.entry is None or any(f.level == Level.ERROR for f in loaded.findings):
            return None
        return loaded.entry


def _held(working: Compendium) -> tuple[dict[str, Ruleset], Held]:
    """The working compendium's rulesets by folder name, and their document files."""
    rulesets: dict[str, Ruleset] = {}
    held: Held = {}
    root = working.root
    prefix = "" if os.fspath(root) == os.curdir else os.path.join(root, "")
    for ruleset in working:
        if ruleset.folder.parent != root or not ruleset.info_digest:
            raise Unplaceable("a ruleset folder that is not one below the compendium's")
        name = ruleset.folder.name
        entries = {}
        for entry in ruleset.entries:
            path = os.fspath(entry.file)  # as text: Path.relative_to costs 10 times more
            if not path.startswith(prefix):
                raise Unplaceable("a document from outside the compendium")
            parts = tuple(path[len(prefix) :].split(os.sep))
            if not entry.digest or parts[0] != name:
                raise Unplaceable("a document made in code")
            entries[parts] = entry
        rulesets[name], held[name] = ruleset, entries
    return rulesets, held


def _placed(listing: list[TreeEntry], folders: set[str]) -> dict[tuple[str, ...], bytes]:
    """The document files the loader's walk would read (path parts -> object id), when
    the revision's ruleset folders are `folders`; Unplaceable for anything else."""
    wanted: dict[tuple[str, ...], bytes] = {}
    infos = set()
    for mode, obj, _, parts in listing:
        if mode == LINK_MODE:
            raise Unplaceable("a symbolic link")
        try:
            "/".join(parts).encode("utf-8")
        except UnicodeEncodeError:
            raise Unplaceable("a name that is not UTF-8") from None
        if any(part.startswith(".") for part in parts):
            continue  # the walk never enters a dot-folder nor reads a dot-file
        if len(parts) == 1:
            if parts[0].endswith(YAML_SUFFIXES):
                raise Unplaceable("a document beside the ruleset folders")
            continue
        if parts[0] not in folders:
            if parts[-1].endswith(YAML_SUFFIXES):  # a ruleset folder, or YAML in no ruleset
                raise Unplaceable("a folder that is no ruleset folder of the working tree")
            continue
        if parts[1:] == (RULESET_FILE,):
            infos.add(parts[0])
        elif parts[-1].endswith(YAML_SUFFIXES):
            wanted[parts] = obj
    if infos != folders:
        raise Unplaceable("a ruleset folder added or removed")
    return wanted


def _infos(listing: list[TreeEntry], checkout: RevisionCheckout, spec: str) -> dict[str, str]:
    """The digest of each ruleset folder's `ruleset.yaml` at the revision."""
    infos = [entry for entry in listing if entry[3][1:] == (RULESET_FILE,)]
    checkout.read_objects(infos, spec)
    return {parts[0]: digest(checkout.objects[obj]) for _, obj, _, parts in infos}


def _walk_order(parts: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """The place of a file in the loader's walk (os.walk, each folder's names sorted): a
    folder's files before its folders, each by name."""
    return (*((1, part) for part in parts[1:-1]), (0, parts[-1]))
