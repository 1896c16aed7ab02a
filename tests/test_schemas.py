"""The JSON Schemas `rulepress schema` writes work in every validator: each has an `$id`,
each passes `check-jsonschema --check-metaschema`, every regex compiles as ECMAScript (in
check-jsonschema's engine and in node's), and the compendium schema blames only the field
that is wrong. `init` writes them with the editor mapping, which `rulepress schema` keeps
in step. The proof with an editor's own server is in tests/test_schemas_editor.py."""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import jsonschema
import pytest
import regress
import yaml
from check_jsonschema.regex_variants import RegexImplementation, RegexVariantName
from helpers import COMPENDIUM, REPO, require_tool, run
from pydantic import BaseModel, StringConstraints

from rulepress.commands import schema as schema_module
from rulepress.commands.init import init_repository
from rulepress.commands.schema import (
    EDITOR_SETTINGS,
    ID_PREFIX,
    PortableJsonSchema,
    ecmascript_pattern,
    editor_settings,
    kind_schema,
    render,
    render_settings,
    schemas,
)
from rulepress.errors import RulepressError


def patterns(node) -> list[str]:
    """Every regex in a schema: `pattern` values and `patternProperties` keys."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                found.append(value)
            if key == "patternProperties" and isinstance(value, dict):
                found.extend(value)
            found.extend(patterns(value))
    elif isinstance(node, list):
        for item in node:
            found.extend(patterns(item))
    return found


ALL_PATTERNS = sorted({p for schema in schemas().values() for p in patterns(schema)})


def test_the_schemas_have_patterns_to_check():
    assert len(ALL_PATTERNS) > 10
    assert any(p.startswith("^https?://") for p in ALL_PATTERNS)


def test_every_pattern_compiles_in_check_jsonschemas_ecmascript_engine():
    engine = RegexImplementation(RegexVariantName.default)
    assert not engine.check_format("[\\q]")  # the engine refuses what ECMAScript does
    assert [p for p in ALL_PATTERNS if not engine.check_format(p)] == []


def test_every_pattern_compiles_as_ecmascript_in_node():
    """`new RegExp(p, "u")`: what ajv and yaml-language-server compile a pattern with."""
    node = shutil.which("node")
    require_tool(node is not None, "node", needs="Node.js")
    script = (
        "const ps = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const bad = ps.filter(p => { try { new RegExp(p, 'u'); return false; }"
        " catch (e) { return true; } });"
        "process.stdout.write(JSON.stringify(bad));"
    )
    probe = [*ALL_PATTERNS, "[\\q]"]  # the last one must be refused
    result = subprocess.run(
        [node, "-e", script], input=json.dumps(probe), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == ["[\\q]"]


PYTHON_ONLY = [
    # (a pattern pydantic takes, ECMAScript's spelling, texts to match both against)
    (
        r"^https?://[^\s<>\"'`\\]+$",
        r"""^https?://[^\s<>"'`\\]+$""",
        ["https://a.b/c", 'http://a"', "x"],
    ),
    (r"\Aa\#b\Z", r"^a#b$", ["a#b", "a#bc", "za#b"]),
    (r"(?P<d>[0-9])-(?P=d)", r"(?<d>[0-9])-\k<d>", ["1-1", "1-2"]),
    (r"[\-\w\.]+\@x", r"[\-\w\.]+@x", ["a-b.c@x", "@x"]),
]


@pytest.mark.parametrize(("pattern", "portable", "texts"), PYTHON_ONLY)
def test_python_only_regex_syntax_is_spelled_as_ecmascript(pattern, portable, texts):
    with pytest.raises(regress.RegressError):
        regress.Regex(pattern, "u")  # what the schema held before
    assert ecmascript_pattern(pattern) == portable
    compiled = regress.Regex(portable, "u")
    for text in texts:  # and it still means what the model checks
        assert (compiled.find(text) is not None) == bool(re.search(pattern, text)), text


def test_a_pattern_ecmascript_cannot_say_is_refused_not_written():
    with pytest.raises(ValueError, match="inline flag"):
        ecmascript_pattern("(?i)abc")
    with pytest.raises(ValueError, match="no ECMAScript equivalent"):
        ecmascript_pattern(r"a\Gb")


class PythonOnlyUrl(BaseModel):
    kind: str = "python-only"
    url: typing.Annotated[str, StringConstraints(pattern=PYTHON_ONLY[0][0])]


def test_the_schema_generator_writes_a_models_python_only_pattern_as_ecmascript():
    plain = PythonOnlyUrl.model_json_schema()["properties"]["url"]["pattern"]
    assert not RegexImplementation(RegexVariantName.default).check_format(plain)
    portable = PythonOnlyUrl.model_json_schema(schema_generator=PortableJsonSchema)
    assert portable["properties"]["url"]["pattern"] == PYTHON_ONLY[0][1]


def test_a_plugin_kind_whose_pattern_ecmascript_cannot_say_is_an_error(monkeypatch):
    class Flagged(BaseModel):
        name: typing.Annotated[str, StringConstraints(pattern="(?i)^abc$")]

    monkeypatch.setattr(schema_module.kinds, "models", lambda: {"flagged": Flagged})
    with pytest.raises(RulepressError, match=r"kind 'flagged'.*inline flag"):
        kind_schema("flagged")


def test_every_schema_has_its_own_id():
    ids = {name: schema.get("$id") for name, schema in schemas().items()}
    assert ids == {name: ID_PREFIX + name for name in ids}


def test_check_jsonschema_accepts_every_committed_schema_by_its_metaschema():
    files = sorted((REPO / "schemas").glob("*.json"))
    assert len(files) == len(schemas())
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--check-metaschema", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok -- validation done" in result.stdout


@functools.cache
def one_document_of_each_kind() -> dict[str, dict]:
    """The first bundled document of each kind, by kind."""
    found: dict[str, dict] = {}
    for path in sorted(COMPENDIUM.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found.setdefault(data["kind"], data)
    return found


COMPENDIUM_VALIDATOR = jsonschema.Draft202012Validator(schemas()["compendium.schema.json"])


@pytest.mark.parametrize("kind", sorted(one_document_of_each_kind()))
def test_the_compendium_schema_blames_only_the_wrong_field(kind):
    document = one_document_of_each_kind()[kind]
    assert list(COMPENDIUM_VALIDATOR.iter_errors(document)) == []
    errors = list(COMPENDIUM_VALIDATOR.iter_errors({**document, "tyop": 1}))
    assert [(e.validator, e.message) for e in errors] == [
        ("additionalProperties", "Additional properties are not allowed ('tyop' was unexpected)")
    ]
    # check-jsonschema shows its best match first: the same error
    assert jsonschema.exceptions.best_match(errors).message == errors[0].message


def test_the_compendium_schema_names_an_unknown_kind_at_kind():
    document = {**one_document_of_each_kind()["weapon"], "kind": "weapn"}
    errors = list(COMPENDIUM_VALIDATOR.iter_errors(document))
    assert [(list(e.path), e.validator) for e in errors] == [(["kind"], "enum")]


def test_init_writes_the_schemas_and_the_editor_mapping(tmp_path):
    root = tmp_path / "rules"
    init_repository(root)
    for name, schema in schemas().items():
        assert (root / "schemas" / name).read_text(encoding="utf-8") == render(schema)
    settings = json.loads((root / EDITOR_SETTINGS).read_text(encoding="utf-8"))
    assert settings == {
        "yaml.schemas": {
            "./schemas/compendium.schema.json": "compendium/**/*.yaml",
            "./schemas/settings.schema.json": "rulepress.yaml",
        }
    }
    # running `rulepress schema` in the new repository changes nothing
    result = run("schema", cwd=root)
    assert result.returncode == 0, result.stderr
    assert EDITOR_SETTINGS.as_posix() not in result.stdout
    assert json.loads((root / EDITOR_SETTINGS).read_text(encoding="utf-8")) == settings


def test_this_repositorys_editor_mapping_is_what_rulepress_schema_writes():
    current = json.loads((REPO / EDITOR_SETTINGS).read_text(encoding="utf-8"))
    assert editor_settings(Path("schemas"), current) == current


def test_rulepress_schema_moves_the_mapping_with_the_schemas_and_keeps_other_settings(tmp_path):
    settings = {
        "editor.tabSize": 2,
        "yaml.schemas": {
            "./schemas/compendium.schema.json": "compendium/**/*.yaml",
            "https://example.org/ci.json": ".github/workflows/*.yml",
        },
    }
    (tmp_path / ".vscode").mkdir()
    (tmp_path / EDITOR_SETTINGS).write_text(render_settings(settings), encoding="utf-8")
    result = run("schema", "--out", "editor/schemas", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"wrote {EDITOR_SETTINGS.as_posix()}" in result.stdout
    assert (tmp_path / "editor/schemas/compendium.schema.json").is_file()
    assert json.loads((tmp_path / EDITOR_SETTINGS).read_text(encoding="utf-8")) == {
        "editor.tabSize": 2,
        "yaml.schemas": {
            "https://example.org/ci.json": ".github/workflows/*.yml",
            "./editor/schemas/compendium.schema.json": "compendium/**/*.yaml",
            "./editor/schemas/settings.schema.json": "rulepress.yaml",
        },
    }


def test_rulepress_schema_leaves_editor_settings_with_comments_and_says_what_to_map(tmp_path):
    text = '{\n  // mine\n  "editor.tabSize": 2\n}\n'
    (tmp_path / ".vscode").mkdir()
    (tmp_path / EDITOR_SETTINGS).write_text(text, encoding="utf-8")
    result = run("schema", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / EDITOR_SETTINGS).read_text(encoding="utf-8") == text
    assert (tmp_path / "schemas/settings.schema.json").is_file()
    assert result.stderr.startswith(
        f"warning: {tmp_path / EDITOR_SETTINGS}:2:3: not plain JSON (Expecting property name"
    )
    assert "map ./schemas/compendium.schema.json: compendium/**/*.yaml" in result.stderr


def test_rulepress_schema_maps_nothing_for_schemas_outside_the_current_folder(tmp_path):
    (tmp_path / "here").mkdir()
    result = run("schema", "--out", str(tmp_path / "elsewhere"), cwd=tmp_path / "here")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "elsewhere/compendium.schema.json").is_file()
    assert not (tmp_path / "here/.vscode").exists()
