"""A compendium kept in memory between edits: what `build --watch` and `serve` update.

`LiveCompendium` holds the last good `Validation` of a compendium folder. `update` is
told which files changed on disk, validates the compendium as it now stands, and, when
that has no errors, takes it as the new state and says what changed (`Changes`), so
that an output re-renders only what the changed documents feed. A compendium with
errors never replaces the state: the outputs keep the last good one while the findings
are printed.

An update reads only the files it is told of, through the loader's own functions
(compendium.loader.LoadedFiles: what every file gave, kept apart from the last good
compendium, so a broken file is read again once fixed), and runs each check on what its
declared scope says the edit may have changed (validators.incremental). A new or
removed ruleset folder, a changed `ruleset.yaml`, settings file or file the settings
name, or a path it cannot place, reloads everything: slower, as correct. Its findings
are those `validate` gives for the same files.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rulepress.compendium.cache import DocumentCache
from rulepress.compendium.loader import LoadedFiles, RulesetFiles, read_compendium
from rulepress.compendium.model import Compendium, Entry, Ruleset
from rulepress.compendium.settings import settings_file
from rulepress.compendium.walk import RULESET_FILE, YAML_SUFFIXES
from rulepress.errors import Finding
from rulepress.validation import Validation, conclude
from rulepress.validators.incremental import (
    RulesetChecks,
    check_whole,
    combined_findings,
    recheck,
)


@dataclass(frozen=True)
class Changes:
    """What one update changed, by ruleset id: what an output needs to re-render."""

    previous: Compendium
    current: Compendium
    documents: dict[str, frozenset[str]] = field(default_factory=dict)
    """Ruleset id -> ids of its documents added, changed (other bytes or another file)
    or removed. Only rulesets in both compendiums and not in `rulesets` are listed."""
    rulesets: frozenset[str] = frozenset()
    """Ruleset ids to re-render whole: added, removed, or whose ruleset.yaml changed."""
    settings: bool = False
    """The publisher's settings (or a file they name) changed: re-render everything."""

    @property
    def empty(self) -> bool:
        """Nothing an output shows changed (a file saved with the same bytes)."""
        return not (self.documents or self.rulesets or self.settings)


@dataclass(frozen=True)
class Update:
    """The result of one `LiveCompendium.update`."""

    attempt: Validation
    """The compendium as the files now stand, with every finding (errors included)."""
    changes: Changes | None
    """What changed, when the attempt had no errors and became the state; else None."""
    phases: dict[str, float] = field(default_factory=dict, compare=False)
    """Seconds spent reading ("read"), checking ("checks") and comparing ("compare"),
    for the benchmark; `whole` tells whether everything was read again."""
    whole: bool = False
    """Whether the update reloaded the whole compendium (see the module's docstring)."""

    @property
    def ok(self) -> bool:
        """The files on disk validate, and the outputs may follow them."""
        return self.attempt.ok

    @property
    def findings(self) -> tuple[Finding, ...]:
        """The attempt's findings (acknowledged ones among them, flagged)."""
        return self.attempt.findings


class LiveCompendium:
    """The last good validation of a compendium folder, updated edit by edit."""

    def __init__(
        self, root: Path | str, *, settings: Path | None = None, strict: bool = False
    ) -> None:
        """Load and check the compendium once, whatever it finds: the first state."""
        self.root = Path(root)
        self.settings_path = settings
        self.strict = strict
        self.cache = DocumentCache(self.root)
        self._files = read_compendium(self.root, self.cache, settings)
        self._checks: dict[str, RulesetChecks] = {}
        self.validation = self._conclude()
        """The last validation without errors (the first one, whatever it found)."""

    def update(self, paths: Iterable[Path] = ()) -> Update:
        """Take the compendium as it now stands, `paths` being the files changed since the
        last update (created, modified, deleted or moved: both names; a folder: whatever
        is below it). The state changes only if the compendium has no errors."""
        started = time.perf_counter()
        files = self._reread([Path(p) for p in paths])
        whole = files is None
        self._files = read_compendium(self.root, self.cache, self.settings_path) if whole else files
        read = time.perf_counter()
        attempt = self._conclude()
        checked = time.perf_counter()
        if not attempt.ok:
            phases = {"read": read - started, "checks": checked - read, "compare": 0.0}
            return Update(attempt, None, phases, whole)
        changes = compare(self.validation.compendium, attempt.compendium)
        self.validation = attempt
        phases = {
            "read": read - started,
            "checks": checked - read,
            "compare": time.perf_counter() - checked,
        }
        return Update(attempt, changes, phases, whole)

    def _conclude(self) -> Validation:
        """The validation of the files as they stand, each ruleset's checks run again on
        what changed since the last update (whole for a ruleset new to them)."""
        loaded = self._files.result(self.cache)
        checks = {}
        for ruleset in loaded.compendium:
            previous = self._checks.get(ruleset.id)
            checks[ruleset.id] = (
                check_whole(ruleset) if previous is None else recheck(previous, ruleset)
            )
        self._checks = checks
        findings = combined_findings(list(checks.values()))
        return conclude(loaded.compendium, loaded.findings, findings, self.strict)

    def _reread(self, paths: list[Path]) -> LoadedFiles | None:
        """The files with `paths` read again; None when only a whole reload will do."""
        settings = os.path.abspath(settings_file(self.root, self.settings_path))
        named = {os.path.abspath(p) for p in self._files.settings.asset_digests()}
        root = os.path.abspath(self.root)
        edits: dict[int, tuple[set[Path], bool]] = {}
        for path in paths:
            absolute = os.path.abspath(path)
            if absolute == settings or absolute in named:
                return None
            relative = os.path.relpath(absolute, root)
            if relative == os.curdir:
                return None
            if relative.startswith(os.pardir) or any(
                part.startswith(".") for part in Path(relative).parts[:-1]
            ):
                continue  # outside the compendium, or below a folder the loader never enters
            placed = self._place(Path(relative))
            if placed is None and self._unread(Path(relative)):
                continue
            if placed is None:
                return None
            number, local, rescan = placed
            if local is None:
                continue
            changed, rescanned = edits.setdefault(number, (set(), False))
            edits[number] = (changed | {local}, rescanned or rescan)
        if not edits:
            return self._files
        rulesets = list(self._files.rulesets)
        for number, (changed, rescan) in edits.items():
            folder = rulesets[number]
            rulesets[number] = folder.reloaded(self.root, changed, self.cache, rescan=rescan)
        return LoadedFiles(
            self._files.root,
            self._files.settings,
            self._files.settings_findings,
            self._files.folder_findings,
            tuple(rulesets),
        )

    def _unread(self, relative: Path) -> bool:
        """Whether a path in no ruleset folder is one the loader never looks at: an entry
        beside the ruleset folders that cannot change the look for them (see
        _leaves_the_walk_alone)."""
        path = self.root / relative
        return (
            len(relative.parts) == 1
            and all(files.folder != path for files in self._files.rulesets)
            and _leaves_the_walk_alone(path, (), self._files.folder_findings)
        )

    def _place(self, relative: Path) -> tuple[int, Path | None, bool] | None:
        """(which ruleset folder, the file as the loader names it (None: nothing the
        loader reads), whether the folder must be walked again) for a changed path under
        the root; None when it is in no known ruleset folder or is its ruleset.yaml."""
        for number, files in enumerate(self._files.rulesets):
            try:
                inside = (self.root / relative).relative_to(files.folder)
            except ValueError:
                continue
            if inside == Path() or inside == Path(RULESET_FILE):
                return None
            local = files.folder / inside
            return (number, *_file_edit(files, local))
        return None


def _file_edit(files: RulesetFiles, local: Path) -> tuple[Path | None, bool]:
    """How one changed path of a ruleset folder is taken: (the file to read again, or None
    for a path the loader never reads; whether the folder must be walked again)."""
    if local in files.files and local.is_file() and not local.is_symlink():
        return local, False  # a document saved again
    if _leaves_the_walk_alone(local, files.files, files.walk_findings):
        return None, False  # an editor's backup or temporary file
    return local, True  # created, deleted, moved, a link, or a folder


def _leaves_the_walk_alone(path: Path, known: Iterable[Path], refused: Iterable[Finding]) -> bool:
    """Whether an entry created, deleted or moved at `path` leaves the last walk's result
    as it was. The walk reads only visible YAML names and looks only into folders (a link
    to one it reports when it leads out); so an entry counts unless its name is one the
    walk skips, it is no folder now (not even through a link), and nothing the last walk
    found (`known` files) or refused (`refused`: a link, a name that is not UTF-8) lies at
    or below it, which is how its removal is seen whatever its name."""
    skipped = path.name.startswith(".") or not path.name.endswith(YAML_SUFFIXES)
    if not skipped or path.is_dir():
        return False
    name = os.fspath(path)
    below = name + os.sep  # compared as text: Path.is_relative_to costs 30 times more

    def under(file: Path) -> bool:
        text = os.fspath(file)
        return text == name or text.startswith(below)

    return not any(under(file) for file in known) and not any(
        f.file is not None and under(f.file) for f in refused
    )


def compare(previous: Compendium, current: Compendium) -> Changes:
    """What differs between two loads of a compendium, document by document."""
    settings = (
        previous.settings.settings != current.settings.settings
        or previous.settings.asset_digests() != current.settings.asset_digests()
    )
    rulesets = set(previous.rulesets) ^ set(current.rulesets)
    documents = {}
    for ruleset_id in set(previous.rulesets) & set(current.rulesets):
        before, after = previous.rulesets[ruleset_id], current.rulesets[ruleset_id]
        if (
            before.info_digest != after.info_digest
            or before.folder != after.folder
            or _signatures(before.translations) != _signatures(after.translations)
        ):  # a translation feeds every edition of its language: the ruleset is redone
            rulesets.add(ruleset_id)
            continue
        changed = _changed_documents(before, after)
        if changed:
            documents[ruleset_id] = changed
    return Changes(previous, current, documents, frozenset(rulesets), settings)


def _signatures(entries: Iterable[Entry]) -> dict[str, tuple[str, Path]]:
    return {e.document.id: (e.digest, e.file) for e in entries}


def _changed_documents(before: Ruleset, after: Ruleset) -> frozenset[str]:
    signatures = _signatures

    if len(before.entries) == len(after.entries):  # an entry kept is the same object
        pairs = [(a, b) for a, b in zip(before.entries, after.entries, strict=True) if a is not b]
        if all(a.document.id == b.document.id for a, b in pairs):
            old, new = signatures(a for a, _ in pairs), signatures(b for _, b in pairs)
            return frozenset(i for i in old if old[i] != new[i])
    old, new = signatures(before.entries), signatures(after.entries)
    return frozenset(i for i in old.keys() | new.keys() if old.get(i) != new.get(i))
