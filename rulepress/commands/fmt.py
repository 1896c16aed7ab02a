"""`rulepress fmt`: rewrite compendium YAML into its canonical form, keeping comments.

Canonical: keys in the order the model declares them (`kind`, `id`, `status` first,
`previous_ids` and `rulings` last), default values left out, a table row per line,
multi-line text as literal blocks, quoting and indentation as ruamel.yaml writes them.
Formatting twice changes nothing the second time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from rulepress.compendium.loader import YAML_SUFFIXES
from rulepress.compendium.writer import document_data, dump_data, load_round_trip
from rulepress.compendium.yaml_source import YamlProblem, decode_utf8, parse_yaml
from rulepress.errors import RulepressError
from rulepress.models import DOCUMENT_KINDS


@dataclass
class FormatResult:
    changed: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)


def canonical_text(text: str, path: Path) -> str:
    """The canonical form of one document file's text. Raises ValueError with the reason
    when the file is not a valid document (validate it first)."""
    try:
        data, _ = parse_yaml(text, path)
    except YamlProblem as problem:
        raise ValueError(
            f"{problem.position.line}:{problem.position.col}: {problem.message}"
        ) from None
    model = DOCUMENT_KINDS.get(data.get("kind")) if isinstance(data, dict) else None
    if model is None:
        raise ValueError("not a compendium document (no known `kind`)")
    try:
        document = model.model_validate(data)
    except ValidationError as exc:
        raise ValueError(
            f"not valid ({exc.error_count()} errors): run `rulepress validate`"
        ) from None
    return dump_data(document_data(document), original=load_round_trip(text))


def yaml_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise RulepressError(f"no such file or folder: {path}")
    return sorted(p for p in path.rglob("*") if p.suffix in YAML_SUFFIXES and p.is_file())


def format_paths(path: Path, *, check: bool) -> FormatResult:
    """Format every YAML file under `path` (in place unless `check`)."""
    result = FormatResult()
    for file in yaml_files(path):
        try:
            text = decode_utf8(file.read_bytes())
            canonical = canonical_text(text, file)
        except (OSError, ValueError, YamlProblem) as problem:
            reason = problem.message if isinstance(problem, YamlProblem) else str(problem)
            result.failed.append((file, reason))
            continue
        if canonical == text:
            result.unchanged.append(file)
            continue
        result.changed.append(file)
        if not check:
            file.write_text(canonical, encoding="utf-8")
    return result
