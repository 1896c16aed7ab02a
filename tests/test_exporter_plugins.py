"""Exporters from other packages, found through the `rulepress.exporters` entry points:
one that meets the Exporter contract builds like a shipped one, one that does not is
refused by name before anything is written. Each plugin is a real distribution: a
module and a `<name>.dist-info` folder (METADATA, entry_points.txt) on sys.path, which
importlib.metadata finds as it finds an installed package."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.errors import RulepressError
from rulepress.exporters import ExportOptions, available_exporters
from tests.helpers import REPO, run

CONFORMING = '''
from rulepress.exporters import BaseExporter


class Shout(BaseExporter):
    name = "shout"
    description = "each ruleset's title in capitals"

    def export(self, compendium, out, options):
        for ruleset in compendium:
            text = f"{ruleset.info.title.upper()} {options.foundry_version}"
            (out / f"{ruleset.id}.txt").write_text(text, encoding="utf-8")


class Declared:
    """The whole contract written out, without the base class."""

    name = "declared"
    description = "nothing"

    def export(self, compendium, out, options):
        (out / "done").write_text("done", encoding="utf-8")

    def check_replaceable(self, previous):
        pass
'''

NONCONFORMING = '''
class Careless:
    """Writes files, but declares neither a description nor check_replaceable."""

    name = "careless"

    def export(self, compendium, out, options):
        (out / "x").write_text("x", encoding="utf-8")


def broken():
    raise ValueError("half installed")
'''


def install(folder: Path, module: str, source: str, points: dict[str, str]) -> Path:
    """`module` with `source`, and a distribution whose entry points are `points`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{module}.py").write_text(source, encoding="utf-8")
    info = folder / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n", encoding="utf-8"
    )
    lines = [f"{name} = {target}" for name, target in points.items()]
    (info / "entry_points.txt").write_text(
        "[rulepress.exporters]\n" + "\n".join(lines) + "\n", encoding="utf-8"
    )
    return folder


@pytest.fixture
def plugin_path(tmp_path, monkeypatch):
    """Install a plugin on sys.path for this test only (its module forgotten after)."""

    def add(module: str, source: str, points: dict[str, str]) -> Path:
        folder = install(tmp_path / f"site-{module}", module, source, points)
        monkeypatch.syspath_prepend(str(folder))
        monkeypatch.delitem(sys.modules, module, raising=False)
        return folder

    yield add
    for module in ("rulepress_shout", "rulepress_careless"):
        sys.modules.pop(module, None)


def test_a_conforming_plugin_builds_like_a_shipped_exporter(plugin_path, demo, tmp_path):
    points = {"shout": "rulepress_shout:Shout", "declared": "rulepress_shout:Declared"}
    plugin_path("rulepress_shout", CONFORMING, points)
    exporters = available_exporters()
    assert {"foundry", "markdown", "site", "json", "shout", "declared"} <= set(exporters)

    options = ExportOptions(foundry_version=12)
    validation, written = build(demo, tmp_path / "out", ["shout", "declared"], options, cache=True)
    assert validation.ok
    assert written == [tmp_path / "out/shout", tmp_path / "out/declared"]
    texts = [path.read_text(encoding="utf-8") for path in (tmp_path / "out/shout").glob("*.txt")]
    assert texts and all(text.endswith(" 12") for text in texts)
    # built again, the previous output passes BaseExporter's check_replaceable
    validation, _ = build(demo, tmp_path / "out", ["shout"], options)
    assert validation.ok


def test_a_shipped_name_is_never_taken_by_a_plugin(plugin_path):
    plugin_path("rulepress_shout", CONFORMING, {"json": "rulepress_shout:Shout"})
    assert type(available_exporters()["json"]).__module__ == "rulepress.exporters.json_data"


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (
            "rulepress_careless:Careless",
            "exporter entry point 'careless' (rulepress_careless:Careless) in group "
            "rulepress.exporters does not meet the exporter contract: description is not "
            "a str; check_replaceable() is missing",
        ),
        (
            "rulepress_careless:broken",
            "exporter entry point 'careless' (rulepress_careless:broken) in group "
            "rulepress.exporters cannot be loaded: ValueError: half installed",
        ),
        (
            "rulepress_careless:Absent",
            "exporter entry point 'careless' (rulepress_careless:Absent) in group "
            "rulepress.exporters cannot be loaded: AttributeError",
        ),
    ],
)
def test_a_plugin_that_breaks_the_contract_is_refused_by_name(
    target, expected, plugin_path, demo, tmp_path
):
    plugin_path("rulepress_careless", NONCONFORMING, {"careless": target})
    with pytest.raises(RulepressError) as refused:
        available_exporters()
    assert str(refused.value).startswith(expected)
    with pytest.raises(RulepressError):  # even a build of shipped targets only
        build(demo, tmp_path / "out", ["json"])
    assert not (tmp_path / "out").exists()


def test_the_command_line_names_the_refused_plugin(plugin_path, demo, tmp_path):
    folder = plugin_path(
        "rulepress_careless", NONCONFORMING, {"careless": "rulepress_careless:Careless"}
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--no-cache", env=env)
    assert result.returncode == 2, result.stderr
    assert "exporter entry point 'careless' (rulepress_careless:Careless)" in result.stderr
    assert "check_replaceable() is missing" in result.stderr
    assert not (tmp_path / "out").exists()
