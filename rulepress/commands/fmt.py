"""`rulepress fmt`: rewrite compendium YAML into its canonical form, keeping comments.

Canonical: keys in the order the model declares them (`kind`, `id`, `status` first,
`previous_ids` and `rulings` last), default values left out, a table row per line,
multi-line text as literal blocks, quoting and indentation as ruamel.yaml writes them.
Formatting twice changes nothing the second time.

Every comment is kept where it stands: ruamel's round trip carries them, a comment going
with the key or item it follows, a default value that carries one is written anyway, and a
row or list with a comment inside stays in block style. What the round trip cannot carry
(a comment inside a flow `{...}`), or comments that putting keys in order would swap, is
caught by a check of the result: the same comments in the same order (the loader's scanner
finds them) and the same data, or the file is refused at the comment's place (RP012) and
left as it was.

fmt never writes through a symbolic link: a link to a file inside the folder formatted
is skipped (its target is formatted where it lies, once), a link leading out of it is
refused as validate refuses it. Files are read as the loader reads them (regular files
of at most 2 MiB) and written whole, under another name first, then renamed in place.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from rulepress import kinds
from rulepress.compendium.comments import comments, first_difference, without_document_markers
from rulepress.compendium.findings import FILE_START, file_problem, validated
from rulepress.compendium.walk import YAML_SUFFIXES
from rulepress.compendium.writer import (
    commented_keys,
    document_data,
    dump_data,
    load_round_trip,
    write_in_place,
)
from rulepress.compendium.yaml_source import Position, YamlProblem, decode_utf8, parse_yaml
from rulepress.errors import Code, Finding, RulepressError
from rulepress.files import link_refusal, read_regular
from rulepress.models import Document


@dataclass
class FormatResult:
    """What `fmt` did with each file, for its report and its exit code."""

    changed: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)
    refused: list[Finding] = field(default_factory=list)
    """Files formatting would lose a comment or change the data of (RP012), left as they are."""


class WouldLose(Exception):
    """Formatting would drop, change or move a comment, or change the data: the file is
    left as it is, and this says where."""

    def __init__(self, message: str, position: Position):
        """`position` is the comment's in the original file (1:1 for the data)."""
        super().__init__(message)
        self.message, self.position = message, position


def canonical_text(text: str, path: Path) -> str:
    """The canonical form of one document file's text. Raises ValueError with the reason
    when the file is not a valid document (validate it first), WouldLose when its
    canonical form would not hold every comment, in order, and the same data."""
    document = _document(text, path)
    original = load_round_trip(without_document_markers(text))
    data = document_data(document, keep=commented_keys(original))
    canonical = dump_data(data, original=original)
    if canonical != text:  # an unchanged file has lost nothing
        _check_nothing_lost(text, canonical, document, path)
    return canonical


def _document(text: str, path: Path) -> Document:
    try:
        data, source = parse_yaml(text, path)
    except YamlProblem as problem:
        raise ValueError(
            f"{problem.position.line}:{problem.position.col}: {problem.message}"
        ) from None
    model = kinds.models().get(data.get("kind")) if isinstance(data, dict) else None
    if model is None:
        raise ValueError("not a compendium document (no known `kind`)")
    document, problems = validated(data["kind"], data, source)
    if document is None:
        raise ValueError(f"not valid ({len(problems)} errors): run `rulepress validate`")
    return document


def _check_nothing_lost(text: str, canonical: str, document: Document, path: Path) -> None:
    """The safety net under the writer: the same comments in the same order, the same data."""
    before, after = comments(text), comments(canonical)
    index = first_difference(before, after)
    if index is not None:
        if index >= len(before):
            raise WouldLose(f"formatting would add a comment `{after[index].text}`", FILE_START)
        comment = before[index]
        if comment.text in {kept.text for kept in after}:
            why = (
                f"move the comment `{comment.text}` past another: a comment goes with the key"
                " it follows, and fmt puts keys in canonical order; put them in that order by"
                " hand"
            )
        else:
            why = (
                f"drop the comment `{comment.text}`, which stands where the canonical form has"
                " no place for one (inside a `{...}` or `[...]`); move it to a line of its own"
            )
        raise WouldLose(f"formatting would {why}; nothing written", comment.position)
    try:
        same = _document(canonical, path).model_dump() == document.model_dump()
    except ValueError:
        same = False
    if not same:
        raise WouldLose("formatting would change the data; nothing written", FILE_START)


def yaml_files(path: Path) -> list[Path]:
    """`path` itself, or the YAML files below it (links to folders not followed)."""
    if not path.is_dir():
        if not os.path.lexists(path):
            raise RulepressError(f"no such file or folder: {path}")
        return [path]
    found = []
    for parent, _, names in os.walk(path):
        found += [Path(parent, name) for name in names if name.endswith(YAML_SUFFIXES)]
    return sorted(found)


def _link(file: Path, root: Path) -> tuple[str, bool] | None:
    """Why a link is not formatted, and whether that is a failure; None if not a link."""
    if not file.is_symlink():
        return None
    refusal = link_refusal(file, root)
    if refusal is None:
        return "symbolic link; the file it points to is formatted where it lies", False
    return refusal, True


def format_paths(path: Path, *, check: bool) -> FormatResult:
    """Format every YAML file under `path` (in place unless `check`)."""
    result = FormatResult()
    root = path if path.is_dir() else path.parent
    for file in yaml_files(path):
        link = _link(file, root)
        if link is not None:
            reason, failed = link
            (result.failed if failed else result.skipped).append((file, reason))
            continue
        try:
            text = decode_utf8(read_regular(file, follow_links=False))
            canonical = canonical_text(text, file)
        except WouldLose as loss:
            result.refused.append(
                file_problem(file, Code.FORMAT_REFUSED, loss.message, loss.position)
            )
            continue
        except (OSError, ValueError, YamlProblem) as problem:
            reason = problem.message if isinstance(problem, YamlProblem) else str(problem)
            result.failed.append((file, reason))
            continue
        if canonical == text:
            result.unchanged.append(file)
            continue
        if not check:
            try:
                write_in_place(file, canonical)
            except OSError as problem:  # a read-only folder: said, and the file is as it was
                result.failed.append((file, f"cannot write: {problem.strerror or problem}"))
                continue
        result.changed.append(file)
    return result
