"""Acknowledged findings: known problems of the source, kept on purpose, with a reason.

An acknowledgement sits in the document it concerns (`acknowledged:`, see
`rulepress.models.base.Acknowledgement`) and matches ONE finding: of its code, in its
document's file, at its data path when `at` is given. Matched findings stay findings,
flagged `acknowledged` with the reason; an acknowledgement that matches none is itself a
finding (RP011), so a fixed problem does not leave its excuse behind.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from rulepress.compendium.model import Compendium, Entry, Ruleset
from rulepress.errors import Code, Finding, Level, data_path_text
from rulepress.validators.registry import registered_checks


def apply_acknowledgements(compendium: Compendium, findings: list[Finding]) -> list[Finding]:
    """`findings` with the acknowledged ones flagged, and a stale-acknowledgement finding
    for each acknowledgement that matched nothing. Each finding is acknowledged at most
    once, so two acknowledgements are needed for two findings."""
    result = list(findings)
    by_file: dict[Path, list[int]] = {}
    for index, finding in enumerate(result):
        if finding.file is not None:
            by_file.setdefault(finding.file, []).append(index)
    stale: list[Finding] = []
    unread = _files_not_loaded(findings)
    for ruleset in compendium:
        # a file that did not load takes the cross-document findings about it along: an
        # acknowledgement is only stale once its whole ruleset has loaded
        complete = not any(file.is_relative_to(ruleset.folder) for file in unread)
        for entry in _documents(ruleset):
            for number, acknowledgement in enumerate(entry.document.acknowledged):
                index = _match(result, by_file.get(entry.file, []), acknowledgement)
                if index is None:
                    if complete:
                        stale.append(_stale(entry, number, acknowledgement))
                else:
                    result[index] = replace(
                        result[index], acknowledged=True, reason=acknowledgement.reason
                    )
    return result + stale


def _files_not_loaded(findings: list[Finding]) -> set[Path]:
    """The files whose reading or model validation failed: errors of no check (RP0xx,
    RP1xx, or a plugin's code its model's validator gave)."""
    checked = {c.code for c in registered_checks()}
    return {
        f.file
        for f in findings
        if f.file is not None and f.level == Level.ERROR and f.code not in checked
    }


def _documents(ruleset: Ruleset) -> Iterator[Entry]:
    """Every document that may acknowledge findings: the ruleset's `ruleset.yaml` and its
    translations too."""
    yield Entry(ruleset.info, ruleset.info_source)
    yield from ruleset.entries
    yield from ruleset.translations


def _match(findings: list[Finding], candidates: list[int], acknowledgement) -> int | None:
    """The first finding not yet acknowledged of the acknowledgement's code (at its place,
    when given). Errors are never acknowledged: a document with one cannot be built."""
    for index in candidates:
        finding = findings[index]
        if (
            finding.acknowledged
            or finding.level == Level.ERROR
            or finding.code != acknowledgement.code
        ):
            continue
        if acknowledgement.at and data_path_text(finding.path) != acknowledgement.at:
            continue
        return index
    return None


def _stale(entry: Entry, number: int, acknowledgement) -> Finding:
    position = entry.position(("acknowledged", number))
    place = f" at {acknowledgement.at}" if acknowledgement.at else ""
    return Finding(
        Level.WARNING,
        Code.STALE_ACKNOWLEDGEMENT,
        f"acknowledgement of {acknowledgement.code}{place} matches no finding "
        "(the problem is fixed or moved): remove or update it",
        entry.file,
        position.line,
        position.col,
        path=("acknowledged", number),
    )
