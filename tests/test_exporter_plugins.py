"""Exporters from other packages, found through the `rulepress.exporters` entry points:
one that meets the Exporter contract builds like a shipped one, one that does not is
refused by name before anything is written. Each plugin is a real distribution: a
module and a `<name>.dist-info` folder (METADATA, entry_points.txt) on sys.path, which
importlib.metadata finds as it finds an installed package."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.commands.watch import Watch
from rulepress.errors import RulepressError
from rulepress.exporters import ExportOptions, available_exporters
from rulepress.live import LiveCompendium
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


LIVE = '''
from rulepress.exporters import BaseExporter

CALLS = []


class Counts:
    """Each ruleset's number of documents, written again in place for the rulesets named."""

    def __init__(self, output, target):
        self.output, self.target = output, target

    def update(self, compendium, rulesets, removed, steady=()):
        for ruleset_id in rulesets:
            CALLS.append(("update", ruleset_id))
            count = len(compendium.ruleset(ruleset_id).entries)
            self.output.write(self.target / f"{ruleset_id}.txt", str(count).encode())

    def finish(self):
        CALLS.append(("finish",))


class Counted(BaseExporter):
    name = "counted"
    description = "each ruleset's number of documents"

    def export(self, compendium, out, options):
        CALLS.append(("export",))
        for ruleset in compendium:
            (out / f"{ruleset.id}.txt").write_text(str(len(ruleset.entries)), encoding="utf-8")

    def live(self, output, target, options):
        CALLS.append(("live", target.name))
        return Counts(output, target)


class Whole(BaseExporter):
    """No live form: exported whole on each change."""

    name = "whole"
    description = "exported whole"

    def export(self, compendium, out, options):
        CALLS.append(("whole",))
        (out / "done").write_text("done", encoding="utf-8")


class Odd(Whole):
    name = "odd"
    live = "not a method"
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
    for module in ("rulepress_shout", "rulepress_careless", "rulepress_counted"):
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


def test_build_watch_updates_a_plugin_target_through_its_live_form(plugin_path, demo, tmp_path):
    points = {
        "counted": "rulepress_counted:Counted",
        "whole": "rulepress_counted:Whole",
        "declared": "rulepress_shout:Declared",  # the contract written before `live`
    }
    plugin_path("rulepress_counted", LIVE, points)
    plugin_path("rulepress_shout", CONFORMING, {})
    calls = importlib.import_module("rulepress_counted").CALLS
    out, targets = tmp_path / "out", ["counted", "whole", "declared"]
    validation, _ = build(demo, out, targets, ExportOptions())
    assert validation.ok
    watch = Watch(LiveCompendium(demo), out, targets, ExportOptions())
    watch.prime()
    assert calls == [("export",), ("whole",), ("live", "counted"), ("update", "demo")]
    assert watch.updaters["whole"] is None and watch.updaters["declared"] is None

    calls.clear()
    added = demo / "demo/traits/grit.yaml"
    added.write_text("kind: trait\nid: grit\nname: Grit\norder: 3\n", encoding="utf-8")
    assert watch.apply(watch.live.update([added])) == []
    assert calls == [("update", "demo"), ("whole",)]  # the plugin's own form, not export
    assert (out / "counted/demo.txt").read_text(encoding="utf-8") == "6"
    assert watch.finish() == []
    assert calls[-1] == ("finish",)


def test_a_live_that_is_no_method_is_refused(plugin_path):
    plugin_path("rulepress_counted", LIVE, {"odd": "rulepress_counted:Odd"})
    with pytest.raises(RulepressError, match="does not meet the exporter contract: live is not"):
        available_exporters()
