"""The Foundry module as a release: the URLs Foundry installs and updates it from, the
`_stats` that keep Foundry from migrating its packs, the zip players install."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.exporters import ExportOptions
from rulepress.exporters.foundry.leveldb import read_pack
from rulepress.exporters.foundry.packs.common import CORE_BUILDS, RELEASE_TIME
from tests.helpers import COMPENDIUM, base_tree, build_tree, unpack_with_cli

MODULE = "rulepress-demo"


def demo_build(tmp_path: Path, settings: str = "", options: ExportOptions | None = None) -> Path:
    """The demo compendium, with `settings` as its rulepress.yaml, built for Foundry; the
    `foundry` output folder."""
    build_tree(tmp_path / "c", base_tree())
    if settings:
        (tmp_path / "rulepress.yaml").write_text(settings, encoding="utf-8")
    validation, _ = build(tmp_path / "c", tmp_path / "out", ["foundry"], options)
    assert validation.ok
    return tmp_path / "out" / "foundry"


def manifest_of(foundry: Path) -> dict:
    return json.loads((foundry / MODULE / "module.json").read_text(encoding="utf-8"))


def test_the_manifest_carries_the_release_urls_the_settings_give(tmp_path):
    settings = """
foundry:
  url: https://example.org/rules/{ruleset_id}
  manifest: https://example.org/releases/latest/download/{module}.json
  download: https://example.org/releases/download/v1/{module}.zip
"""
    manifest = manifest_of(demo_build(tmp_path, settings))
    assert manifest["url"] == "https://example.org/rules/demo"
    assert manifest["manifest"] == f"https://example.org/releases/latest/download/{MODULE}.json"
    assert manifest["download"] == f"https://example.org/releases/download/v1/{MODULE}.zip"


def test_the_settings_name_the_modules_and_their_authors(tmp_path):
    settings = """
foundry:
  id_prefix: acme
  title: "{ruleset} (Acme edition)"
  authors:
    - {name: Ada, email: ada@example.org, discord: ada#1}
    - {name: Bo}
"""
    foundry = demo_build(tmp_path, settings)
    assert sorted(p.name for p in foundry.iterdir()) == [
        ".rulepress-output",
        "acme-demo",
        "acme-demo.zip",
    ]
    manifest = json.loads((foundry / "acme-demo" / "module.json").read_text(encoding="utf-8"))
    assert manifest["id"] == "acme-demo"
    assert manifest["title"] == "Demo (Acme edition)"
    assert manifest["authors"] == [
        {"name": "Ada", "email": "ada@example.org", "discord": "ada#1"},
        {"name": "Bo"},
    ]


def test_without_settings_the_sources_authors_are_the_modules(tmp_path):
    manifest = manifest_of(demo_build(tmp_path))
    assert manifest["id"] == MODULE
    assert [author["name"] for author in manifest["authors"]] == ["Tests"]


def test_without_release_urls_the_manifest_has_none(tmp_path):
    manifest = manifest_of(demo_build(tmp_path))
    assert not {"url", "manifest", "download"} & set(manifest)


@pytest.fixture(scope="module", params=[12, 13])
def bundled(request, tmp_path_factory) -> tuple[int, Path]:
    """(version, foundry output) of the bundled compendium built for Foundry `version`."""
    out = tmp_path_factory.mktemp(f"v{request.param}")
    validation, _ = build(
        COMPENDIUM, out, ["foundry"], ExportOptions(foundry_version=request.param)
    )
    assert validation.ok
    return request.param, out / "foundry"


def stored_documents(foundry: Path, tmp: Path) -> dict[str, dict]:
    """Every key and value of every pack of every module (read from copies)."""
    documents = {}
    for pack in sorted(foundry.glob("*/packs/*")):
        copy = tmp / f"{pack.parent.parent.name}-{pack.name}"
        shutil.copytree(pack, copy)
        documents |= {f"{pack.parent.parent.name}/{k}": v for k, v in read_pack(copy).items()}
    return documents


def test_every_document_says_which_foundry_and_system_wrote_it(bundled, tmp_path):
    version, foundry = bundled
    documents = stored_documents(foundry, tmp_path)
    collections = {key.split("!")[1] for key in documents}
    assert {"journal", "journal.pages", "items", "folders", "tables", "macros"} <= collections
    for key, value in documents.items():
        collection = key.split("!")[1]
        if version == 12 and collection == "tables.results":
            assert "_stats" not in value, key  # a v12 TableResult has no _stats
            continue
        stats = value["_stats"]
        assert stats["coreVersion"] == CORE_BUILDS[version]
        assert stats["coreVersion"].split(".")[0] == str(version)
        in_item_pack = collection in ("items", "folders")
        assert stats["systemId"] == ("worldbuilding" if in_item_pack else None), key
        assert (stats["systemVersion"] is not None) == in_item_pack, key
        assert stats["createdTime"] == stats["modifiedTime"] == RELEASE_TIME
        assert ("exportSource" in stats) == (version >= 13), key


def test_the_v12_build_writes_no_v13_only_fields(bundled, tmp_path):
    version, foundry = bundled
    for key, value in stored_documents(foundry, tmp_path).items():
        v13_only = {"categories", "category", "documentUuid"} & set(value)
        if key.split("!")[1] == "tables.results":
            v13_only |= {"name", "description"} & set(value)
        assert not v13_only or version >= 13, (key, v13_only)


def test_each_module_has_a_release_zip_holding_its_folder(tmp_path):
    """All of it but what Foundry does not read: its sources, the packs' lock and log."""
    foundry = demo_build(tmp_path)
    folder = foundry / MODULE
    with zipfile.ZipFile(foundry / f"{MODULE}.zip") as archive:
        names = archive.namelist()
        assert names == sorted(names, key=lambda name: name.rstrip("/").split("/"))
        assert "module.json" in names  # at the root, where the installer looks
        files = {name: archive.read(name) for name in names if not name.endswith("/")}
        folders = {name.rstrip("/") for name in names if name.endswith("/")}
        for entry in archive.infolist():
            assert entry.date_time == (1980, 1, 1, 0, 0, 0)
            assert entry.external_attr >> 16 in (0o100644, 0o040755)
    on_disk = {
        p.relative_to(folder).as_posix(): p
        for p in folder.rglob("*")
        if p.relative_to(folder).parts[0] != "src" and p.name != "LOCK"
    }
    assert files == {name: p.read_bytes() for name, p in on_disk.items() if p.is_file()}
    assert folders == {name for name, p in on_disk.items() if p.is_dir()}


def test_two_builds_give_the_same_zip_bytes(tmp_path):
    first = (demo_build(tmp_path / "a") / f"{MODULE}.zip").read_bytes()
    second = (demo_build(tmp_path / "b") / f"{MODULE}.zip").read_bytes()
    assert first == second


def test_the_official_cli_unpacks_a_pack_taken_from_the_zip(tmp_path, foundry_cli):
    foundry = demo_build(tmp_path)
    installed = tmp_path / "Data" / "modules" / MODULE
    with zipfile.ZipFile(foundry / f"{MODULE}.zip") as archive:
        archive.extractall(installed)
    for pack in sorted((installed / "packs").iterdir()):
        unpacked = unpack_with_cli(foundry_cli, pack, tmp_path)
        theirs = {p.name: json.loads(p.read_text()) for p in unpacked.glob("*.json")}
        ours = foundry / MODULE / "src" / "packs" / pack.name
        assert theirs == {p.name: json.loads(p.read_text()) for p in ours.glob("*.json")}
        assert theirs, pack.name
