"""Validation as a library call: load a compendium, run every check, keep the findings.

The CLI (`rulepress validate`, `build`, `serve`) and the public API (`rulepress.validate`)
both use it, so it lives below both."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from rulepress.compendium.cache import DocumentCache
from rulepress.compendium.loader import LoadedFiles, LoadResult, read_compendium
from rulepress.compendium.model import Compendium
from rulepress.errors import Finding, Level
from rulepress.progress import current
from rulepress.validators import apply_acknowledgements, run_checks


@dataclass(frozen=True)
class Validation:
    """A loaded compendium with its findings, sorted by file and position. Acknowledged
    findings are among them, flagged, and counted apart from the others."""

    compendium: Compendium
    """What was loaded: complete when `ok`, and what could be read when not."""
    findings: tuple[Finding, ...]
    """Every finding, each with its place (`where()`), code, level and message."""

    def count(self, level: Level) -> int:
        """The number of findings of one level, acknowledged ones left out."""
        return sum(1 for f in self.findings if f.level == level and not f.acknowledged)

    @property
    def acknowledged(self) -> int:
        """The number of acknowledged findings (known problems of the source)."""
        return sum(1 for f in self.findings if f.acknowledged)

    @property
    def ok(self) -> bool:
        """No errors, so the compendium may be built (`strict` has made warnings errors)."""
        return self.count(Level.ERROR) == 0

    def summary(self) -> str:
        """The count of findings by level (`0 errors, 2 warnings, 1 info`), the
        acknowledged ones counted apart when there are any."""
        counts = [
            f"{self.count(level)} {level}{'s' if self.count(level) != 1 else ''}" for level in Level
        ]
        if self.acknowledged:
            counts.append(f"{self.acknowledged} acknowledged")
        return ", ".join(counts).replace("infos", "info")


def validate(
    root: Path | str,
    *,
    strict: bool = False,
    cache: bool | DocumentCache = False,
    settings: Path | None = None,
) -> Validation:
    """Load and check a compendium. Cross-document checks run only on files that loaded,
    so one broken file does not hide the problems of the others. With `cache`, files
    that loaded cleanly before are taken from the document cache (see compendium.cache):
    True for the folder's own, or a given one (a git revision's copy of a compendium
    loads through the working tree's). `settings` names the publisher's settings file
    (default: rulepress.yaml beside `root`). The documents' acknowledgements flag the
    findings they match before `strict` makes warnings errors."""
    if cache is True:
        cache = DocumentCache(Path(root))
    progress = current()  # each stage says when it ends, if a command speaks
    with progress.stage("load") as stage:
        files = read_compendium(Path(root), cache or None, settings)
        loaded = files.result(cache or None)
        stage.result, stage.details = _load_said(files, loaded)
    with progress.stage("checks") as stage:
        checked = run_checks(loaded.compendium)
        validation = conclude(loaded.compendium, loaded.findings, checked, strict)
        stage.result, stage.details = validation.summary(), _codes_said(validation)
    return validation


def _load_said(files: LoadedFiles, loaded: LoadResult) -> tuple[str, list[str]]:
    """The load's line (documents loaded, files read) and its detail, ruleset by ruleset."""
    details = []
    for folder in files.rulesets:
        ruleset, findings = folder.assembled
        documents = 0 if ruleset is None else 1 + len(ruleset.entries)
        read = len(folder.files) + (folder.info is not None)
        details.append(
            f"{folder.folder}: {documents:,} documents from {read:,} files, "
            f"{len(findings):,} findings"
        )
    documents = sum(1 + len(ruleset.entries) for ruleset in loaded.compendium)
    translations = sum(len(ruleset.translations) for ruleset in loaded.compendium)
    read = sum(len(folder.files) + (folder.info is not None) for folder in files.rulesets)
    also = f" and {translations:,} translations" if translations else ""
    return f"{documents:,} documents{also} from {read:,} files", details


def _codes_said(validation: Validation) -> list[str]:
    """The checks' detail: how many findings of each code (acknowledged ones included)."""
    counts: dict[str, int] = {}
    for finding in validation.findings:
        key = f"{finding.code} {finding.name} ({finding.level})"
        counts[key] = counts.get(key, 0) + 1
    return [f"{count:,} {key}" for key, count in sorted(counts.items())]


def conclude(
    compendium: Compendium,
    load_findings: tuple[Finding, ...],
    check_findings: list[Finding],
    strict: bool,
) -> Validation:
    """The validation of a loaded compendium from its load's and its checks' findings:
    acknowledgements applied, `strict` making warnings errors, sorted. A live update
    (rulepress.live) ends here too, so its findings are those of `validate`."""
    findings = apply_acknowledgements(compendium, [*load_findings, *check_findings])
    if strict:  # an acknowledged finding never fails --strict
        findings = [
            replace(f, level=Level.ERROR) if f.level == Level.WARNING and not f.acknowledged else f
            for f in findings
        ]
    findings.sort(key=Finding.sort_key)
    errata = tuple(f for f in findings if f.acknowledged)
    return Validation(replace(compendium, errata=errata), tuple(findings))
