"""The Foundry module as a release: the URLs Foundry installs and updates it from."""

from __future__ import annotations

import json
from pathlib import Path

from rulepress.commands.build import build
from rulepress.exporters import ExportOptions
from tests.helpers import base_tree, build_tree

MODULE = "rulepress-demo"


def demo_build(tmp_path: Path, options: ExportOptions | None = None) -> Path:
    """The demo compendium built for Foundry; the `foundry` output folder."""
    build_tree(tmp_path / "c", base_tree())
    validation, _ = build(tmp_path / "c", tmp_path / "out", ["foundry"], options)
    assert validation.ok
    return tmp_path / "out" / "foundry"


def manifest_of(foundry: Path) -> dict:
    return json.loads((foundry / MODULE / "module.json").read_text(encoding="utf-8"))


def test_the_manifest_carries_the_release_urls_it_is_given(tmp_path):
    options = ExportOptions(
        foundry_url="https://example.org/rules",
        foundry_manifest="https://example.org/releases/latest/download/{module}.json",
        foundry_download="https://example.org/releases/download/v1/{module}.zip",
    )
    manifest = manifest_of(demo_build(tmp_path, options))
    assert manifest["url"] == "https://example.org/rules"
    assert manifest["manifest"] == f"https://example.org/releases/latest/download/{MODULE}.json"
    assert manifest["download"] == f"https://example.org/releases/download/v1/{MODULE}.zip"


def test_without_release_urls_the_manifest_has_none(tmp_path):
    manifest = manifest_of(demo_build(tmp_path))
    assert not {"url", "manifest", "download"} & set(manifest)
