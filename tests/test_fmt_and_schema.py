"""`rulepress fmt` and `rulepress schema`, each on small trees built in the test."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from rulepress.commands.fmt import canonical_text, format_paths
from rulepress.commands.schema import render, schemas
from rulepress.compendium.yaml_source import decode_utf8, parse_yaml
from tests.helpers import COMPENDIUM, MESSY_SKILL, REPO, SKILL, build_tree


def test_fmt_puts_keys_in_model_order_and_keeps_comments(tmp_path):
    path = (
        build_tree(tmp_path, {"demo/skills/bio-lore.yaml": MESSY_SKILL})
        / "demo/skills/bio-lore.yaml"
    )
    text = canonical_text(path.read_text(), path)
    assert text.startswith("# Bio Lore: a lore skill.\nkind: skill\nid: bio-lore   # the slug\n")
    assert "traits: [acuity, resolve]\n" in text
    assert "status" not in text  # the default is left out


def test_fmt_twice_changes_nothing_the_second_time(tmp_path):
    build_tree(tmp_path, {"demo/skills/bio-lore.yaml": MESSY_SKILL})
    first = format_paths(tmp_path, check=False)
    second = format_paths(tmp_path, check=False)
    assert len(first.changed) == 1 and second.changed == [] and len(second.unchanged) == 1


def test_fmt_check_exits_1_and_lists_the_files_it_would_change(tmp_path):
    build_tree(tmp_path, {"demo/skills/bio-lore.yaml": MESSY_SKILL, "demo/skills/ok.yaml": SKILL})
    result = subprocess.run(
        [sys.executable, "-m", "rulepress", "fmt", str(tmp_path), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "would reformat" in result.stdout and "bio-lore.yaml" in result.stdout
    assert (tmp_path / "demo/skills/bio-lore.yaml").read_text() == MESSY_SKILL  # untouched


def test_fmt_refuses_a_file_that_does_not_validate(tmp_path):
    build_tree(tmp_path, {"demo/skills/bad.yaml": SKILL.replace("order: 1", "order: one")})
    result = format_paths(tmp_path, check=False)
    assert result.failed and "not valid" in result.failed[0][1]


def test_the_bundled_compendium_is_already_canonical():
    result = format_paths(COMPENDIUM, check=True)
    assert result.failed == [] and result.changed == []


def test_every_bundled_file_validates_against_its_kinds_schema():
    validators = {
        name: jsonschema.Draft202012Validator(schema) for name, schema in schemas().items()
    }
    files = sorted(COMPENDIUM.rglob("*.yaml"))
    assert len(files) > 100
    for path in files:
        data, _ = parse_yaml(decode_utf8(path.read_bytes()), path)
        data = json.loads(json.dumps(data))  # JSON's view of the data (mapping keys as text)
        validators[f"{data['kind']}.schema.json"].validate(data)
        validators["compendium.schema.json"].validate(data)


def test_the_schema_rejects_what_the_models_reject():
    weapon = schemas()["weapon.schema.json"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {"kind": "weapon", "id": "x", "tier": 1, "section": "s", "order": 1, "colour": "red"},
            weapon,
        )


def test_schemas_carry_the_field_docstrings_for_editors():
    weapon = schemas()["weapon.schema.json"]
    assert "as printed" in weapon["properties"]["move_column"]["description"]


def test_the_committed_schemas_are_up_to_date():
    for name, schema in schemas().items():
        assert (REPO / "schemas" / name).read_text() == render(schema), (
            f"run `rulepress schema` ({name})"
        )


def test_the_editor_settings_associate_the_compendium_with_its_schema():
    settings = json.loads((REPO / ".vscode" / "settings.json").read_text())
    assert settings["yaml.schemas"]["./schemas/compendium.schema.json"] == "compendium/**/*.yaml"
