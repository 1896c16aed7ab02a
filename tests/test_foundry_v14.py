"""The Foundry v14 target: its packs read back by the official CLI, and its documents and
manifest field by field against documents and manifests taken from real v14 packs
(tests/fixtures/foundry-v14/, each naming the repository, commit and file it was cut
from). What v14 changed, and why the targets declare what they do: docs/foundry-v14.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.exporters import ExportOptions
from rulepress.exporters.foundry import FOUNDRY_VERSIONS
from tests.helpers import COMPENDIUM, REPO, unpack_with_cli

REAL = Path(__file__).parent / "fixtures" / "foundry-v14"
MODULE = "rulepress-iris"  # the bundled module with every kind of pack

PAGE_FIELDS_LEFT_TO_FOUNDRY = frozenset({"category", "image", "src", "system", "video"})
"""What a real v14 text page carries and ours leave out: fields with a default that
Foundry fills on load (no category, no image caption, no src, no system data, video
defaults)."""
NULLABLE = {"folder", "documentUuid", "color", "author"}
"""Fields a real document may fill where ours hold null (a folder, a linked document)."""


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[int, Path]:
    """The bundled compendium built for v13 and for v14."""
    out = tmp_path_factory.mktemp("builds")
    for version in (13, 14):
        build(COMPENDIUM, out / str(version), ["foundry"], ExportOptions(foundry_version=version))
    return {version: out / str(version) / "foundry" for version in (13, 14)}


def real(name: str) -> dict:
    document = json.loads((REAL / name).read_text(encoding="utf-8"))
    assert document.pop("//").startswith("MetaMorphic-Digital/draw-steel@")  # where it is from
    return document


def ours(folder: Path, collection: str) -> list[dict]:
    sources = sorted((folder / MODULE / "src" / "packs").glob("*/*.json"))
    documents = [json.loads(path.read_text(encoding="utf-8")) for path in sources]
    found = [d for d in documents if d["_key"].startswith(f"!{collection}!")]
    assert found, collection
    return found


def assert_same_fields(
    mine: dict, theirs: dict, where: str, left_out: frozenset[str] = frozenset()
) -> None:
    """The same fields as the real document (but `left_out`), each holding the same JSON
    type; `_stats` with every field the real one has."""
    assert set(mine) == set(theirs) - left_out, where
    for field in mine:
        if mine[field] is None and field in NULLABLE:
            continue
        assert type(mine[field]) is type(theirs[field]), f"{where}.{field}"
    if "_stats" in theirs:
        assert set(theirs["_stats"]) <= set(mine["_stats"]), where


@pytest.mark.parametrize("version", [14])
def test_the_v14_packs_read_back_through_the_official_cli(builds, foundry_cli, tmp_path, version):
    packs = sorted((builds[version] / MODULE / "packs").iterdir())
    assert {pack.name for pack in packs} == {"macros", "rules", "tables", "weapons"}
    for pack in packs:
        unpacked = unpack_with_cli(foundry_cli, pack, tmp_path)
        mine = {
            p.name: json.loads(p.read_text())
            for p in (pack.parent.parent / "src" / "packs" / pack.name).glob("*.json")
        }
        theirs = {p.name: json.loads(p.read_text()) for p in unpacked.glob("*.json")}
        assert mine and theirs == mine, pack.name
        stamps = {d["_stats"]["coreVersion"] for d in theirs.values()}
        assert stamps == {"14.359"}, pack.name  # v14's first stable build, never a newer one


def test_an_item_and_its_folder_have_the_fields_of_a_v14_export(builds):
    items = ours(builds[14], "items")
    assert_same_fields(items[0], real("item.json"), "Item")
    (folder, *_) = ours(builds[14], "folders")
    assert_same_fields(folder, real("folder.json"), "Folder")
    assert folder["type"] == real("folder.json")["type"] == "Item"
    assert real("item.json")["_stats"]["coreVersion"].startswith("14.")  # re-exported by v14
    assert real("folder.json")["_stats"]["coreVersion"].startswith("14.")


def test_a_journal_and_its_pages_have_the_fields_of_a_v14_pack(builds):
    theirs = real("journal.json")
    for entry in ours(builds[14], "journal"):
        assert_same_fields(entry, theirs, "JournalEntry")
        assert entry["categories"] == []
        for page in entry["pages"]:
            assert_same_fields(page, theirs["pages"][0], "page", PAGE_FIELDS_LEFT_TO_FOUNDRY)
            assert page["type"] == theirs["pages"][0]["type"] == "text"
            assert page["text"]["format"] in (1, 2) and page["text"]["content"]
            assert set(page["title"]) == set(theirs["pages"][0]["title"])
            assert page["ownership"] == {"default": -1}


def test_a_roll_table_and_its_results_have_the_fields_of_a_v14_pack(builds):
    theirs = real("table.json")
    for table in ours(builds[14], "tables"):
        assert_same_fields(table, theirs, "RollTable")
        for result in table["results"]:
            assert_same_fields(result, theirs["results"][0], "TableResult")
            assert result["type"] in ("text", "document")  # v13's types; v14 kept them
            assert isinstance(result["weight"], int) and result["weight"] >= 1
            lo, hi = result["range"]
            assert isinstance(lo, int) and isinstance(hi, int) and lo <= hi


def test_a_macro_has_the_v14_macro_fields(builds):
    """No real v14 pack found holds a Macro: its fields are the v14 types' Macro schema
    (foundry-vtt-types 14.366.0, unchanged from v13; docs/foundry-v14.md)."""
    for macro in ours(builds[14], "macros"):
        assert set(macro) - {"_key"} == {
            "_id", "name", "type", "author", "img", "scope", "command",
            "folder", "sort", "ownership", "flags", "_stats",
        }  # fmt: skip
        assert (macro["type"], macro["scope"]) == ("script", "global")
        assert "DialogV2" in macro["command"]


def test_v13_and_v14_documents_differ_only_in_their_stamp(builds):
    """v14 changed none of the fields of our documents (docs/foundry-v14.md): the two
    builds' sources are the same but for `_stats.coreVersion`."""

    def unstamped(value: object) -> object:
        if isinstance(value, dict):
            return {k: "STAMP" if k == "coreVersion" else unstamped(v) for k, v in value.items()}
        if isinstance(value, list):
            return [unstamped(v) for v in value]
        return value

    for source in sorted((builds[14] / MODULE / "src").rglob("*.json")):
        twin = builds[13] / source.relative_to(builds[14])
        v14, v13 = json.loads(source.read_text()), json.loads(twin.read_text())
        assert v13["_stats"]["coreVersion"] == "13.341"
        assert v14["_stats"]["coreVersion"] == "14.359"
        assert unstamped(v14) == unstamped(v13), source.name


def test_each_target_declares_its_own_generation(builds):
    for version in (13, 14):
        manifest = json.loads((builds[version] / MODULE / "module.json").read_text())
        assert manifest["compatibility"] == {"minimum": str(version), "verified": str(version)}
    systems = json.loads((REAL / "manifests.json").read_text(encoding="utf-8"))
    v14_only = systems["draw-steel"]["compatibility"]
    assert v14_only["minimum"].startswith("14.") and v14_only["verified"] == "14"
    manifest = json.loads((builds[14] / MODULE / "module.json").read_text())
    for pack in manifest["packs"]:  # the fields a real v14 manifest's packs have
        assert {"name", "label", "path", "type"} <= set(pack)
        assert set(pack) <= {"name", "label", "path", "type", "system", "ownership", "flags"}


def test_a_plain_build_targets_v14_and_the_option_offers_every_generation():
    assert ExportOptions().foundry_version == 14
    assert FOUNDRY_VERSIONS == (12, 13, 14)
    result = subprocess.run(
        [sys.executable, "-m", "rulepress", "build", "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    listed = " ".join(result.stdout.split())  # help text is wrapped
    assert "--foundry-version [12|13|14]" in listed and "default: 14" in listed
