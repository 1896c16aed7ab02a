"""Hostile `--templates` folders: a content repository's templates are a pull request's
input too. They render in Jinja's sandbox and are read only as regular files inside
their folder; whatever they try, the build fails with the template's name, exit 2, no
traceback, and the previous output is left as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.exporters import ExportOptions, templating
from tests.helpers import COMPENDIUM, build_tree, run

MARKER = "rulepress-template-pwned"

ESCAPES = {
    "a class's globals": "{{ cycler.__init__.__globals__.os.system('touch MARKER') }}",
    "the object hierarchy": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "a function's globals": "{{ lipsum.__globals__['os'].system('touch MARKER') }}",
    "the template's own module": "{{ self.__init__.__globals__['__builtins__'] }}",
    "a format string": "{{ '{0.__class__.__init__.__globals__}'.format(cycler) }}",
    "a mutating list method": "{% set seen = [] %}{{ seen.append(1) }}",
}


def override(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / "templates"
    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("text", ESCAPES.values(), ids=ESCAPES)
def test_a_template_reaches_no_python_internals(tmp_path, demo, text):
    marker = tmp_path / MARKER
    templates = override(tmp_path, "guide.md.j2", text.replace("MARKER", str(marker)))
    out = tmp_path / "dist"
    build(demo, out, ["markdown"])
    before = (out / "markdown" / "demo.md").read_bytes()
    result = run(
        "build", str(demo), "--target", "markdown", "--templates", str(templates), "--out", str(out)
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert "guide.md.j2:1: template error:" in result.stderr
    assert "unsafe" in result.stderr or "is not safely callable" in result.stderr
    assert not marker.exists()
    assert (out / "markdown" / "demo.md").read_bytes() == before


def outside_secret(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.txt"
    secret.write_text("CI-SECRET-TOKEN\n", encoding="utf-8")
    return secret


def test_a_template_that_links_out_of_its_folder_is_not_read(tmp_path, demo):
    templates = tmp_path / "templates"
    templates.mkdir()
    os.symlink(outside_secret(tmp_path), templates / "guide.md.j2")
    result = run("build", str(demo), "--target", "markdown", "--templates", str(templates))
    assert result.returncode == 2
    assert "guide.md.j2: a link out of the templates folder" in result.stderr
    assert "CI-SECRET-TOKEN" not in result.stdout + result.stderr


def test_an_include_of_a_link_out_of_the_folder_is_not_read(tmp_path, demo):
    templates = override(tmp_path, "guide.md.j2", '{% include "leak.txt" %}\n')
    os.symlink(outside_secret(tmp_path), templates / "leak.txt")
    out = tmp_path / "dist"
    result = run(
        "build", str(demo), "--target", "markdown", "--templates", str(templates), "--out", str(out)
    )
    assert result.returncode == 2
    assert "leak.txt: a link out of the templates folder" in result.stderr
    assert not (out / "markdown").exists()


def test_an_include_that_climbs_out_of_the_folder_is_not_found(tmp_path, demo):
    outside_secret(tmp_path)
    templates = override(tmp_path, "guide.md.j2", '{% include "../secret.txt" %}\n')
    result = run("build", str(demo), "--target", "markdown", "--templates", str(templates))
    assert result.returncode == 2
    assert "CI-SECRET-TOKEN" not in result.stdout + result.stderr


def test_a_link_inside_the_templates_folder_is_followed(tmp_path, demo):
    """A link that stays inside the folder is a publisher's own arrangement, and works."""
    templates = override(tmp_path, "mine/guide.md.j2", "linked guide\n")
    os.symlink(templates / "mine" / "guide.md.j2", templates / "guide.md.j2")
    out = tmp_path / "dist"
    build(demo, out, ["markdown"], ExportOptions(templates=templates))
    assert (out / "markdown" / "demo.md").read_text(encoding="utf-8") == "linked guide\n"


def test_a_named_pipe_as_a_template_is_refused_without_waiting(tmp_path, demo):
    templates = tmp_path / "templates"
    templates.mkdir()
    os.mkfifo(templates / "guide.md.j2")
    result = run("build", str(demo), "--target", "markdown", "--templates", str(templates))
    assert result.returncode == 2
    assert "guide.md.j2: not a regular file (a named pipe); refused" in result.stderr


def test_an_oversized_template_is_refused(tmp_path, demo):
    templates = override(tmp_path, "guide.md.j2", "x" * (1 << 20) + "y\n")
    result = run("build", str(demo), "--target", "markdown", "--templates", str(templates))
    assert result.returncode == 2
    assert "guide.md.j2: larger than 1 MiB; refused" in result.stderr


def test_a_template_that_is_not_utf8_is_refused(tmp_path, demo):
    templates = tmp_path / "templates"
    build_tree(templates, {"guide.md.j2": b"\xff\xfe{{ 1 }}\n"})
    result = run("build", str(demo), "--target", "markdown", "--templates", str(templates))
    assert result.returncode == 2
    assert "guide.md.j2: not UTF-8 text" in result.stderr


@pytest.mark.parametrize("target", ["markdown", "foundry"])
def test_the_sandbox_renders_the_shipped_templates_as_before(tmp_path, target):
    """An empty --templates folder puts every shipped template in the sandbox: the
    output is byte for byte the same as without it."""
    (tmp_path / "empty").mkdir()
    build(COMPENDIUM, tmp_path / "plain", [target], cache=False)
    build(
        COMPENDIUM,
        tmp_path / "boxed",
        [target],
        ExportOptions(templates=tmp_path / "empty"),
        cache=False,
    )
    plain = sorted(
        p for p in (tmp_path / "plain").rglob("*") if p.is_file() and "packs" not in p.parts
    )
    boxed = sorted(
        p for p in (tmp_path / "boxed").rglob("*") if p.is_file() and "packs" not in p.parts
    )
    assert [p.relative_to(tmp_path / "plain") for p in plain] == [
        p.relative_to(tmp_path / "boxed") for p in boxed
    ]
    assert plain, "nothing was built"
    for mine, theirs in zip(plain, boxed, strict=True):
        assert mine.read_bytes() == theirs.read_bytes(), mine


@pytest.mark.parametrize("sandboxed", [True, False], ids=["--templates", "shipped"])
def test_a_template_is_read_once_by_its_environment(tmp_path, sandboxed):
    """Ten thousand documents render the same template: its file is read once, not
    looked at again for each; a file changed after (during a watch) is not read."""
    folder = override(tmp_path, "guide.md.j2", "first")
    shipped = tmp_path / "shipped" if sandboxed else folder
    env = templating.environment(shipped, folder if sandboxed else None)
    assert env.get_template("guide.md.j2").render() == "first"
    (folder / "guide.md.j2").write_text("second", encoding="utf-8")
    later = (folder / "guide.md.j2").stat().st_mtime + 60
    os.utime(folder / "guide.md.j2", (later, later))
    assert env.get_template("guide.md.j2").render() == "first"
