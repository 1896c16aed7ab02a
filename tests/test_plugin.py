"""A game of one's own: a publisher's package adds a document kind through the
`rulepress.kinds` entry point, and every target shows it, with no change to rulepress.

The package is tests/fixtures/armour-plugin (a model with a resolution method, a section
template and a Foundry mapping, in one module and one template). It is built and installed
with pip into a folder of its own, which the commands find on their PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run, unpack_with_cli

PLUGIN = Path(__file__).parent / "fixtures" / "armour-plugin"
ORIGINAL_PATH = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory) -> dict[str, str]:
    """The environment of a user who has installed rulepress and the armour plugin."""
    root = tmp_path_factory.mktemp("plugin")
    source = shutil.copytree(PLUGIN, root / "source", ignore=shutil.ignore_patterns("compendium"))
    target = root / "site-packages"
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
            "--target", str(target), str(source),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )  # fmt: skip
    assert (target / "rulepress_armour" / "templates" / "markdown" / "sections").is_dir()
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(target), *ORIGINAL_PATH]),
        "RULEPRESS_CACHE_DIR": str(root / "cache"),
    }


@pytest.fixture(scope="module")
def built(plugin_env, tmp_path_factory) -> Path:
    """Every target built from the armour compendium, in a content repository's folder."""
    work = tmp_path_factory.mktemp("content")
    shutil.copytree(PLUGIN / "compendium", work / "compendium")
    result = run("build", cwd=work, env=plugin_env, seconds=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return work / "dist"


def test_the_plugin_kind_validates_and_an_unknown_kind_without_it_is_an_error(plugin_env, tmp_path):
    compendium = shutil.copytree(PLUGIN / "compendium", tmp_path / "compendium")
    with_plugin = run("validate", str(compendium), env=plugin_env)
    assert with_plugin.returncode == 0, with_plugin.stdout
    assert "0 errors" in with_plugin.stdout
    without = run(
        "validate",
        str(compendium),
        env={**plugin_env, "PYTHONPATH": os.pathsep.join(ORIGINAL_PATH)},
    )
    assert without.returncode == 1
    assert "mail-shirt.yaml:1:7: error" in without.stdout
    assert "unknown kind 'armour'" in without.stdout
    assert "once that package is installed" in without.stdout


def test_the_guide_shows_the_kind_in_its_chapter_through_the_plugins_template(built):
    guide = (built / "markdown" / "ironclad.md").read_text(encoding="utf-8")
    assert guide.index("## Introduction") < guide.index("## Armour")
    assert "### Mail Shirt" in guide and "### Plate Harness" in guide
    # the template calls the model's resolution method: 10 damage through protection 3
    assert "| 3 | 12 | 7 |" in guide and "| 6 | 25 | 4 |" in guide
    assert "Rings of iron over a padded coat." in guide


def test_the_site_has_a_page_for_the_kinds_chapter(built):
    page = (built / "site" / "ironclad" / "armour.html").read_text(encoding="utf-8")
    assert "Plate Harness" in page and "Mail Shirt" in page
    assert ">7<" in page  # the resolution method's figure, in the HTML table


def test_the_json_carries_the_kinds_documents(built):
    data = json.loads((built / "json" / "ironclad.json").read_text(encoding="utf-8"))
    armour = {doc["id"]: doc for doc in data["documents"]["armour"]}
    assert armour["plate-harness"] == {
        "kind": "armour",
        "id": "plate-harness",
        "name": "Plate Harness",
        "protection": 6,
        "weight": 25,
    }


def test_the_foundry_module_has_a_pack_of_the_kinds_items(built, foundry_cli, tmp_path):
    module = built / "foundry" / "rulepress-ironclad"
    manifest = json.loads((module / "module.json").read_text(encoding="utf-8"))
    packs = {pack["name"]: pack for pack in manifest["packs"]}
    assert packs["armour"]["type"] == "Item"
    assert packs["armour"]["label"] == "Ironclad Rules: Armour"
    unpacked = unpack_with_cli(foundry_cli, module / "packs" / "armour", tmp_path)
    items = {
        item["name"]: item
        for item in (json.loads(p.read_text(encoding="utf-8")) for p in unpacked.iterdir())
    }
    assert sorted(items) == ["Mail Shirt", "Plate Harness"]
    mail = items["Mail Shirt"]
    assert mail["img"] == "icons/svg/shield.svg"
    assert mail["system"]["weight"] == 12
    assert mail["system"]["attributes"]["protection"]["value"] == 3
    assert "Rings of iron" in mail["system"]["description"]
    assert mail["flags"]["rulepress"]["profile"]["protection"] == 3
    journal = unpacked_names(unpack_with_cli(foundry_cli, module / "packs" / "rules", tmp_path))
    assert {"Introduction", "Armour"} <= journal


def unpacked_names(folder: Path) -> set[str]:
    return {json.loads(p.read_text(encoding="utf-8"))["name"] for p in folder.iterdir()}


def test_rulepress_schema_writes_the_kinds_schema(plugin_env, tmp_path):
    result = run("schema", "--out", str(tmp_path / "schemas"), env=plugin_env)
    assert result.returncode == 0, result.stderr
    schema = json.loads((tmp_path / "schemas" / "armour.schema.json").read_text("utf-8"))
    assert schema["properties"]["protection"]["maximum"] == 20
    union = (tmp_path / "schemas" / "compendium.schema.json").read_text("utf-8")
    assert '"armour"' in union


@pytest.mark.parametrize(
    ("module", "says"),
    [
        ("KINDS = 'armour'\n", "must name a list of rulepress.kinds.Kind"),
        ("KINDS = [1 / 0]\n", "failed to load: division by zero"),
        ("from rulepress.kinds.core import KINDS\n", "kind 'ruleset' is already registered"),
    ],
    ids=["not a list of kinds", "an error on import", "a kind rulepress already has"],
)
def test_a_broken_plugin_is_named_in_a_clear_error(tmp_path, module, says):
    site = tmp_path / "site-packages"
    dist = site / "broken_kinds-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-kinds\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[rulepress.kinds]\nbroken = broken_kinds:KINDS\n")
    (site / "broken_kinds.py").write_text(module)
    compendium = shutil.copytree(PLUGIN / "compendium", tmp_path / "compendium")
    result = run(
        "validate",
        str(compendium),
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *ORIGINAL_PATH])},
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert "entry point 'broken'" in result.stderr and says in result.stderr


def test_a_changed_plugin_builds_afresh(built, plugin_env):
    """The build stamp and the caches count the plugin's code: a no-op build is answered
    from the stamp until the plugin's template changes."""
    work = built.parent
    again = run("build", cwd=work, env=plugin_env, seconds=300)
    assert "up to date" in again.stdout, again.stdout
    template = (
        Path(plugin_env["PYTHONPATH"].split(os.pathsep)[0])
        / "rulepress_armour/templates/markdown/sections/armour.md.j2"
    )
    original = template.read_text(encoding="utf-8")
    try:
        template.write_text(original.replace("A hit of 10 does", "Through it, 10 does"), "utf-8")
        rebuilt = run("build", cwd=work, env=plugin_env, seconds=300)
        assert rebuilt.returncode == 0 and "up to date" not in rebuilt.stdout, rebuilt.stdout
        guide = (built / "markdown" / "ironclad.md").read_text(encoding="utf-8")
        assert "Through it, 10 does" in guide
    finally:
        template.write_text(original, encoding="utf-8")
