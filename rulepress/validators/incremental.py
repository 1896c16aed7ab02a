"""The checks run again after an edit on what their scope says may have changed.

Each check declares what its findings depend on (`reads` and `index`, see
registry.READS). After an edit, `recheck` keeps a check's reports about unchanged
documents and runs it on the changed ones only ("document"), on the documents of the
groups an edited document was or is in ("group"), or not at all when no changed
document's index changed ("ruleset" with an index); otherwise it runs the check whole.
The reports come out in the order a whole run gives them file by file, so grouping,
acknowledgements and sorting give what `validate` gives.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path

from rulepress.compendium.model import TRANSLATION_CODES, Entry, Ruleset
from rulepress.errors import Finding
from rulepress.validators.grouping import group_placeholder_findings
from rulepress.validators.registry import (
    Check,
    Report,
    group_of,
    placeholder_symptoms,
    registered_checks,
)
from rulepress.validators.shared import one_run

Reported = dict[Path, tuple[tuple[Report, Finding], ...]]
"""A check's reports in one ruleset by file, each with the finding it makes, in the
order the check yields them for that file (the only order grouping, acknowledgements
and the final sort depend on)."""


@dataclass(frozen=True)
class RulesetChecks:
    """Every check's reports in one ruleset: what a live compendium keeps between edits."""

    ruleset: Ruleset
    reports: dict[str, Reported]
    """Check code -> its reports."""
    rerun: dict[str, str]
    """Check code -> how it ran last: "whole", "changed" (some documents) or "kept"."""

    def findings(self) -> list[Finding]:
        """The checks' findings in code order, as registry.run_checks lists them (files
        perhaps in another order, each file's findings in the same)."""
        return [
            finding
            for code in sorted(self.reports)
            for pairs in self.reports[code].values()
            for _, finding in pairs
        ]


def check_whole(ruleset: Ruleset) -> RulesetChecks:
    """Every check run over the whole ruleset."""
    with one_run():
        reports = {c.code: _run(c, ruleset) for c in registered_checks()}
    return RulesetChecks(ruleset, reports, dict.fromkeys(reports, "whole"))


def combined_findings(checked: list[RulesetChecks]) -> list[Finding]:
    """The findings of every ruleset's checks, placeholders' symptoms grouped."""
    findings = [f for one in checked for f in one.findings()]
    return group_placeholder_findings(findings, placeholder_symptoms())


def recheck(previous: RulesetChecks, ruleset: Ruleset) -> RulesetChecks:
    """The checks of `ruleset`, an edit of `previous.ruleset`, each run on no more than
    its scope says the edit may have changed."""
    old = previous.ruleset
    if old is ruleset:
        return previous
    if old.info_digest != ruleset.info_digest or old.folder != ruleset.folder:
        return check_whole(ruleset)
    edit = _Edit(old, ruleset)
    retranslated = _signatures(old.translations) != _signatures(ruleset.translations)
    if not edit.changed and not retranslated:  # the same bytes saved again: all holds
        return RulesetChecks(ruleset, previous.reports, dict.fromkeys(previous.reports, "kept"))
    reports, rerun = {}, {}
    with one_run():
        _recheck_each(edit, previous, ruleset, retranslated, reports, rerun)
    return RulesetChecks(ruleset, reports, rerun)


def _recheck_each(
    edit: _Edit, previous: RulesetChecks, ruleset: Ruleset, retranslated: bool, reports, rerun
) -> None:
    """Each check's reports after `edit` into `reports`, how they were found into `rerun`."""
    for registered in registered_checks():
        code = registered.code
        before = previous.reports.get(code)
        if retranslated and code.startswith(TRANSLATION_CODES):  # they read the translations
            reports[code], rerun[code] = _run(registered, ruleset), "whole"
        elif not edit.changed and before is not None:  # no document changed: no other check
            reports[code], rerun[code] = before, "kept"  # reads a translation
        else:
            reports[code], rerun[code] = edit.recheck(registered, before)


def _signatures(entries: tuple[Entry, ...]) -> dict[Path, str]:
    """Each file's digest: what says a translation file was saved with other bytes."""
    return {entry.file: entry.digest for entry in entries}


def _run(registered: Check, ruleset: Ruleset) -> Reported:
    reported: dict[Path, list[tuple[Report, Finding]]] = {}
    for report in registered.reports(ruleset):
        reported.setdefault(report.entry.file, []).append((report, registered.finding(report)))
    return {file: tuple(pairs) for file, pairs in reported.items()}


class _Edit:
    """What changed between two versions of a ruleset, file by file."""

    def __init__(self, old: Ruleset, new: Ruleset) -> None:
        self.new = new
        if len(old.entries) == len(new.entries):  # most edits: entries kept are the same
            pairs = [(a, b) for a, b in zip(old.entries, new.entries, strict=True) if a is not b]
            self.same_files = all(a.file == b.file for a, b in pairs)
        else:
            pairs, self.same_files = [], False
        if self.same_files:
            self.old_entries = {a.file: a for a, _ in pairs}
            self.new_entries = {b.file: b for _, b in pairs}
        else:
            self.old_entries = {e.file: e for e in old.entries}
            self.new_entries = {e.file: e for e in new.entries}
        self.changed = {
            file
            for file in self.old_entries.keys() | self.new_entries.keys()
            if _digest(self.old_entries.get(file)) != _digest(self.new_entries.get(file))
        }

    def index_holds(self, registered: Check) -> bool:
        """No document came or went, and the check's index of each changed one is the same."""
        index = registered.index
        try:
            return (
                index is not None
                and self.same_files
                and all(
                    index(self.old_entries[f].document) == index(self.new_entries[f].document)
                    for f in self.changed
                )
            )
        except Exception:
            if registered.origin == "rulepress":
                raise  # rulepress's own index failing is a bug to report
            return False  # a plugin's index that fails: the check runs whole, as `validate` runs it

    def recheck(self, registered: Check, before: Reported | None) -> tuple[Reported, str]:
        """The check's reports after the edit, and how they were found."""
        if before is None:
            return _run(registered, self.new), "whole"
        if registered.reads == "ruleset":
            kept = self._carried(registered, before) if self.index_holds(registered) else None
            if kept is None:
                return _run(registered, self.new), "whole"
            return kept, "kept"
        if self.new.info_source.file in before:  # a report about the whole ruleset (a
            return _run(registered, self.new), "whole"  # check that failed): none kept
        if registered.reads == "document":
            if registered.index is not None and not self.index_holds(registered):
                return _run(registered, self.new), "whole"
            subset = tuple(e for e in self.new_entries.values() if e.file in self.changed)
            if not self.same_files:  # in file order
                subset = tuple(e for e in self.new.entries if e.file in self.changed)
        else:  # "group"
            subset = self._groups_documents
            if subset is None:  # a plugin's group hook failed: run as `validate` runs it
                return _run(registered, self.new), "whole"
        again = self.changed | {e.file for e in subset}
        reports = {file: pairs for file, pairs in before.items() if file not in again}
        reports.update(_run(registered, self.new.restricted(subset)))
        return reports, "changed"

    def _carried(self, registered: Check, before: Reported) -> Reported | None:
        """The reports kept, those about changed files placed in their new text; None
        when a report's place came from the text itself (a word), not its data path."""
        carried = dict(before)
        for file in self.changed & before.keys():
            entry = self.new_entries[file]
            moved = []
            for report, _ in before[file]:
                if report.at is not None:
                    return None
                report = replace(report, entry=entry)
                moved.append((report, registered.finding(report)))
            carried[file] = tuple(moved)
        return carried

    @functools.cached_property
    def _groups_documents(self) -> tuple[Entry, ...] | None:
        """The documents (drafts too) of every group a changed document was or is in, in
        file order; None when a plugin's `group` hook fails."""
        try:
            groups = {
                group_of(entry.document)
                for file in self.changed
                for entry in (self.old_entries.get(file), self.new_entries.get(file))
                if entry is not None
            } - {None}
            if not groups:
                return ()
            return tuple(e for e in self.new.entries if group_of(e.document) in groups)
        except Exception:
            return None


def _digest(entry: Entry | None) -> str | None:
    return None if entry is None else entry.digest
