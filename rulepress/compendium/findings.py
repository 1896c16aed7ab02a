"""Findings about one file: at its start, at a value's line and column, or from a
model's validation errors. The loader and the settings' loader both report through them."""

from __future__ import annotations

import ast
import functools
import re
import typing
from pathlib import Path

from pydantic import BaseModel, ValidationError

from rulepress import kinds
from rulepress.compendium.yaml_source import Position, SourceMap
from rulepress.errors import (
    Code,
    Finding,
    Level,
    Problem,
    closest,
    code_prefix,
    model_reason,
    raised_text,
)
from rulepress.models.base import SLUG_PATTERN, Document

FILE_START = Position(1, 1)


def file_problem(path: Path, code: Code, message: str, position: Position = FILE_START) -> Finding:
    """An error about a whole file (it cannot be read, parsed or used), at `position`."""
    return Finding(Level.ERROR, code, message, path, position.line, position.col)


def schema_findings(
    exc: ValidationError, source: SourceMap, model: type[BaseModel] | None = None
) -> list[Finding]:
    """Turn pydantic's errors into findings at the YAML line and column of each value.

    A union field fails once per member; those errors share a data path and become one
    finding that lists what would have been accepted. `model`, the model validated,
    lets an unknown key's "did you mean" draw on the fields of the mapping it is in.
    """
    grouped: dict[tuple, list[dict]] = {}
    for error in exc.errors(include_url=False):
        problem = _problem(error)
        loc = error["loc"] if problem is None else (*error["loc"], *problem.path)
        grouped.setdefault(_data_path(loc, source, error["type"]), []).append(error)
    findings = []
    for path, errors in grouped.items():
        problem = _problem(errors[0])
        code = _code_for(errors[0]["type"]) if problem is None else _problem_code(problem, model)
        code = code or Code.INVALID_VALUE
        loc = errors[0]["loc"]
        key = code == Code.UNKNOWN_FIELD or (bool(loc) and loc[-1] == "[key]")  # a key's fault
        position = source.locate(path, prefer_key=key)
        messages = list(dict.fromkeys(_message(e, path, model) for e in errors))
        message = messages[0] if len(messages) == 1 else "; or ".join(messages[:4])
        findings.append(
            Finding(
                Level.ERROR,
                code,
                f"{_dotted(path, ends_in_key=key)}: {message}",
                source.file,
                position.line,
                position.col,
            )
        )
    return findings


def _problem_code(problem: Problem, model: type[BaseModel] | None) -> str | None:
    """A Problem's code: rulepress's, or one of the prefix of the game whose model raised
    it; a code of another game's prefix is no code (RP105, its message naming it)."""
    if problem.code is None or problem.code in Code._value2member_map_:
        return problem.code
    return problem.code if code_prefix(problem.code) in _prefixes_of(model) else None


def _prefixes_of(model: type[BaseModel] | None) -> set[str]:
    """The code prefixes of the games that register `model` as a kind's."""
    return {
        game.code_prefix
        for game in kinds.games()
        if game.code_prefix and any(kind.model is model for kind in game.kinds)
    }


def _problem(error: dict) -> Problem | None:
    """The Problem a plugin's validator raised for this error, if it raised one."""
    raised = (error.get("ctx") or {}).get("error")
    return raised if isinstance(raised, Problem) else None


def _data_path(loc: tuple, source: SourceMap, error_type: str) -> tuple:
    """Drop the union member names pydantic puts into `loc`; keep what exists in the data."""
    path: tuple = ()
    for part in loc:
        candidate = (*path, part)
        known = source.has(candidate)
        if known or (error_type == "missing" and part == loc[-1]):
            path = candidate
    return path


# A model's fields are named by text: a key that is not text (`1:`) names none of them.
UNKNOWN_FIELD_ERRORS = ("extra_forbidden", "invalid_key")


def _code_for(error_type: str) -> Code:
    if error_type in UNKNOWN_FIELD_ERRORS:
        return Code.UNKNOWN_FIELD
    if error_type == "missing":
        return Code.MISSING_FIELD
    if error_type.endswith(("_type", "_parsing")) or error_type in {"model_type", "is_instance_of"}:
        return Code.WRONG_TYPE
    if error_type.startswith(
        ("greater_than", "less_than", "too_short", "too_long")
    ) or error_type in {"string_too_short", "string_too_long", "finite_number"}:
        return Code.OUT_OF_RANGE
    return Code.INVALID_VALUE


@functools.cache
def _all_fields() -> list[str]:
    return sorted({name for model in kinds.models().values() for name in model.model_fields})


def _fields_at(model: type[BaseModel] | None, path: tuple) -> list[str]:
    """The field names a key at `path` could have meant: those of the models the mapping
    holding it may be (every kind's fields when the model is not known)."""
    if model is None:
        return _all_fields()
    candidates = {model}
    for part in path[:-1]:
        fields = [m.model_fields[part] for m in candidates if part in m.model_fields]
        if fields:  # a field name steps into the models its type holds
            candidates = {m for f in fields for m in _models_in(f.annotation)}
        # else a list index or a mapping's key: the same models hold the next step
    return sorted({name for m in candidates for name in m.model_fields})


def _models_in(annotation: object) -> set[type[BaseModel]]:
    """The models a field's type holds, through lists, mappings, unions and Annotated."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {annotation}
    return {m for arg in typing.get_args(annotation) for m in _models_in(arg)}


def _message(error: dict, path: tuple, model: type[BaseModel] | None = None) -> str:
    kind = error["type"]
    value = error.get("input")
    problem = _problem(error)
    if problem is not None:  # the plugin's own words
        if problem.code is not None and _problem_code(problem, model) is None:
            return f"{problem.message} (code {problem.code} is not of this game's prefix)"
        return problem.message
    if kind in UNKNOWN_FIELD_ERRORS:
        word = str(path[-1]) if path else ""
        return f"unknown field{suggest(word, _fields_at(model, path))}"
    if kind == "missing":
        return "required field is missing"
    if kind == "string_pattern_mismatch" and error.get("ctx", {}).get("pattern") == SLUG_PATTERN:
        # any slug field's, whatever its name (an id, a reference to another document)
        return f"{value!r} is not a slug (lowercase letters and digits joined by single hyphens)"
    shown = f"{value!r}" if not isinstance(value, dict | list) else type_name(value)
    reason = model_reason(error)
    if kind.endswith("_type") or kind.endswith("_parsing"):
        return f"{reason}, got {shown} ({type_name(value)})"
    if not path:  # the whole document (a model validator): its text says what is wrong
        return reason
    if kind in CHOICE_ERRORS and isinstance(value, str):
        by_lowercase = {choice.lower(): choice for choice in _choices(error)}
        hint = closest(value.lower(), by_lowercase)  # `RARE` meant `Rare`
        if hint:
            return f"{reason} (got {shown}; did you mean {by_lowercase[hint]!r}?)"
    return f"{reason} (got {shown})"


# A value not among a Literal's or an Enum's: pydantic names them, as Python literals, in
# ctx["expected"] ("'Common', 'Rare' or 3").
CHOICE_ERRORS = ("literal_error", "enum")
_PYTHON_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def _choices(error: dict) -> list[str]:
    """The text values a literal or enum error says were expected."""
    expected = str((error.get("ctx") or {}).get("expected", ""))
    return [ast.literal_eval(quoted) for quoted in _PYTHON_STRING.findall(expected)]


def suggest(word: str, choices) -> str:
    """ " (did you mean 'x'?)" for the choice closest to `word`, or "" when none is close."""
    close = closest(word, choices)
    return f" (did you mean '{close}'?)" if close else ""


def _dotted(path: tuple, *, ends_in_key: bool = False) -> str:
    """`rulings[0].id`; with `ends_in_key`, a number at the end is a key (`1`), not an index."""
    text = ""
    for index, part in enumerate(path):
        key = not isinstance(part, int) or (ends_in_key and index == len(path) - 1)
        text += (f".{part}" if text else str(part)) if key else f"[{part}]"
    return text or "document"


def type_name(value: object) -> str:
    """How a finding names a YAML value's type (`mapping`, `text`, `integer`...)."""
    return {
        dict: "mapping",
        list: "list",
        str: "text",
        bool: "boolean",
        int: "integer",
        float: "number",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def finding_at(
    source: SourceMap, code: Code, level: Level, message: str, path: tuple = ()
) -> Finding:
    """A finding at the value (or, for `()`, the document) `path` names in `source`."""
    position = source.locate(path)
    return Finding(level, code, message, source.file, position.line, position.col)


def validated(kind: str, data: dict, source: SourceMap) -> tuple[Document | None, list[Finding]]:
    """The document `data` (read from `source`) makes with its kind's model, or None and
    the findings of why not. What a plugin's model (or a field type of it) raises besides
    a validation error is a finding naming the plugin; rulepress's own models raising
    one is a bug, left to surface as one."""
    model = kinds.models()[kind]
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, schema_findings(exc, source, model)
    except Exception as exc:  # a plugin's model or field type failed on these data
        package = kinds.registry()[kind].package
        if package == "rulepress":
            raise
        return None, [model_failure(source, package, kind, exc)]


def model_failure(source: SourceMap, package: str, kind: str, exc: Exception) -> Finding:
    """A finding at the document for a plugin's model (or a field type of it) that raised
    something other than a validation error: the data may be what it did not expect, but
    the package is named, since fixing it may be its author's to do."""
    return finding_at(
        source,
        Code.INVALID_VALUE,
        Level.ERROR,
        f"document: the model of kind {kind!r} from plugin {package} failed on it: "
        f"{raised_text(exc)}",
    )
