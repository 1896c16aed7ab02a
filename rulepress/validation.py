"""Validation as a library call: load a compendium, run every check, keep the findings.

The CLI (`rulepress validate`, `build`, `serve`) and the public API (`rulepress.validate`)
both use it, so it lives below both."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from rulepress.compendium.cache import DocumentCache
from rulepress.compendium.loader import load_compendium
from rulepress.compendium.model import Compendium
from rulepress.errors import Finding, Level
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
    loaded = load_compendium(root, cache or None, settings)
    return conclude(loaded.compendium, loaded.findings, run_checks(loaded.compendium), strict)


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
