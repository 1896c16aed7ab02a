"""The one loader: compendium folder -> validated documents, or findings that say where.

A compendium folder holds one folder per ruleset (or is itself a ruleset folder); each
ruleset folder has a `ruleset.yaml` and any number of document files below it, one
document per file, its `kind` naming its model.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import MappingProxyType

from rulepress import kinds
from rulepress.caching import digest
from rulepress.compendium.cache import DocumentCache
from rulepress.compendium.findings import (
    file_problem,
    finding_at,
    suggest,
    type_name,
    validated,
)
from rulepress.compendium.model import Compendium, Entry, Ruleset
from rulepress.compendium.parallel import read_all
from rulepress.compendium.settings import PublisherSettings, load_settings, settings_file
from rulepress.compendium.walk import (
    RULESET_FILE,
    link_leaving,
    refused,
    ruleset_document_files,
    ruleset_folders,
)
from rulepress.compendium.yaml_source import SourceMap, YamlProblem, decode_utf8, parse_yaml
from rulepress.errors import Code, Finding, Level, RulepressError
from rulepress.files import OutsideRepository, inside, read_inside
from rulepress.models import RulesetInfo
from rulepress.models.translation import Translation
from rulepress.progress import current


@dataclass(frozen=True)
class LoadResult:
    """A loaded compendium and what was wrong in its files: loading reports problems, never
    raises them."""

    compendium: Compendium
    findings: tuple[Finding, ...]


def load_compendium(
    root: Path | str, cache: DocumentCache | None = None, settings: Path | None = None
) -> LoadResult:
    """Read every ruleset under `root`, and the publisher's settings: the file `settings`,
    else `rulepress.yaml` beside `root` if there is one. Problems in files become
    findings, never exceptions; a root that is missing or not a folder raises
    RulepressError. With a `cache`, a file whose bytes loaded cleanly before is not
    parsed again."""
    return read_compendium(Path(root), cache, settings).result(cache)


def read_compendium(
    root: Path, cache: DocumentCache | None = None, settings: Path | None = None
) -> LoadedFiles:
    """Read the settings and every ruleset folder under `root`, file by file: what
    load_compendium assembles, and what a live compendium keeps and updates."""
    if not root.exists():
        raise RulepressError(f"compendium folder not found: {root}")
    if not root.is_dir():
        raise RulepressError(f"compendium path is not a folder: {root}")
    _refuse_a_root_leading_out(root)
    # a file named on the command line must exist; the one beside the compendium may not
    publisher, findings = load_settings(
        settings_file(root, settings), required=settings is not None
    )
    return load_files(root, cache, publisher, findings)


def _refuse_a_root_leading_out(root: Path) -> None:
    """A compendium folder named relative to the working folder (a checkout, in CI) is
    reached inside it, as every file inside the compendium is: a `compendium` committed
    as a link to `/` or to the runner's home is refused, never walked. An absolute path,
    or one that climbs out with `..`, names a place the user chose."""
    if root.is_absolute() or root.parts[:1] == (os.pardir,):
        return
    try:
        inside(os.curdir, root, name="the working folder")
    except OutsideRepository as outside:
        raise RulepressError(f"compendium folder {root} {outside} (a link); refused") from None


@dataclass(frozen=True)
class FileLoad:
    """What one document file gave: its entry, or the findings that say why it has none."""

    entry: Entry | None
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class RulesetFiles:
    """One ruleset folder as read: `ruleset.yaml`, what the walk of the folder refused,
    and each document file (in the walk's order) with what it gave. A live compendium
    keeps these between edits and replaces only the files that changed."""

    folder: Path
    info: FileLoad | None
    """`ruleset.yaml` (None: a link leaving the compendium, which the walk reports)."""
    walk_findings: tuple[Finding, ...]
    files: dict[Path, FileLoad]

    @functools.cached_property
    def assembled(self) -> tuple[Ruleset | None, tuple[Finding, ...]]:
        """The ruleset of the files that loaded (None without a valid `ruleset.yaml`),
        and every finding of the folder's files, `ruleset.yaml`'s first. Assembled once:
        an update that leaves the folder alone keeps the same Ruleset."""
        findings = list(self.info.findings) if self.info else []
        findings += self.walk_findings
        for load in self.files.values():
            findings += load.findings
        return self._ruleset(findings), tuple(findings)

    def _ruleset(self, findings: list[Finding]) -> Ruleset | None:
        info_entry = self.info.entry if self.info else None
        if info_entry is None:
            return None
        if not isinstance(info_entry.document, RulesetInfo):
            findings.append(
                finding_at(
                    info_entry.source,
                    Code.INVALID_VALUE,
                    Level.ERROR,
                    f"{RULESET_FILE} must hold `kind: ruleset`",
                    ("kind",),
                )
            )
            return None
        loaded = [load.entry for load in self.files.values() if load.entry is not None]
        return Ruleset(
            info=info_entry.document,
            folder=self.folder,
            info_source=info_entry.source,
            entries=tuple(e for e in loaded if not isinstance(e.document, Translation)),
            info_digest=info_entry.digest,
            translations=tuple(e for e in loaded if isinstance(e.document, Translation)),
        )

    def reloaded(
        self, root: Path, changed: set[Path], cache: DocumentCache | None, *, rescan: bool
    ) -> RulesetFiles:
        """The folder with the `changed` files read again, the others kept; with `rescan`
        the folder is walked again first (a file added, removed or moved)."""
        if not rescan:
            files = dict(self.files)
            for path in changed:
                files[path] = load_document_file(root, path, cache)
            return RulesetFiles(self.folder, self.info, self.walk_findings, files)
        walk_findings: list[Finding] = []
        files = {}
        for path in ruleset_document_files(root, self.folder, walk_findings):
            known = self.files.get(path)
            files[path] = (
                known
                if known is not None and path not in changed
                else load_document_file(root, path, cache)
            )
        return RulesetFiles(self.folder, self.info, tuple(walk_findings), files)


@dataclass(frozen=True)
class LoadedFiles:
    """A compendium folder as read, file by file, before the rulesets are assembled: what
    a whole load gives, and what an incremental one (rulepress.live) updates."""

    root: Path
    settings: PublisherSettings
    settings_findings: tuple[Finding, ...]
    folder_findings: tuple[Finding, ...]
    """What the look for ruleset folders refused (documents outside any ruleset, links)."""
    rulesets: tuple[RulesetFiles, ...]

    def result(self, cache: DocumentCache | None = None) -> LoadResult:
        """The compendium of the files that loaded, and every finding of the load."""
        findings = [*self.settings_findings, *self.folder_findings]
        rulesets: dict[str, Ruleset] = {}
        for files in self.rulesets:
            ruleset, found = files.assembled
            findings += found
            if ruleset is None:
                continue
            if ruleset.id in rulesets:
                findings.append(
                    finding_at(
                        ruleset.info_source,
                        Code.INVALID_VALUE,
                        Level.ERROR,
                        f"ruleset id '{ruleset.id}' is already used by "
                        f"{rulesets[ruleset.id].folder}",
                        ("id",),
                    )
                )
                continue
            rulesets[ruleset.id] = ruleset
        compendium = Compendium(
            self.root, MappingProxyType(rulesets), document_cache=cache, settings=self.settings
        )
        return LoadResult(compendium, tuple(findings))


def load_files(
    root: Path,
    cache: DocumentCache | None,
    settings: PublisherSettings,
    settings_findings: list[Finding],
) -> LoadedFiles:
    """Read every ruleset folder under `root`, file by file (see load_compendium)."""
    folder_findings: list[Finding] = []
    is_ruleset = os.path.lexists(root / RULESET_FILE)  # whatever it is: a pipe is reported
    folders = [root] if is_ruleset else ruleset_folders(root, folder_findings)
    # a cache that holds documents from earlier (a rebuild): few files are to be parsed
    processes = 1 if cache is not None and cache.holds_any() else None
    rulesets = tuple(read_ruleset_folder(root, folder, cache, processes) for folder in folders)
    if cache is not None:
        cache.save()
    return LoadedFiles(root, settings, tuple(settings_findings), tuple(folder_findings), rulesets)


def read_ruleset_folder(
    root: Path, folder: Path, cache: DocumentCache | None, processes: int | None = None
) -> RulesetFiles:
    """Read one ruleset folder: its `ruleset.yaml` and every document file below it, the
    latter in `processes` processes, else in as many as pay (rulepress.compendium.parallel)."""
    leaves = link_leaving(folder / RULESET_FILE, root)  # the walk below reports it
    info = None
    if not leaves:
        info_findings: list[Finding] = []
        info_entry = _load_document(root, folder / RULESET_FILE, info_findings, cache)
        info = FileLoad(info_entry, tuple(info_findings))
    walk_findings: list[Finding] = []
    paths = ruleset_document_files(root, folder, walk_findings)
    with current().bar(f"loading {folder.name}", len(paths)) as step:  # on a terminal
        read = partial(load_document_file, root, cache=cache)
        loads = read_all(paths, read, step, processes=processes)
        for load in loads if cache is not None else ():  # a worker's, for this cache to save
            if load.entry is not None:
                cache.keep(load.entry.digest, load.entry.document)
    return RulesetFiles(folder, info, tuple(walk_findings), dict(zip(paths, loads, strict=True)))


def load_document_file(root: Path, path: Path, cache: DocumentCache | None) -> FileLoad:
    """One document file of a ruleset (not its `ruleset.yaml`) below the compendium
    `root`, read and validated."""
    findings: list[Finding] = []
    entry = _load_document(root, path, findings, cache)
    if entry is not None and isinstance(entry.document, RulesetInfo):
        findings.append(
            finding_at(
                entry.source,
                Code.INVALID_VALUE,
                Level.ERROR,
                f"only {RULESET_FILE} may hold the ruleset document",
                ("kind",),
            )
        )
        entry = None
    return FileLoad(entry, tuple(findings))


def _load_document(
    root: Path, path: Path, findings: list[Finding], cache: DocumentCache | None
) -> Entry | None:
    try:
        # inside the compendium, never in a .git; a pipe, a device or a huge file unread
        raw = read_inside(root, os.path.relpath(path, root), name="the compendium")
        key = digest(raw)
        cached = cache.get(key) if cache is not None else None
        if cached is not None:  # these bytes loaded cleanly before, so they decode
            return Entry(cached, SourceMap(path, text=decode_utf8(raw)), key)
        data, source = parse_yaml(decode_utf8(raw), path, positions=False)
    except OutsideRepository as outside:
        findings.append(refused(path, f"{outside}; refused"))
        return None
    except OSError as exc:
        findings.append(
            file_problem(path, Code.UNREADABLE, f"cannot read file: {exc.strerror or exc}")
        )
        return None
    except YamlProblem as problem:
        findings.append(file_problem(path, problem.code, problem.message, problem.position))
        return None
    if not isinstance(data, dict):
        findings.append(
            finding_at(
                source,
                Code.NOT_A_MAPPING,
                Level.ERROR,
                f"a document must be a mapping with a `kind`, not a {type_name(data)}",
            )
        )
        return None
    kind = data.get("kind")
    model = kinds.models().get(kind) if isinstance(kind, str) else None
    if model is None:
        findings.append(_unknown_kind(source, kind))
        return None
    document, problems = validated(kind, data, source)
    if document is None:
        findings.extend(problems)
        return None
    if cache is not None:
        cache.keep(key, document)
    return Entry(document, source, key)


def _unknown_kind(source: SourceMap, kind: object) -> Finding:
    if kind is None:
        return finding_at(source, Code.MISSING_FIELD, Level.ERROR, "missing field 'kind'")
    hint = suggest(str(kind), kinds.models())
    known = ", ".join(sorted(kinds.models()))
    return finding_at(
        source,
        Code.UNKNOWN_KIND,
        Level.ERROR,
        f"unknown kind {kind!r}{hint}; known kinds: {known} (a kind from another "
        "package is known once that package is installed)",
        ("kind",),
    )
