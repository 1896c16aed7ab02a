"""Hostile sources: code and files a pull request can plant for rulepress to pick up.

- Code: a plugin declared by a `*.dist-info` in the working folder, a module shadowing
  one rulepress imports, `sitecustomize.py` and `.pth` files, run by the real
  `python -m rulepress` and the `rulepress` script. None of it runs (a marker file it
  would write never appears), and discovery in-process sees none of it.
- Files: the settings file and the files it names (logo, favicon, stylesheets) and the
  compendium's own files, reached through links that leave the repository, lead into
  `.git/`, go out and back in, or named under `.git/` or with `..`. Each is refused with a
  finding, and no output (text or `--format github`) holds a byte of the foreign file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulepress import caching, cli
from rulepress.compendium.settings import load_settings
from rulepress.environment import entry_points, installed_path
from rulepress.files import RefusedFile, inside
from rulepress.validation import validate
from tests.helpers import base_tree, build_tree, git, run

SECRET = "ghp_s3cretT0kenFromTheRunner"
"""A token as GitHub's checkout leaves it in .git/config: it must never be printed."""
GIT_CONFIG = (
    "[core]\n\trepositoryformatversion = 0\n"
    f'[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic {SECRET}\n'
)
FOREIGN_SETTINGS = f"{SECRET}: 1\nother_{SECRET}: 2\n"
"""A file outside the repository whose top-level keys would be reported as unknown."""
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'


# --- Code from the working folder -------------------------------------------------------------

PLUGIN = "import pathlib\npathlib.Path({marker!r}).write_text('ran')\nKINDS = []\n"


def plant_plugin(folder: Path, group: str = "rulepress.kinds") -> Path:
    """An `evil` distribution declaring an entry point in `group`, and the module it names,
    which writes a marker file when imported; the marker's path."""
    marker = folder / "MARKER"
    info = folder / "evil-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evil\nVersion: 0\n", "utf-8")
    (info / "entry_points.txt").write_text(f"[{group}]\nevil = evil_plugin:KINDS\n", "utf-8")
    (folder / "evil_plugin.py").write_text(PLUGIN.format(marker=str(marker)), "utf-8")
    return marker


def working_folder(tmp_path: Path) -> Path:
    """A content repository (the demo compendium in `compendium/`) to run rulepress in."""
    build_tree(tmp_path / "compendium", base_tree())
    return tmp_path


@pytest.mark.parametrize(
    ("group", "command"),
    [
        ("rulepress.kinds", ["validate", "compendium", "--no-cache"]),
        ("rulepress.exporters", ["build", "compendium", "--target", "json", "--no-cache"]),
    ],
    ids=["kinds", "exporters"],
)
def test_a_plugin_declared_in_the_working_folder_is_not_run_by_python_m(tmp_path, group, command):
    marker = plant_plugin(working_folder(tmp_path), group)
    result = run(*command, cwd=tmp_path)
    assert not marker.exists(), "plugin discovery ran code from the working folder"
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_plugin_declared_in_the_working_folder_is_not_run_by_the_script(tmp_path):
    marker = plant_plugin(working_folder(tmp_path))
    script = Path(sys.executable).with_name("rulepress")
    result = subprocess.run(
        [str(script), "validate", "compendium", "--no-cache"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert not marker.exists()
    assert result.returncode == 0, result.stdout + result.stderr


SHADOWS = {
    "hashlib.py": "a module the launcher imports",
    "yaml.py": "a library the loader imports",
    "click.py": "the command line's library",
    "sitecustomize.py": "what site imports at start",
    "usercustomize.py": "what site imports at start",
}


@pytest.mark.parametrize("name", sorted(SHADOWS))
def test_a_module_in_the_working_folder_is_never_imported(tmp_path, name):
    folder = working_folder(tmp_path)
    marker = folder / "MARKER"
    code = f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\nraise ImportError\n"
    (folder / name).write_text(code, "utf-8")
    (folder / "evil.pth").write_text(f"import pathlib; pathlib.Path({str(marker)!r}).touch()\n")
    result = run("validate", "compendium", "--no-cache", cwd=folder)
    assert not marker.exists(), f"{name} ({SHADOWS[name]}) was imported from the working folder"
    assert result.returncode == 0, result.stdout + result.stderr


def test_discovery_in_process_never_sees_the_working_folder(tmp_path, monkeypatch):
    marker = plant_plugin(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend("")  # as `python -c` or an interactive session has it
    monkeypatch.syspath_prepend(str(tmp_path))  # as `python -m` has it
    assert "" not in installed_path() and str(tmp_path) not in installed_path()
    assert [point.name for point in entry_points("rulepress.kinds")] == []
    # the caches' digest of plugin code does not look there either
    assert str(tmp_path / "evil_plugin.py") not in caching._plugin_folders.__wrapped__()
    assert not marker.exists()


# --- The resolver: links, .git and `..` -------------------------------------------------------


def repository(tmp_path: Path, settings: str = "") -> Path:
    """A content repository with a .git holding a token, the demo compendium, and
    `settings` as its rulepress.yaml; beside it (outside), a foreign settings file."""
    repo = tmp_path / "repo"
    build_tree(repo / "compendium", base_tree())
    (repo / ".git").mkdir()
    (repo / ".git" / "config").write_text(GIT_CONFIG, "utf-8")
    (repo / "rulepress.yaml").write_text(settings, "utf-8")
    (tmp_path / "foreign.yaml").write_text(FOREIGN_SETTINGS, "utf-8")
    return repo


def outputs(repo: Path, capsys, *extra: str) -> tuple[int, str]:
    """`rulepress validate compendium EXTRA` run in-process in `repo`: its exit code and
    everything it printed."""
    cwd = os.getcwd()
    os.chdir(repo)
    try:
        code = cli.run(["validate", "compendium", "--no-cache", *extra])
    finally:
        os.chdir(cwd)
    printed = capsys.readouterr()
    return code, printed.out + printed.err


@pytest.mark.parametrize(
    ("target", "why"),
    [
        ("../foreign.yaml", "points outside the repository"),
        (".git/config", "points into .git"),
    ],
    ids=["outside", "into .git"],
)
@pytest.mark.parametrize("fmt", ["text", "github"])
def test_a_linked_settings_file_is_refused_before_it_is_parsed(tmp_path, capsys, target, why, fmt):
    repo = repository(tmp_path)
    (repo / "rulepress.yaml").unlink()
    (repo / "rulepress.yaml").symlink_to(target)
    code, printed = outputs(repo, capsys, "--format", fmt)
    assert code == 1, printed
    assert SECRET not in printed and "repositoryformatversion" not in printed
    assert "RP008" in printed and why in printed, printed
    assert "RP101" not in printed  # nothing of its content became a finding


def test_serve_refuses_a_linked_settings_file_named_on_the_command_line(tmp_path):
    """serve resolved the path it was given, so the link was gone before it was read."""
    repo = repository(tmp_path)
    (repo / "rulepress.yaml").unlink()
    (repo / "rulepress.yaml").symlink_to("../foreign.yaml")
    result = run(
        "serve", "compendium", "--settings", "rulepress.yaml", "-a", "127.0.0.1:58765", cwd=repo
    )
    assert result.returncode == 1  # errors at the start: it never serves
    assert "rulepress.yaml:1:1: error RP008: settings file points outside" in result.stdout
    assert SECRET not in result.stdout + result.stderr


NAMED = [
    ("logo", "site:\n  logo: art/logo.svg\n", "art/logo.svg", "2:9"),
    ("favicon", "site:\n  favicon: art/icon.svg\n", "art/icon.svg", "2:12"),
    ("extra_css.0", "site:\n  extra_css: [art/house.css]\n", "art/house.css", "2:15"),
]
TARGETS = {
    "into .git": ("../.git/config", "points into .git"),
    "outside": ("../../foreign.yaml", "points outside the repository"),
    "out and back in": (None, "points outside the repository"),
}


@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize(("setting", "settings", "name", "place"), NAMED, ids=[n[0] for n in NAMED])
def test_a_named_file_through_a_bad_link_is_refused_unread(
    tmp_path, setting, settings, name, place, target
):
    repo = repository(tmp_path, settings)
    (repo / "art").mkdir()
    (repo / "art" / "real.svg").write_bytes(SVG)
    link, why = TARGETS[target]
    if link is None:  # out of the repository and back into it: still a way out
        (tmp_path / "elsewhere").mkdir()
        (tmp_path / "elsewhere" / "hop").symlink_to(repo / "art" / "real.svg")
        link = "../../elsewhere/hop"
    (repo / name).symlink_to(link)
    publisher, findings = load_settings(repo / "rulepress.yaml")
    assert publisher.assets == {}, "a foreign file's bytes would be published"
    found = [f"{f.line}:{f.col} {f.code} {f.message}" for f in findings]
    assert found == [f"{place} RP010 site.{setting}: {name}: {why}; refused"], found


def test_a_stylesheet_linked_into_git_is_not_published_and_github_output_holds_no_secret(
    tmp_path, capsys
):
    repo = repository(tmp_path, "site:\n  extra_css: [art/house.css]\n")
    (repo / "art").mkdir()
    (repo / "art" / "house.css").symlink_to("../.git/config")
    code, printed = outputs(repo, capsys, "--format", "github")
    assert code == 1
    assert "::error file=rulepress.yaml,line=2,col=15" in printed, printed
    assert SECRET not in printed


@pytest.mark.parametrize(
    "settings",
    ["site:\n  extra_css: [.git/config]\n", "site:\n  extra_css: [art/../../foreign.css]\n"],
    ids=["named under .git", "dot-dot traversal"],
)
def test_a_named_path_into_git_or_up_is_refused_at_the_setting(tmp_path, settings):
    repo = repository(tmp_path, settings)
    (tmp_path / "foreign.css").write_text(SECRET, "utf-8")
    publisher, findings = load_settings(repo / "rulepress.yaml")
    assert publisher.assets == {}
    assert [(f.code, f.line, f.col) for f in findings] == [("RP105", 2, 15)]
    assert all(SECRET not in f.message for f in findings)


def test_a_compendium_file_linked_into_git_is_refused(tmp_path, capsys):
    """The repository itself validated as the compendium: its .git is inside the root,
    so only the resolver's rule about .git keeps a linked file out of it."""
    repo = tmp_path / "repo"
    build_tree(repo, base_tree())
    git(repo, "init", "-q")
    (repo / ".git" / "config").write_text("kind: trait\nid: " + SECRET.lower() + "\n", "utf-8")
    (repo / "demo" / "traits" / "stolen.yaml").symlink_to("../../.git/config")
    validation = validate(repo)
    refused = [f for f in validation.findings if f.code == "RP008"]
    assert [f.file for f in refused] == [repo / "demo" / "traits" / "stolen.yaml"]
    assert "points into .git" in refused[0].message
    assert all(SECRET.lower() not in f.message for f in validation.findings)


def test_a_compendium_link_that_goes_out_and_back_in_is_refused(tmp_path):
    root = build_tree(tmp_path / "c", base_tree())
    traits = root / "demo" / "traits"
    (traits / "acuity.yaml").rename(root / "demo" / "acuity.txt")  # not a document: not walked
    (tmp_path / "hop").symlink_to(root / "demo" / "acuity.txt")  # outside the compendium
    (traits / "acuity.yaml").symlink_to("../../../hop")
    validation = validate(root)
    refused = [f for f in validation.findings if f.code == "RP008"]
    assert [f.file for f in refused] == [root / "demo" / "traits" / "acuity.yaml"]


def test_a_compendium_folder_linked_out_of_the_checkout_is_never_walked(tmp_path):
    away = build_tree(tmp_path / "runner-home", base_tree())
    (away / "demo" / "traits" / "token.yaml").write_text(f"{SECRET}: 1\n", "utf-8")
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "compendium").symlink_to(away)
    result = run("validate", "compendium", "--no-cache", cwd=checkout)
    assert result.returncode == 2
    assert "compendium folder compendium points outside the working folder" in result.stderr
    assert SECRET not in result.stdout + result.stderr
    # the same folder named by its own path is the user's choice
    assert run("validate", str(away), "--no-cache", cwd=checkout).returncode == 1


# --- The resolver itself ----------------------------------------------------------------------


def test_the_resolver_follows_links_that_stay_inside(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "a.css").write_text("a", "utf-8")
    (tmp_path / "b.css").symlink_to("art/a.css")
    (tmp_path / "up").symlink_to("art/../art")
    assert inside(tmp_path, "b.css") == str((tmp_path / "art" / "a.css").resolve())
    assert inside(tmp_path, "up/a.css") == str((tmp_path / "art" / "a.css").resolve())


@pytest.mark.parametrize(
    ("make", "relative", "why"),
    [
        (lambda root: (root / "loop").symlink_to("loop"), "loop", "loop of links"),
        (lambda root: (root / "abs").symlink_to("/etc/hostname"), "abs", "outside"),
        (lambda root: (root / "g").symlink_to(".GIT"), "g/config", "into .git"),
        (lambda root: None, "sub/.git/config", "into .git"),
        (lambda root: None, "../x", "outside"),
    ],
    ids=["a loop", "an absolute link out", ".git by another case", "a nested .git", "up"],
)
def test_the_resolver_refuses_every_way_out(tmp_path, make, relative, why):
    (tmp_path / ".GIT").mkdir()
    (tmp_path / "sub" / ".git").mkdir(parents=True)
    make(tmp_path)
    with pytest.raises(RefusedFile, match=why):
        inside(tmp_path, relative)
