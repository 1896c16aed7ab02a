"""`rulepress validate`: report the findings of rulepress.validation as text, JSON or
GitHub workflow commands."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rulepress.commands.github_markdown import fitting, github_text, utf8_bytes
from rulepress.errors import Finding, Level, RulepressError, display_path, printable
from rulepress.validation import Validation

FORMATS = ("text", "json", "github")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def format_findings(
    validation: Validation,
    fmt: str,
    relative_to: Path | None = None,
    *,
    show_acknowledged: bool = False,
    changed: set[Path] | None = None,
) -> str:
    """The findings as `validate` prints them: a line each, JSON, or GitHub annotations.
    Acknowledged findings are left out of text (unless `show_acknowledged`) and GitHub
    output, and always listed, flagged, in JSON. `changed` (resolved paths) limits the
    GitHub annotations to the findings in those files."""
    if fmt == "json":
        return _json_text(_as_json(validation, relative_to))
    open_findings = [f for f in validation.findings if not f.acknowledged]
    if fmt == "github":
        return github_annotations(open_findings, relative_to, changed)
    shown = validation.findings if show_acknowledged else open_findings
    lines = [finding_line(f, relative_to) for f in shown]
    lines += counts_by_code(list(shown))
    lines.append(summary(validation))
    return "\n".join(lines)


def finding_line(finding: Finding, relative_to: Path | None = None) -> str:
    """`path:line:col: level CODE: message`, an acknowledged finding marked with its
    reason. A message quotes data (a key, a name): printed as a path is, one finding one
    line."""
    marked = f" (acknowledged: {finding.reason})" if finding.acknowledged else ""
    return printable(
        f"{finding.where(relative_to)}: {finding.level} {finding.code}{marked}: {finding.message}"
    )


def counts_by_code(findings: list[Finding]) -> list[str]:
    """The findings counted by code, most first: where a long list's weight lies. The
    acknowledged ones (listed with --show-acknowledged) are counted on lines of their own."""
    counts: dict[tuple[str, str, str], int] = {}
    for finding in findings:
        level = f"{finding.level}, acknowledged" if finding.acknowledged else str(finding.level)
        key = (finding.code, finding.name, level)
        counts[key] = counts.get(key, 0) + 1
    if not counts:
        return []
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0][0], item[0][2]))
    return ["", "by code:"] + [
        f"  {count:>4}  {code} {name} ({level})".rstrip() for (code, name, level), count in ordered
    ]


def build_summary(validation: Validation, compendium: Path) -> str:
    """What `build` says of validation: the counts, and how to see the findings (the
    acknowledged ones too, when they are all there is)."""
    import shlex

    text = f"validated: {summary(validation)}"
    folder = shlex.quote(printable(str(compendium)))
    if validation.acknowledged == len(validation.findings) > 0:
        text += f" (to list them: rulepress validate --show-acknowledged {folder})"
    elif validation.findings:
        text += f" (to list them: rulepress validate {folder})"
    return text


def summary(validation: Validation) -> str:
    """The count of findings by level, the last line `validate` prints; the acknowledged
    ones counted apart, when there are any."""
    return validation.summary()


def _relative(path: Path | None, relative_to: Path | None) -> str | None:
    return None if path is None else display_path(path, relative_to)


REPORT_VERSION = 1
"""`validate --format json`'s format version: raised on the same promise as the JSON
export's (docs/json-export.md), never for an addition."""
LevelName = Literal["error", "warning", "info"]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class JsonFinding(_Closed):
    """One finding, acknowledged ones too."""

    level: LevelName
    code: str = Field(pattern="^[A-Z]{2,5}[0-9]{3}$")
    """`RP301`, or a plugin's `ORC001`: the finding codes page lists rulepress's."""
    name: str
    """The check's readable name (`weapon-table-gap`); empty for a code that has none."""
    message: str
    file: str | None
    """The file, relative to the current folder when it lies inside it; null for a
    finding about the whole compendium."""
    line: int | None = Field(ge=1)
    """1-based; null when the finding has no place in the file."""
    col: int | None = Field(ge=1)
    """1-based; null when the finding has no place in the file."""
    acknowledged: bool
    """The document acknowledges the finding as a known problem of the source: it fails
    no run, not even `--strict`."""
    reason: str | None
    """The acknowledgement's reason; null when not acknowledged."""


class JsonCounts(_Closed):
    """The open findings counted by level, and the acknowledged ones apart."""

    error: int = Field(ge=0)
    warning: int = Field(ge=0)
    info: int = Field(ge=0)
    acknowledged: int = Field(ge=0)


class JsonReport(_Closed):
    """What `rulepress validate --format json` prints: the schema (generated by `rulepress
    schema` as validate-report.schema.json) describes the text, not a model to load."""

    model_config = ConfigDict(title="rulepress validate --format json")

    version: Literal[1]
    """The report's format version (docs/json-export.md says what raising it means)."""
    ok: bool
    """No errors: the compendium may be built (`--strict` has made its open warnings errors)."""
    counts: JsonCounts
    findings: list[JsonFinding]
    """Every finding, in the order the text lists them."""


def _as_json(validation: Validation, relative_to: Path | None) -> dict:
    return {
        "version": REPORT_VERSION,
        "ok": validation.ok,
        "counts": {
            **{str(level): validation.count(level) for level in Level},
            "acknowledged": validation.acknowledged,
        },
        "findings": [
            {
                "level": str(f.level),
                "code": f.code,
                "name": f.name,
                "message": f.message,
                "file": _relative(f.file, relative_to),
                "line": f.line,
                "col": f.col,
                "acknowledged": f.acknowledged,
                "reason": f.reason if f.acknowledged else None,
            }
            for f in validation.findings
        ],
    }


def _json_text(data: dict) -> str:
    """Exact JSON. A file name that is not UTF-8 holds lone surrogates, which UTF-8 output
    cannot carry: then every character beyond ASCII is written as a JSON escape."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return json.dumps(data, indent=2) if _SURROGATE.search(text) else text


ANNOTATIONS_PER_LEVEL = 10
"""GitHub shows at most ten annotations of each level per step; more are dropped unseen."""
SUMMARY_BYTES = 1_000_000
"""GitHub drops a step's summary whole past 1 MiB (1,048,576 bytes): it is kept under this."""


def in_files(findings: list[Finding], files: set[Path] | None) -> list[Finding]:
    """The findings in `files` (resolved paths); all of them when `files` is None."""
    if files is None:
        return list(findings)
    return [f for f in findings if f.file is not None and f.file.resolve() in files]


def outside(findings: list[Finding], files: set[Path] | None) -> list[Finding]:
    """The errors not in `files` (resolved paths): what fails the check although a change
    limited to `files` did not touch it. None at all when `files` is None."""
    if files is None:
        return []
    return [
        f
        for f in findings
        if f.level == Level.ERROR and (f.file is None or f.file.resolve() not in files)
    ]


def github_annotations(
    findings: list[Finding], relative_to: Path | None = None, changed: set[Path] | None = None
) -> str:
    """One workflow command per finding, at most ANNOTATIONS_PER_LEVEL of each level, then
    a notice of how many more there are (so none is silently dropped by GitHub). With
    `changed`, the findings in those files, then the errors outside them (without a place:
    they annotate no line of the change), said first by a line GitHub's cap cannot hide,
    since they fail the check too."""
    failing_outside = outside(findings, changed)
    lines = [_outside_line(len(failing_outside))] if failing_outside else []
    shown: dict[Level, int] = {}
    more = 0
    annotated = [(f, True) for f in in_files(findings, changed)]
    for finding, placed in [*annotated, *((f, False) for f in failing_outside)]:
        if shown.get(finding.level, 0) < ANNOTATIONS_PER_LEVEL:
            shown[finding.level] = shown.get(finding.level, 0) + 1
            lines.append(_github(finding, relative_to, placed))
        else:
            more += 1
    if more:
        lines.append(
            f"::notice title=rulepress::{more} more finding{'s' if more != 1 else ''} not "
            f"annotated (GitHub shows {ANNOTATIONS_PER_LEVEL} per level in a step): the step "
            "summary or `rulepress validate` lists them all"
        )
    return "\n".join(lines)


def _outside_line(count: int) -> str:
    return f"::error title=rulepress::{_outside_words(count)}: annotated without a place"


def _outside_words(count: int) -> str:
    one = count == 1
    return (
        f"{count} error{'' if one else 's'} {'is' if one else 'are'} in files this change "
        f"does not touch ({'it fails' if one else 'they fail'} the check too)"
    )


def step_summary(
    validation: Validation,
    findings: list[Finding],
    relative_to: Path | None = None,
    *,
    changed: set[Path] | None = None,
    room: int = SUMMARY_BYTES,
) -> str:
    """The findings as a Markdown table for $GITHUB_STEP_SUMMARY, with the counts; with
    `changed`, how many errors are outside those files. At most `room` bytes: the rows
    past it are cut, and counted by level on a line that says where all of them are."""
    lines = ["## rulepress validate", "", summary(validation), ""]
    if failing_outside := outside(findings, changed):
        lines += [f"{_outside_words(len(failing_outside))}.", ""]
    if not findings:
        return "\n".join([*lines, "No findings.", ""])
    lines += ["| Level | Code | Where | Message |", "| --- | --- | --- | --- |"]
    head = "\n".join(lines) + "\n"
    rows = (_row(f, relative_to) + "\n" for f in findings)
    kept = fitting(rows, room - utf8_bytes(head) - _CUT_ROOM, utf8_bytes)
    text = head + "".join(kept)
    return text + _cut_line(findings[len(kept) :]) if len(kept) < len(findings) else text


_CUT_ROOM = 400
"""The most bytes the line saying what was cut takes, with the table's headings."""


def _row(finding: Finding, relative_to: Path | None) -> str:
    cells = (
        str(finding.level),
        f"{finding.code} {finding.name}".strip(),
        finding.where(relative_to),
        finding.message,
    )
    return "| " + " | ".join(github_text(cell) for cell in cells) + " |"


def _cut_line(cut: list[Finding]) -> str:
    counts = {level: sum(f.level == level for f in cut) for level in Level}
    by_level = ", ".join(
        f"{n} {level}{'s' if n != 1 and level != Level.INFO else ''}"
        for level, n in counts.items()
        if n
    )
    return (
        f"\n**{len(cut)} more findings not shown** ({by_level}): GitHub drops a step summary "
        "over 1 MiB. `rulepress validate` lists every finding (`--format json` for tools).\n"
    )


def write_step_summary(
    summary_file: Path,
    validation: Validation,
    relative_to: Path | None = None,
    changed: set[Path] | None = None,
) -> None:
    """Append the step summary to GitHub's $GITHUB_STEP_SUMMARY file, as GitHub expects:
    every finding not acknowledged, also those of files `--changed-since` did not
    annotate (a change can break a file it does not touch, by a reference), within what
    the step's earlier summary left of SUMMARY_BYTES."""
    findings = [f for f in validation.findings if not f.acknowledged]
    try:
        written = summary_file.stat().st_size if summary_file.exists() else 0
        text = step_summary(
            validation, findings, relative_to, changed=changed, room=SUMMARY_BYTES - written
        )
        with summary_file.open("a", encoding="utf-8", errors="backslashreplace") as out:
            out.write(text)
    except OSError as exc:
        raise RulepressError(
            f"cannot write the step summary {summary_file}: {exc.strerror or exc}"
        ) from None


def _github(finding: Finding, relative_to: Path | None, placed: bool = True) -> str:
    """The workflow command of a finding: annotating its file and line when `placed`, else
    (outside the change) naming its place in the message."""
    level = {Level.ERROR: "error", Level.WARNING: "warning", Level.INFO: "notice"}[finding.level]
    props = []
    if placed:
        props.append(f"file={_escape(_relative(finding.file, relative_to) or '', True)}")
        if finding.line:
            props += [f"line={finding.line}", f"col={finding.col or 1}"]
    props.append(f"title={_escape(f'{finding.code} {finding.name}'.strip(), True)}")
    message = finding.message if placed else f"{finding.where(relative_to)}: {finding.message}"
    return f"::{level} {','.join(props)}::{_escape(message, False)}"


def _escape(text: str, property_value: bool) -> str:
    """A workflow command's data or property value: made printable, so no character can
    end the command's line (a line break is shown as `\\n`) or reach the log as a terminal
    escape; then `%`, and in a property `:` and `,`, escaped as GitHub requires."""
    text = printable(text).replace("%", "%25")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text
