"""A compendium kept in memory between edits: what `build --watch` and `serve` update.

`LiveCompendium` holds the last good `Validation` of a compendium folder. `update` is
told which files changed on disk, validates the compendium as it now stands, and, when
that has no errors, takes it as the new state and says what changed (`Changes`), so
that an output re-renders only what the changed documents feed. A compendium with
errors never replaces the state: the outputs keep the last good one while the findings
are printed, and the next update starts again from the files on disk.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rulepress.compendium.cache import DocumentCache
from rulepress.compendium.model import Compendium, Ruleset
from rulepress.errors import Finding
from rulepress.validation import Validation, validate


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

    def whole(self, ruleset_id: str) -> bool:
        """Whether `ruleset_id` must be re-rendered whole, not document by document."""
        return self.settings or ruleset_id in self.rulesets


@dataclass(frozen=True)
class Update:
    """The result of one `LiveCompendium.update`."""

    attempt: Validation
    """The compendium as the files now stand, with every finding (errors included)."""
    changes: Changes | None
    """What changed, when the attempt had no errors and became the state; else None."""

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
        self.validation = self._validate()
        """The last validation without errors (the first one, whatever it found)."""

    def _validate(self) -> Validation:
        return validate(
            self.root, strict=self.strict, cache=self.cache, settings=self.settings_path
        )

    def update(self, paths: Iterable[Path] = ()) -> Update:
        """Take the compendium as it now stands, `paths` being the files changed since the
        last update (created, modified, deleted or moved: both names). The state changes
        only if the compendium has no errors."""
        del paths  # every file is read again through the document cache, for now
        attempt = self._validate()
        if not attempt.ok:
            return Update(attempt, None)
        changes = compare(self.validation.compendium, attempt.compendium)
        self.validation = attempt
        return Update(attempt, changes)


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
        if before.info_digest != after.info_digest or before.folder != after.folder:
            rulesets.add(ruleset_id)
            continue
        changed = _changed_documents(before, after)
        if changed:
            documents[ruleset_id] = changed
    return Changes(previous, current, documents, frozenset(rulesets), settings)


def _changed_documents(before: Ruleset, after: Ruleset) -> frozenset[str]:
    def signatures(ruleset: Ruleset) -> dict[str, tuple[str, Path]]:
        return {e.document.id: (e.digest, e.file) for e in ruleset.entries}

    old, new = signatures(before), signatures(after)
    return frozenset(i for i in old.keys() | new.keys() if old.get(i) != new.get(i))
