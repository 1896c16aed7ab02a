"""The `json` target's files and `validate --format json` carry a format version and a
published JSON Schema (schemas/, written by `rulepress schema`), and hold to both: the
bundled compendium's files and a plugin game's (Omens, examples/oracle-plugin)
validate against it in check-jsonschema and the Python jsonschema library; the schema is
closed where the export is, so a changed shape fails it; and each version's schema, frozen
in tests/fixtures/json-formats/, is kept by every later schema of that version (a shape
change a reader of the version could trip on needs a new version)."""

from __future__ import annotations

import copy
import dataclasses
import errno
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from format_compatibility import incompatibilities
from helpers import COMPENDIUM, REPO, base_tree, build_tree, require_tool, run

from rulepress.commands.build import build
from rulepress.commands.schema import (
    ID_PREFIX,
    REPORT_SCHEMA_FILE,
    export_schema,
    validate_report_schema,
)
from rulepress.commands.validate import REPORT_VERSION
from rulepress.exporters import ExportOptions, json_data
from rulepress.exporters.json_data import (
    FORMAT,
    FORMAT_VERSION,
    SCHEMA_FILE,
    ruleset_json,
    ruleset_json_parts,
)
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.pieces import Pieces
from rulepress.exporters.ruleset_files import RulesetFiles
from rulepress.exporters.squeezed import Squeezed, as_stored

SCHEMAS = REPO / "schemas"
EXPORT_SCHEMA = SCHEMAS / SCHEMA_FILE
REPORT_SCHEMA = SCHEMAS / REPORT_SCHEMA_FILE
FROZEN = Path(__file__).parent / "fixtures" / "json-formats"
ORACLE = Path(__file__).parent.parent / "examples" / "oracle-plugin"


def check_jsonschema(*args: str) -> subprocess.CompletedProcess:
    """The real check-jsonschema (the test extra's), on files."""
    require_tool(
        importlib.util.find_spec("check_jsonschema") is not None,
        "check-jsonschema",
        needs="pip install -e '.[test]'",
    )
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def python_jsonschema():
    """The Python jsonschema library (the test extra's)."""
    require_tool(
        importlib.util.find_spec("jsonschema") is not None,
        "jsonschema",
        needs="pip install -e '.[test]'",
    )
    import jsonschema

    return jsonschema


def errors(schema: dict, data: object) -> list[str]:
    validator = python_jsonschema().Draft202012Validator(schema)
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]


@pytest.fixture(scope="module")
def bundled_export(tmp_path_factory) -> list[Path]:
    """The bundled compendium's `dist/json/*.json`, as `rulepress build` writes them."""
    out = tmp_path_factory.mktemp("json-export")
    result = run("build", "--target", "json", "--out", str(out), "--compendium", str(COMPENDIUM))
    assert result.returncode == 0, result.stderr
    files = sorted((out / "json").glob("*.json"))
    assert [f.stem for f in files] == ["cool", "iris", "t2k-cuf", "t2k4e"]
    return files


def test_every_exported_file_names_its_format_version_and_schema(bundled_export):
    for path in bundled_export:
        data = json.loads(path.read_bytes())
        assert data["format"] == {
            "name": "rulepress-compendium",
            "version": 1,
            "schema": "urn:rulepress:schema:compendium-export.schema.json",
        }
        assert list(data) == ["documents", "format", "ruleset"]  # sorted, as before
    assert json.loads(EXPORT_SCHEMA.read_text())["$id"] == FORMAT["schema"]
    assert FORMAT["schema"] == ID_PREFIX + SCHEMA_FILE


def test_the_bundled_export_validates_in_check_jsonschema(bundled_export):
    result = check_jsonschema("--schemafile", str(EXPORT_SCHEMA), *map(str, bundled_export))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok -- validation done" in result.stdout


def test_the_bundled_export_validates_in_python_jsonschema(bundled_export):
    schema = json.loads(EXPORT_SCHEMA.read_text())
    kinds_seen = set()
    for path in bundled_export:
        data = json.loads(path.read_bytes())
        assert errors(schema, data) == [], path.name
        kinds_seen |= set(data["documents"])
    assert len(kinds_seen) >= 20  # every bundled game's kinds were checked, not an empty file


def test_the_export_and_report_schemas_pass_their_metaschema():
    result = check_jsonschema("--check-metaschema", str(EXPORT_SCHEMA), str(REPORT_SCHEMA))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture
def omens_repository(tmp_path, install, monkeypatch) -> tuple[Path, dict]:
    """The Omens content repository, its game installed (an entry point on the path, for
    this process and the commands it runs), and the environment to run them in."""
    site = install("rulepress-oracle", {"rulepress.games": {"oracle": "rulepress_oracle:GAME"}})
    monkeypatch.syspath_prepend(str(ORACLE))
    repository = tmp_path / "omens"
    subprocess.run(["cp", "-r", str(ORACLE / "content"), str(repository)], check=True)
    path = os.pathsep.join([str(site), str(ORACLE), os.environ.get("PYTHONPATH", "")])
    yield repository, {**os.environ, "PYTHONPATH": path}
    sys.modules.pop("rulepress_oracle", None)


def test_a_plugin_games_export_validates_against_the_schema_rulepress_schema_writes(
    omens_repository,
):
    repository, env = omens_repository
    built = run("build", "--target", "json", cwd=repository, env=env)
    assert built.returncode == 0, built.stderr
    written = run("schema", "--out", "schemas", cwd=repository, env=env)
    assert written.returncode == 0, written.stderr
    (export,) = sorted((repository / "dist/json").glob("*.json"))
    schema_file = repository / "schemas" / SCHEMA_FILE
    schema = json.loads(schema_file.read_text())
    assert {"move", "stat"} <= set(schema["properties"]["documents"]["properties"])
    data = json.loads(export.read_bytes())
    assert "move" in data["documents"] and data["format"]["version"] == FORMAT_VERSION
    assert errors(schema, data) == []
    result = check_jsonschema("--schemafile", str(schema_file), str(export))
    assert result.returncode == 0, result.stdout + result.stderr
    # rulepress's own schema, without the game, refuses the game's kinds
    assert any("'move'" in e for e in errors(json.loads(EXPORT_SCHEMA.read_text()), data))


def changed(data: dict, change) -> dict:
    data = copy.deepcopy(data)
    change(data)
    return data


SHAPE_CHANGES = {
    "a key added at the top": lambda d: d.update(generated="2026-01-01"),
    "a key renamed": lambda d: d.update(docs=d.pop("documents")),
    "the ruleset's info moved": lambda d: d["documents"].update(ruleset=[d.pop("ruleset")]),
    "a field added to a document": lambda d: d["documents"]["weapon"][0].update(colour="red"),
    "a field retyped": lambda d: d["documents"]["weapon"][0].update(tier="1"),
    "a field added to the format": lambda d: d["format"].update(written_by="rulepress 2"),
    "another version": lambda d: d["format"].update(version=2),
    "a kind no model has": lambda d: d["documents"].update(spell=[{"id": "x"}]),
    "a kind's documents as one object": lambda d: d["documents"].update(
        weapon=d["documents"]["weapon"][0]
    ),
}


@pytest.mark.parametrize("change", SHAPE_CHANGES.values(), ids=SHAPE_CHANGES.keys())
def test_the_schema_refuses_a_changed_shape(bundled_export, change):
    """The schema is closed wherever the export is: a file of another shape fails it."""
    (iris,) = [p for p in bundled_export if p.stem == "iris"]
    data = json.loads(iris.read_bytes())
    schema = json.loads(EXPORT_SCHEMA.read_text())
    assert errors(schema, data) == []
    assert errors(schema, changed(data, change)) != []


def test_check_jsonschema_refuses_an_export_whose_shape_changed(bundled_export, tmp_path):
    (iris,) = [p for p in bundled_export if p.stem == "iris"]
    data = json.loads(iris.read_bytes())
    data["generated"] = "2026-01-01"
    bad = tmp_path / "iris.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = check_jsonschema("--schemafile", str(EXPORT_SCHEMA), str(bad))
    assert result.returncode == 1 and "generated" in result.stdout, result.stdout


def test_the_exporter_writes_only_what_the_schema_describes(monkeypatch, tmp_path):
    """The schema is generated from the code, the envelope too: an exporter that writes
    a new key without the schema knowing is caught by its own schema."""
    monkeypatch.setattr(json_data, "FORMAT", {**FORMAT, "written_by": "test"})
    validation, _ = build(build_tree(tmp_path / "c", base_tree()), tmp_path / "out", ["json"])
    assert validation.ok
    data = json.loads((tmp_path / "out/json/demo.json").read_bytes())
    monkeypatch.undo()
    assert any("written_by" in e for e in errors(export_schema(), data))


@pytest.mark.parametrize(
    ("current", "frozen"),
    [
        (export_schema, f"compendium-export.v{FORMAT_VERSION}.schema.json"),
        (validate_report_schema, f"validate-report.v{REPORT_VERSION}.schema.json"),
    ],
    ids=["export", "validate-report"],
)
def test_a_version_keeps_the_shape_it_was_published_with(current, frozen):
    """Within a version only additions: a change a reader of the frozen schema could trip
    on (a field removed, renamed, retyped, a new value, a looser bound) fails here until
    the version is raised and the new version's schema frozen beside the old one."""
    path = FROZEN / frozen
    assert path.is_file(), f"a new version: freeze its schema as {path} (a copy of schemas/')"
    assert incompatibilities(json.loads(path.read_text()), current()) == []


FROZEN_EXPORT = json.loads((FROZEN / "compendium-export.v1.schema.json").read_text())


def removed_field(schema: dict) -> None:
    del schema["$defs"]["WeaponProfile"]["properties"]["tier"]


def retyped_field(schema: dict) -> None:
    schema["$defs"]["WeaponProfile"]["properties"]["tier"] = {"type": "string"}


def renamed_top_key(schema: dict) -> None:
    schema["properties"]["docs"] = schema["properties"].pop("documents")


def loosened_bound(schema: dict) -> None:
    schema["$defs"]["ApRow"]["properties"]["ap"]["maximum"] = 99


def nullable_field(schema: dict) -> None:
    tier = schema["$defs"]["WeaponProfile"]["properties"]["tier"]
    schema["$defs"]["WeaponProfile"]["properties"]["tier"] = {"anyOf": [tier, {"type": "null"}]}


def optional_field(schema: dict) -> None:
    schema["$defs"]["WeaponProfile"]["required"].remove("tier")


@pytest.mark.parametrize(
    "change",
    [removed_field, retyped_field, renamed_top_key, loosened_bound, nullable_field, optional_field],
)
def test_a_change_a_reader_could_trip_on_is_caught(change):
    assert "tier" in FROZEN_EXPORT["$defs"]["WeaponProfile"]["required"]  # what the cases change
    assert incompatibilities(FROZEN_EXPORT, changed(FROZEN_EXPORT, change)) != []


def added_field(schema: dict) -> None:
    schema["$defs"]["WeaponProfile"]["properties"]["colour"] = {"type": "string"}


def added_kind(schema: dict) -> None:
    schema["properties"]["documents"]["properties"]["spell"] = {"type": "array"}


def reworded(schema: dict) -> None:
    schema["$defs"]["WeaponProfile"]["description"] = "Another description."


@pytest.mark.parametrize("change", [added_field, added_kind, reworded])
def test_an_addition_keeps_the_version(change):
    assert incompatibilities(FROZEN_EXPORT, changed(FROZEN_EXPORT, change)) == []


def test_a_watch_runs_joined_file_is_the_builds_byte_for_byte(bundled):
    """The watch run writes the file from each run of documents' kept text, compressed:
    expanded and joined, the build's bytes, the format too."""
    for ruleset in bundled.compendium:
        whole = ruleset_json(ruleset)
        parts = ruleset_json_parts(ruleset, Pieces())
        assert any(isinstance(part, Squeezed) for part in parts)
        assert b"".join(map(as_stored, parts)) == whole
        assert json.loads(whole)["format"] == FORMAT


def test_a_watch_run_renders_again_only_the_run_of_a_changed_document(bundled):
    """A kept run is the text of about RUN_ENDS documents: one document changed makes
    its own run again, and the other runs are the same kept objects."""
    ruleset = max(bundled.compendium, key=lambda r: len(r.entries))
    pieces = Pieces()
    first = ruleset_json_parts(ruleset, pieces)
    pieces.sweep()
    runs = sum(isinstance(part, Squeezed) for part in first)
    assert runs > 2, "the largest bundled ruleset is kept in several runs"
    edited = renamed(ruleset)
    pieces.start()
    again = ruleset_json_parts(edited, pieces)
    assert pieces.made == 1
    kept = [(a, b) for a, b in zip(first, again, strict=True) if isinstance(a, Squeezed)]
    assert sum(a is not b for a, b in kept) == 1
    assert b"".join(map(as_stored, again)) == ruleset_json(edited)


def renamed(ruleset, number: int = 0):
    """The ruleset with its `number`th published document renamed."""
    changed = [e for e in ruleset.entries if not e.document.is_draft][number]
    document = changed.document.model_copy(update={"name": changed.document.name + " (2)"})
    entries = tuple(
        dataclasses.replace(e, document=document) if e is changed else e for e in ruleset.entries
    )
    return dataclasses.replace(ruleset, entries=entries)


class OneRuleset:
    """A compendium of the one ruleset a RulesetFiles is given."""

    def __init__(self, ruleset) -> None:
        self.one = ruleset

    def ruleset(self, ruleset_id: str):
        return self.one


def json_files(folder: Path) -> RulesetFiles:
    """The json target's live form, writing into `folder`."""
    return RulesetFiles(
        OutputFolder(folder),
        folder,
        ".json",
        lambda _compendium, shown, pieces, _edition: ruleset_json_parts(shown, pieces),
    )


def test_a_watch_run_copies_its_unchanged_runs_from_the_file_it_wrote(
    bundled, tmp_path, monkeypatch
):
    """Each run kept from the last render is copied from the file on disk (in the kernel,
    not decompressed and written again), while that file is the one it wrote: one changed
    since (by someone else) is written whole. The file is the build's, byte for byte."""
    ruleset = max(bundled.compendium, key=lambda r: len(r.entries))
    files = json_files(tmp_path)
    path = tmp_path / f"{ruleset.id}.json"
    files.update(OneRuleset(ruleset), [ruleset.id], [])
    assert path.read_bytes() == ruleset_json(ruleset)
    copied, copy_file_range = [], os.copy_file_range
    monkeypatch.setattr(
        os, "copy_file_range", lambda *args: copied.append(args[2]) or copy_file_range(*args)
    )
    edited = renamed(ruleset)
    files.update(OneRuleset(edited), [ruleset.id], [], steady={ruleset.id})
    assert path.read_bytes() == ruleset_json(edited)
    assert 0 < sum(copied) < len(path.read_bytes())
    copied.clear()
    text = path.read_bytes()
    assert text.count(b'"id": "') > 2
    path.write_bytes(text.replace(b'"id": "', b'"ID": "'))  # every run: the same size, other bytes
    again = renamed(edited, 1)
    files.update(OneRuleset(again), [ruleset.id], [], steady={ruleset.id})
    assert path.read_bytes() == ruleset_json(again)
    assert copied == []


def test_a_file_system_that_cannot_copy_gets_the_runs_written(bundled, tmp_path, monkeypatch):
    ruleset = max(bundled.compendium, key=lambda r: len(r.entries))
    files = json_files(tmp_path)
    files.update(OneRuleset(ruleset), [ruleset.id], [])

    def cannot(*args):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "copy_file_range", cannot)
    edited = renamed(ruleset)
    files.update(OneRuleset(edited), [ruleset.id], [], steady={ruleset.id})
    assert (tmp_path / f"{ruleset.id}.json").read_bytes() == ruleset_json(edited)


def test_the_builds_file_written_in_parts_is_the_whole_files_bytes(bundled, tmp_path):
    """The build writes each ruleset's file a document's text at a time (never holding it
    whole): the bytes of `pretty_json` of the whole file's data."""
    json_data.JsonExporter().export(bundled.compendium, tmp_path, ExportOptions())
    for ruleset in bundled.compendium:
        assert (tmp_path / f"{ruleset.id}.json").read_bytes() == ruleset_json(ruleset)


def test_a_value_only_json_writes_makes_the_builds_file_afresh(bundled, tmp_path, monkeypatch):
    """A value orjson refuses (an integer beyond 64 bits) part way through the file: the
    file is written again whole through pretty_json, nothing of the parts left."""
    ruleset = next(iter(bundled.compendium))
    written = []

    def refusing(document):
        if written:
            raise orjson.JSONEncodeError("Integer exceeds 64-bit range")
        written.append(document)
        return b"{}"

    monkeypatch.setattr(json_data, "_document_text", refusing)
    json_data.JsonExporter().export(bundled.compendium, tmp_path, ExportOptions())
    assert written, "the first document's text was written before the refusal"
    assert (tmp_path / f"{ruleset.id}.json").read_bytes() == ruleset_json(ruleset)


@pytest.fixture
def broken_tree(tmp_path) -> Path:
    """A compendium with an error at a place, a warning, and an acknowledged finding."""
    files = base_tree()
    files["demo/skills/bad.yaml"] = "kind: skill\nid: bad\nname: Bad\ncategory: nope\norder: 2\n"
    return build_tree(tmp_path / "c", files)


@pytest.mark.parametrize("tree", ["bundled", "broken"])
def test_validate_json_matches_its_published_schema(tree, broken_tree, tmp_path):
    root = COMPENDIUM if tree == "bundled" else broken_tree
    result = run("validate", "--format", "json", "--compendium", str(root))
    report = json.loads(result.stdout)
    assert report["version"] == REPORT_VERSION == 1
    assert report["findings"], "a report with findings to check"
    if tree == "broken":
        assert not report["ok"] and any(f["line"] for f in report["findings"])
    else:
        assert any(f["acknowledged"] for f in report["findings"])
    schema = json.loads(REPORT_SCHEMA.read_text())
    assert schema["$id"] == ID_PREFIX + REPORT_SCHEMA_FILE
    assert errors(schema, report) == []
    saved = tmp_path / "report.json"
    saved.write_text(result.stdout, encoding="utf-8")
    checked = check_jsonschema("--schemafile", str(REPORT_SCHEMA), str(saved))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report["findings"][0]["severity"] = "high"  # closed: a new field is a new shape
    assert errors(schema, report) != []


def test_the_bundled_validation_and_the_export_schema_agree_on_what_is_published(bundled):
    """Every published kind of the bundled compendium is one the export schema lists."""
    listed = set(export_schema()["properties"]["documents"]["properties"])
    published = {e.document.kind for r in bundled.compendium for e in r.entries}
    assert published - {"ruleset"} <= listed and "ruleset" not in listed


def test_the_docs_page_names_every_field_and_the_current_versions():
    page = (REPO / "docs" / "json-export.md").read_text(encoding="utf-8")
    assert json.dumps(FORMAT) in page.replace("`", "")
    report = validate_report_schema()
    for definition in ("JsonFinding", "JsonCounts"):
        for field in report["$defs"][definition]["properties"]:
            assert f"`{field}`" in page, field
    for field in [*report["properties"], *export_schema()["properties"]]:
        assert f"| `{field}` |" in page, field
    assert f"| the report's format version: `{REPORT_VERSION}` |" in page
    commands = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    assert SCHEMA_FILE in commands and REPORT_SCHEMA_FILE in commands
