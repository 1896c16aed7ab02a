"""`rulepress schema`: JSON Schema for every document kind, generated from the models.

Field docstrings become `description`s, so an editor with yaml-language-server shows them
on hover. `compendium.schema.json` checks any compendium file: `if` its `kind` is one
kind's, `then` that kind's schema applies, so a wrong field is reported as that field
(a `oneOf` would report every other kind's mismatch too). Every schema has an `$id` and
only patterns in the regex syntax all validators share (ECMAScript's).

The editor mapping is `.vscode/settings.json`'s `yaml.schemas` (what the YAML extension
reads, and the setting every other yaml-language-server client takes too): one file maps
every compendium file, old and new, with no line in the documents to keep. `init` writes
it with the schemas, and `rulepress schema` keeps it in step with where they are.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from rulepress import kinds
from rulepress.commands.validate import JsonReport
from rulepress.errors import RulepressError
from rulepress.exporters import json_data
from rulepress.models.ruleset import RulesetInfo
from rulepress.models.settings import SETTINGS_FILE, Settings

SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"
ID_PREFIX = "urn:rulepress:schema:"
"""Each schema's `$id` is this and its file's name: a name, not an address to fetch
(rulepress publishes no schema online; each repository keeps its copy in `schemas/`)."""
COMPENDIUM_FILES = "compendium/**/*.yaml"
"""The files the compendium schema is mapped onto, from the repository's root."""
EDITOR_SETTINGS = Path(".vscode/settings.json")
"""Where the editor mapping lives, from the repository's root."""


SYNTAX = set("^$\\.*+?()[]{}|/")
"""What ECMAScript (with the `u` flag, as JSON Schema validators compile) lets `\\` escape
besides its escapes with letters and digits: any other escaped punctuation is an error."""
ESCAPES = set("dDsSwWbBfnrtv0123456789xucpPk")
"""The letters and digits after `\\` that mean the same in Python's, Rust's and
ECMAScript's regexes (`\\x41`, `\\u00e9`, `\\d`, a back-reference)."""
RENAMED = {"(?P<": "(?<", "(?P=": "\\k<"}
"""Python's named groups and back-references, in ECMAScript's spelling."""


def ecmascript_pattern(pattern: str) -> str:
    """`pattern` (in the syntax pydantic checks values with: Rust's regex, like Python's)
    spelled as ECMAScript: `\\"` as `"`, `\\A` and `\\Z` as `^` and `$`, `(?P<name>` as
    `(?<name>`. Raises ValueError for what ECMAScript cannot say (an inline flag)."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            escaped = pattern[i + 1]
            if escaped in SYNTAX or escaped in ESCAPES or (in_class and escaped == "-"):
                out.append(char + escaped)
            elif escaped in "AZz" and not in_class:
                out.append("^" if escaped == "A" else "$")
            elif escaped.isascii() and not escaped.isalnum():
                out.append(escaped)  # punctuation that means itself unescaped
            else:
                raise ValueError(f"\\{escaped} has no ECMAScript equivalent")
            i += 2
            continue
        if not in_class and pattern.startswith("(?", i):
            named = next((new for old, new in RENAMED.items() if pattern.startswith(old, i)), None)
            if named is not None:
                out.append(named)
                i += 4
                if named.startswith("\\k"):  # (?P=name) -> \k<name>
                    end = pattern.index(")", i)
                    out.append(pattern[i:end] + ">")
                    i = end + 1
                continue
            if pattern[i + 2 : i + 3] not in (":", "=", "!", "<"):
                flag = pattern[i : i + 4]
                raise ValueError(f"{flag!r} (an inline flag) has no ECMAScript equivalent")
        in_class = (in_class and char != "]") or (not in_class and char == "[")
        out.append(char)
        i += 1
    return "".join(out)


class PortableJsonSchema(GenerateJsonSchema):
    """pydantic's JSON Schema with every `pattern` in ECMAScript's syntax: pydantic copies a
    model's pattern as it is, so one only Rust or Python reads would make every JSON Schema
    validator refuse the whole schema (and the keys' patterns come from here too)."""

    def str_schema(self, schema):
        """A string's schema, its pattern spelled as ECMAScript."""
        result = super().str_schema(schema)
        if isinstance(result.get("pattern"), str):
            try:
                result["pattern"] = ecmascript_pattern(result["pattern"])
            except ValueError as exc:
                raise ValueError(f"the pattern {result['pattern']!r}: {exc}") from None
        return result


def _identified(name: str, schema: dict, title: str | None = None) -> dict:
    head = {"$schema": SCHEMA_URI, "$id": ID_PREFIX + name}
    return {**head, **({"title": title} if title else {}), **schema}


def kind_schema(kind: str) -> dict:
    """One kind's JSON Schema: editors check and complete a document of the kind with it."""
    model = kinds.models()[kind]
    try:
        schema = model.model_json_schema(mode="validation", schema_generator=PortableJsonSchema)
    except ValueError as exc:  # a plugin's pattern that ECMAScript cannot say
        raise RulepressError(f"cannot write the schema of the kind {kind!r}: {exc}") from None
    return _identified(f"{kind}.schema.json", schema)


def compendium_schema() -> dict:
    """One schema for any compendium file: `kind` names one of the kinds, and `if` it is a
    kind's, `then` that kind's schema applies."""
    models = kinds.models()
    refs, definitions = models_json_schema(
        [(models[kind], "validation") for kind in sorted(models)],
        ref_template="#/$defs/{model}",
        schema_generator=PortableJsonSchema,
    )
    branches = [
        {
            "if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
            "then": refs[(models[kind], "validation")],
        }
        for kind in sorted(models)
    ]
    schema = {
        "type": "object",
        "required": ["kind"],
        "properties": {
            "kind": {"description": "The document's kind.", "enum": sorted(models)},
        },
        "allOf": branches,
        **definitions,
    }
    return _identified("compendium.schema.json", schema, "rulepress compendium document")


def settings_schema() -> dict:
    """The schema of the publisher's settings file, rulepress.yaml."""
    schema = Settings.model_json_schema(mode="validation", schema_generator=PortableJsonSchema)
    return _identified("settings.schema.json", schema, "rulepress settings (rulepress.yaml)")


def _constant(value: object, description: str) -> dict:
    return {"const": value, "description": description}


def export_schema() -> dict:
    """The schema of the `json` target's files (`dist/json/<ruleset>.json`): closed
    wherever the export is, each document as its kind's model writes it (a field left at
    its default is left out), so a file that differs from it in shape was written by a
    rulepress that changed the format."""
    models = kinds.models()
    refs, definitions = models_json_schema(
        [(models[kind], "serialization") for kind in sorted(models)],
        by_alias=False,  # the names model_dump writes
        ref_template="#/$defs/{model}",
        schema_generator=PortableJsonSchema,
    )
    documents = {
        kind: {"type": "array", "minItems": 1, "items": refs[(model, "serialization")]}
        for kind, model in sorted(models.items())
        if model is not RulesetInfo
    }
    export_format = {
        "type": "object",
        "description": "What the file is: docs/json-export.md says what each version promises.",
        "required": sorted(json_data.FORMAT),
        "additionalProperties": False,
        "properties": {
            "name": _constant(json_data.FORMAT_NAME, "The format's name."),
            "version": _constant(json_data.FORMAT_VERSION, "The format's version."),
            "schema": _constant(json_data.FORMAT["schema"], "This schema's `$id`."),
        },
    }
    schema = {
        "type": "object",
        "required": ["documents", "format", "ruleset"],
        "additionalProperties": False,
        "properties": {
            "format": export_format,
            "ruleset": {
                **refs[(RulesetInfo, "serialization")],
                "description": "The ruleset's own document (its ruleset.yaml).",
            },
            "documents": {
                "type": "object",
                "description": "The published documents (drafts left out) by kind, each "
                "kind's sorted by id; a kind with none is left out.",
                "additionalProperties": False,
                "properties": documents,
            },
        },
        **definitions,
    }
    return _identified(json_data.SCHEMA_FILE, schema, "rulepress compendium export (json target)")


def validate_report_schema() -> dict:
    """The schema of what `rulepress validate --format json` prints."""
    schema = JsonReport.model_json_schema(mode="serialization", schema_generator=PortableJsonSchema)
    return _identified(REPORT_SCHEMA_FILE, schema, "rulepress validate --format json")


REPORT_SCHEMA_FILE = "validate-report.schema.json"


def schemas() -> dict[str, dict]:
    """File name -> schema, for every kind, the compendium-wide one, the settings, the
    JSON export and the validation report."""
    files = {f"{kind}.schema.json": kind_schema(kind) for kind in sorted(kinds.models())}
    files["compendium.schema.json"] = compendium_schema()
    files["settings.schema.json"] = settings_schema()
    files[json_data.SCHEMA_FILE] = export_schema()
    files[REPORT_SCHEMA_FILE] = validate_report_schema()
    return files


def render(schema: dict) -> str:
    """A schema as its file holds it: keys sorted, so a file changes only where its models did."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_settings(settings: dict) -> str:
    """Editor settings as their file holds them: in their own order, which is the user's."""
    return json.dumps(settings, indent=2, ensure_ascii=False) + "\n"


def editor_mapping(out: Path) -> dict[str, str]:
    """`yaml.schemas` for schemas in `out` (relative to the repository's root): schema
    path -> the files it checks."""
    folder = "./" + out.as_posix().removeprefix("./").rstrip("/")
    return {
        f"{folder}/compendium.schema.json": COMPENDIUM_FILES,
        f"{folder}/settings.schema.json": SETTINGS_FILE,
    }


def editor_settings(out: Path, current: dict | None = None) -> dict:
    """The editor settings with `yaml.schemas` mapping rulepress's files onto the schemas in
    `out`; the other settings of `current` kept, and other files' mappings too."""
    settings = dict(current or {})
    wanted = editor_mapping(out)
    ours = set(wanted.values())
    mappings = settings.get("yaml.schemas")
    kept = {
        schema: files
        for schema, files in (mappings.items() if isinstance(mappings, dict) else ())
        if files not in ours
    }
    settings["yaml.schemas"] = {**kept, **wanted}
    return settings


def repository_files(out: Path = Path("schemas")) -> dict[Path, str]:
    """The files a new repository gets for its editors: the schemas and the mapping."""
    files = {out / name: render(schema) for name, schema in schemas().items()}
    files[EDITOR_SETTINGS] = render_settings(editor_settings(out))
    return files


def _current_editor_settings(root: Path) -> tuple[dict | None, str | None]:
    """The editor settings under `root` (None if there are none) and, when they are not
    plain JSON (VS Code also takes comments), why they are left as they are."""
    path = root / EDITOR_SETTINGS
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, None
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})"
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"{path}:{exc.lineno}:{exc.colno}: not plain JSON ({exc.msg})"
    if not isinstance(settings, dict):
        return None, f"{path}:1:1: not a JSON object"
    return settings, None


def write_schemas(out: Path, root: Path | None = None) -> tuple[list[Path], str | None]:
    """Write every schema into `out` and, when `out` lies inside `root` (the repository's
    root: the current folder by default), map them in `root`'s editor settings: the paths
    written, and why the editor settings were left as they are, if they were."""
    root = Path.cwd() if root is None else root
    absolute = (out if out.is_absolute() else root / out).resolve()
    try:
        inside = absolute.relative_to(root.resolve())
    except ValueError:
        inside = None
    current, refused = _current_editor_settings(root) if inside is not None else (None, None)
    written = []
    try:
        absolute.mkdir(parents=True, exist_ok=True)
        for name, schema in schemas().items():
            path = out / name
            (absolute / name).write_text(render(schema), encoding="utf-8")
            written.append(path)
        if inside is not None and refused is None:
            text = render_settings(editor_settings(inside, current))
            target = root / EDITOR_SETTINGS
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
                written.append(EDITOR_SETTINGS if root == Path.cwd() else target)
    except OSError as exc:
        raise RulepressError(f"cannot write schemas to {out}: {exc.strerror or exc}") from None
    if refused:
        mapping = ", ".join(f"{s}: {f}" for s, f in editor_mapping(inside).items())
        refused += f"; its yaml.schemas was left as it is (map {mapping})"
    return written, refused
