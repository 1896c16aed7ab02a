"""A release as Foundry reads it, on real builds: the module.json an `init --github`
repository's release carries (per-tag zip, latest manifest, the optional links, an HTML
description), what its zip holds, and the release workflow's refusal of a tag that is not
the modules' version, run as the workflow runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from rulepress.commands.build import build
from rulepress.commands.init import init_repository
from tests.helpers import RULESET, RULESET_FILE, base_tree, build_tree, unpack_with_cli

RELEASES = "https://github.com/me/iron-oath/releases"
MODULE = "me-iron-oath"
SUMMARY = "Rules for `rulepress init` users & <friends>: a ``code ` span`` too."


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    """A repository `init --github me/iron-oath` wrote, built for Foundry (v13, the default)."""
    folder = tmp_path_factory.mktemp("release") / "iron-oath"
    init_repository(folder, title="Iron Oath", github="me/iron-oath")
    validation, _ = build(folder / "compendium", folder / "dist", ["foundry"])
    assert validation.ok
    return folder


@pytest.fixture(scope="module")
def manifest(content) -> dict:
    text = (content / "dist/foundry" / MODULE / "module.json").read_text(encoding="utf-8")
    return json.loads(text)


def test_the_zip_is_this_releases_and_the_manifest_the_latest(manifest):
    assert manifest["version"] == "0.1.0"
    # an older release's manifest installs its own zip, never the newest
    assert manifest["download"] == f"{RELEASES}/download/v0.1.0/{MODULE}.zip"
    assert manifest["manifest"] == f"{RELEASES}/latest/download/{MODULE}.json"


def test_the_optional_links_default_from_the_github_repository(manifest):
    repository = "https://github.com/me/iron-oath"
    assert manifest["url"] == repository
    assert manifest["readme"] == f"{repository}#readme"
    assert manifest["bugs"] == f"{repository}/issues"
    assert manifest["changelog"] == f"{repository}/releases"
    assert "license" not in manifest  # init writes no LICENSE: no link to a missing page


def test_the_settings_give_every_link_and_the_version_in_any_of_them(tmp_path):
    build_tree(tmp_path / "c", base_tree())
    links = {
        "url": "https://example.org/{ruleset_id}",
        "manifest": "https://example.org/latest/{module}.json",
        "download": "https://example.org/v{version}/{module}.zip",
        "license": "https://example.org/license-{version}.txt",
        "readme": "https://example.org/readme",
        "bugs": "https://example.org/bugs",
        "changelog": "https://example.org/{module}/changes",
    }
    (tmp_path / "rulepress.yaml").write_text(yaml.safe_dump({"foundry": links}), "utf-8")
    validation, _ = build(tmp_path / "c", tmp_path / "out", ["foundry"])
    assert validation.ok
    module = json.loads((tmp_path / "out/foundry/rulepress-demo/module.json").read_text())
    assert {name: module[name] for name in links} == {
        "url": "https://example.org/demo",
        "manifest": "https://example.org/latest/rulepress-demo.json",
        "download": "https://example.org/v1.0.0/rulepress-demo.zip",
        "license": "https://example.org/license-1.0.0.txt",
        "readme": "https://example.org/readme",
        "bugs": "https://example.org/bugs",
        "changelog": "https://example.org/rulepress-demo/changes",
    }


def test_the_description_is_html_with_no_markdown_left(tmp_path):
    summary = json.dumps(SUMMARY)  # a YAML string too
    tree = {**base_tree(), RULESET_FILE: RULESET.replace("A tiny ruleset for tests.", summary)}
    build_tree(tmp_path / "c", tree)
    validation, _ = build(tmp_path / "c", tmp_path / "out", ["foundry"])
    assert validation.ok
    module = json.loads((tmp_path / "out/foundry/rulepress-demo/module.json").read_text())
    assert module["description"] == (
        "<p>Rules for <code>rulepress init</code> users &amp; &lt;friends&gt;: a "
        "<code>code ` span</code> too.</p><p>Written for the tests.</p>"
    )


def test_an_init_repositorys_description_shows_no_backticks(manifest):
    assert "`" not in manifest["description"]
    assert "<code>rulepress init</code>" in manifest["description"]


def test_the_zip_holds_what_foundry_reads_and_nothing_else(content):
    foundry = content / "dist/foundry"
    with zipfile.ZipFile(foundry / f"{MODULE}.zip") as archive:
        names = archive.namelist()
    assert "module.json" in names
    assert not [name for name in names if name.split("/")[0] == "src"]
    assert not [name for name in names if name.split("/")[-1] in ("LOCK", "LOG", "LOG.old")]
    packs = {name.split("/")[1] for name in names if name.startswith("packs/") and name != "packs/"}
    assert packs == {"rules"}
    for pack in packs:  # a LevelDB Foundry opens: its current manifest and its tables
        inside = [name.split("/")[-1] for name in names if name.startswith(f"packs/{pack}/")]
        assert "CURRENT" in inside and any(n.startswith("MANIFEST-") for n in inside)
        assert any(n.endswith(".ldb") for n in inside), inside
    # the module folder keeps its sources: only the release leaves them out
    assert (foundry / MODULE / "src" / "packs" / "rules").is_dir()


def test_the_official_cli_reads_the_packs_of_the_installed_zip(content, tmp_path, foundry_cli):
    installed = tmp_path / "Data" / "modules" / MODULE
    with zipfile.ZipFile(content / "dist/foundry" / f"{MODULE}.zip") as archive:
        archive.extractall(installed)
    sources = content / "dist/foundry" / MODULE / "src" / "packs" / "rules"
    unpacked = unpack_with_cli(foundry_cli, installed / "packs" / "rules", tmp_path)
    theirs = {p.name: json.loads(p.read_text()) for p in unpacked.glob("*.json")}
    assert theirs and theirs == {p.name: json.loads(p.read_text()) for p in sources.glob("*.json")}


# --- The release workflow's check of the tag ---------------------------------------------


def tag_check(content: Path) -> dict:
    """The release workflow's step that checks the tag."""
    workflow = yaml.safe_load((content / ".github/workflows/release.yml").read_text())
    steps = workflow["jobs"]["release"]["steps"]
    names = [step.get("name") for step in steps]
    check = names.index("Refuse a tag that is not the modules' version")
    assert check < names.index("Attach the outputs to the release")  # before anything is released
    assert "rulepress build" in steps[check - 1]["run"]  # after the build that writes module.json
    return steps[check]


def run_tag_check(content: Path, tag: str) -> subprocess.CompletedProcess:
    """The step as the runner runs it (`shell: python`: the script as a file, in the
    repository, with the tag in GITHUB_REF_NAME)."""
    step = tag_check(content)
    assert step["shell"] == "python"
    script = content.parent / "tag-check.py"
    script.write_text(step["run"], encoding="utf-8")
    env = {**os.environ, "GITHUB_REF_NAME": tag}
    return subprocess.run(
        [sys.executable, str(script)], cwd=content, env=env, capture_output=True, text=True
    )


def test_the_release_goes_on_for_the_tag_of_the_version(content):
    checked = run_tag_check(content, "v0.1.0")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "::error" not in checked.stdout and "::warning" not in checked.stdout


@pytest.mark.parametrize("tag", ["v0.2.0", "v0.1", "0.1.0", "v0.1.0-rc1"])
def test_a_tag_that_is_not_the_version_is_refused(content, tag):
    checked = run_tag_check(content, tag)
    assert checked.returncode == 1
    assert checked.stdout.startswith(f"::error::the tag {tag} is not v + the version")
    assert f"{MODULE} is version 0.1.0 (ruleset iron-oath)" in checked.stdout
    assert "nothing was released" in checked.stdout


def test_a_download_url_naming_no_tag_is_warned_of(content, tmp_path):
    """A publisher whose settings still send every manifest to the latest zip."""
    copy = tmp_path / "repo"
    module = copy / "dist/foundry" / MODULE / "module.json"
    module.parent.mkdir(parents=True)
    data = json.loads((content / "dist/foundry" / MODULE / "module.json").read_text())
    data["download"] = f"{RELEASES}/latest/download/{MODULE}.zip"
    module.write_text(json.dumps(data), encoding="utf-8")
    (copy / ".github/workflows").mkdir(parents=True)
    (copy / ".github/workflows/release.yml").write_bytes(
        (content / ".github/workflows/release.yml").read_bytes()
    )
    checked = run_tag_check(copy, "v0.1.0")
    assert checked.returncode == 0
    assert checked.stdout.startswith(f"::warning::{MODULE}: its download URL names no tag v0.1.0")


def test_a_build_with_no_module_releases_nothing(tmp_path, content):
    (tmp_path / "repo/.github/workflows").mkdir(parents=True)
    (tmp_path / "repo/.github/workflows/release.yml").write_bytes(
        (content / ".github/workflows/release.yml").read_bytes()
    )
    checked = run_tag_check(tmp_path / "repo", "v0.1.0")
    assert checked.returncode == 1
    assert checked.stdout == "::error::the build wrote no Foundry module; nothing was released\n"
