"""`rulepress build --watch` as a user runs it: a real process on a copy of the bundled
compendium, driven through edits; after each, its outputs equal a fresh `build` of the
same files (LevelDB packs by key and value), and when it ends, byte for byte."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.commands.watch import Watch
from rulepress.exporters import ExportOptions
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.squeezed import Squeezed
from rulepress.live import LiveCompendium
from tests.helpers import COMPENDIUM, assert_equal_outputs, contents, edit, run

TARGETS = ("foundry", "markdown", "json")
PISTOLS = "iris/weapons/pistols"
LINE_TIMEOUT = 120  # seconds: generous, a loaded machine is slow, a hung watch is not


class WatchProcess:
    """`rulepress build --watch` running in the background, its output read line by line."""

    def __init__(self, work: Path, out: Path) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "rulepress",
                "build",
                "--watch",
                "compendium",
                "--out",
                str(out),
            ],
            cwd=work,
            env={**os.environ, "RULEPRESS_CACHE_DIR": str(work / "cache")},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()
        self.seen: list[str] = []
        for name in ("stdout", "stderr"):
            stream = getattr(self.process, name)
            threading.Thread(target=self._read, args=(name, stream), daemon=True).start()

    def _read(self, name: str, stream) -> None:
        for line in stream:
            self.lines.put((name, line.rstrip("\n")))

    def wait_for(self, pattern: str) -> list[str]:
        """Every line printed until one matching `pattern` (a regular expression)."""
        printed = []
        while True:
            try:
                _stream, line = self.lines.get(timeout=LINE_TIMEOUT)
            except queue.Empty:
                pytest.fail(f"no line matching {pattern!r} within {LINE_TIMEOUT} s: {printed}")
            printed.append(line)
            self.seen.append(line)
            assert "Traceback" not in line, self.seen
            if re.search(pattern, line):
                return printed

    def end(self) -> int:
        """Send SIGTERM; the exit status."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=LINE_TIMEOUT)
        finally:
            self.process.kill()


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A folder holding a copy of the bundled compendium."""
    shutil.copytree(COMPENDIUM, tmp_path / "compendium")
    return tmp_path


@pytest.fixture
def watching(work: Path) -> Iterator[WatchProcess]:
    """A watch run on `work`, past its first build; killed if the test leaves it running."""
    watch = WatchProcess(work, work / "live")
    try:
        watch.wait_for(r"^watching ")
        yield watch
    finally:
        watch.process.kill()
        watch.process.wait()


def fresh_build(work: Path, name: str) -> Path:
    """A fresh `rulepress build` of the files as they now stand, of the watched targets."""
    out = work / name
    targets = [arg for target in TARGETS for arg in ("--target", target)]
    result = run("build", "compendium", "--out", str(out), "--no-cache", *targets, cwd=work)
    assert result.returncode == 0, result.stderr
    return out


def test_each_saved_file_updates_the_outputs_as_a_fresh_build(
    work: Path, watching: WatchProcess
) -> None:
    root = work / "compendium"
    live = work / "live"
    assert_equal_outputs(live, fresh_build(work, "fresh-0"))

    def step(name: str) -> None:
        watching.wait_for(r"^rebuilt foundry, markdown, json in \d+\.\d{3} s$")
        assert_equal_outputs(live, fresh_build(work, f"fresh-{name}"))

    edit(root / PISTOLS / "hand-cannon.yaml", "cost: 26\n", "cost: 27\n")
    step("changed")

    added = (root / PISTOLS / "hand-cannon.yaml").read_text(encoding="utf-8")
    added = added.replace("id: hand-cannon\n", "id: hand-cannon-mk2\n")
    added = added.replace("name: Hand Cannon\n", "name: Hand Cannon Mk2\n")
    (root / PISTOLS / "hand-cannon-mk2.yaml").write_text(added, encoding="utf-8")
    step("added")

    (root / PISTOLS / "hand-cannon-mk2.yaml").unlink()
    step("deleted")

    renamed = (root / PISTOLS / "hand-cannon.yaml").read_text(encoding="utf-8")
    renamed = renamed.replace("id: hand-cannon\n", "id: hand-gun\nprevious_ids: [hand-cannon]\n")
    (root / PISTOLS / "hand-gun.yaml").write_text(renamed, encoding="utf-8")
    (root / PISTOLS / "hand-cannon.yaml").unlink()
    step("renamed")

    before = contents(live, packs_as_entries=True, zips=True)
    with (root / PISTOLS / "hand-gun.yaml").open("a", encoding="utf-8") as file:
        file.write("cost: [\n")
    printed = watching.wait_for(r"^rulepress: the compendium has errors; kept the last good")
    assert any(re.search(r"hand-gun\.yaml:\d+:\d+: error ", line) for line in printed), printed
    assert contents(live, packs_as_entries=True, zips=True) == before
    fixed = renamed.replace("cost: 27\n", "cost: 28\n")
    (root / PISTOLS / "hand-gun.yaml").write_text(fixed, encoding="utf-8")
    step("fixed")

    edit(root / "iris" / "ruleset.yaml", "title: IRIS Quick Reference\n", "title: IRIS Rules\n")
    step("ruleset")

    assert watching.end() == 0
    assert not any("Traceback" in line for line in watching.seen)
    assert_equal_outputs(live, fresh_build(work, "fresh-end"), exact=True)


def test_ending_leaves_the_outputs_of_a_fresh_build(work: Path, watching: WatchProcess) -> None:
    edit(work / "compendium" / PISTOLS / "hand-cannon.yaml", "cost: 26\n", "cost: 31\n")
    watching.wait_for(r"^rebuilt ")
    assert watching.end() == 0
    assert_equal_outputs(work / "live", fresh_build(work, "fresh"), exact=True)


def test_the_site_is_refused_with_where_to_go(work: Path) -> None:
    result = run("build", "--watch", "--target", "site", "compendium", cwd=work)
    assert result.returncode != 0
    assert "rulepress serve" in result.stderr
    assert not (work / "dist").exists()


class InProcessWatch:
    """A watch run's state without its process: the live compendium and each target's
    live output, built once into `out` (to see which pieces an update renders again)."""

    def __init__(self, work: Path) -> None:
        self.root, self.out = work / "compendium", work / "live"
        self.live = LiveCompendium(self.root)
        validation, _ = build(self.root, self.out, TARGETS, ExportOptions())
        assert validation.ok
        self.watch = Watch(self.live, self.out, TARGETS, ExportOptions())
        self.builds = 0

    def follow(self, *changed: Path) -> dict[str, int]:
        """Apply the update of the `changed` files; how many pieces each target rendered
        again (the outputs are then checked against a fresh build)."""
        update = self.live.update(changed)
        assert update.ok, update.findings
        assert self.watch.apply(update) == []
        self.builds += 1
        fresh = self.root.parent / f"fresh-{self.builds}"
        validation, _ = build(self.root, fresh, TARGETS, ExportOptions())
        assert validation.ok
        assert_equal_outputs(self.out, fresh)
        foundry = self.watch.updaters["foundry"]
        return {
            "foundry": foundry.pieces["iris"].made,
            "markdown": self.watch.updaters["markdown"].pieces[("iris", "")].made,
            "json": self.watch.updaters["json"].pieces[("iris", "")].made,
        }


def test_a_weapon_saved_in_place_renders_only_its_own_pieces(work: Path) -> None:
    watch = InProcessWatch(work)
    cannon = work / "compendium" / PISTOLS / "hand-cannon.yaml"
    edit(cannon, "cost: 26\n", "cost: 27\n")
    first = watch.follow(cannon)  # the first update renders every piece, and keeps them
    journal = watch.out / "foundry" / "rulepress-iris" / "src" / "packs" / "rules"
    before = {path.name: path.stat().st_ino for path in journal.glob("*.json")}
    edit(cannon, "cost: 27\n", "cost: 28\n")
    # its Item, its section's journal page, that page's LevelDB entry and its chapter's
    # journal entry (the tables the Item and the page share live for one render, not
    # among the kept pieces); its section of the guide; its JSON text
    assert watch.follow(cannon) == {"foundry": 4, "markdown": 1, "json": 1}
    edit(cannon, "magazine: 3\n", "magazine: 4\n")
    assert watch.follow(cannon) == {"foundry": 4, "markdown": 1, "json": 1}
    assert all(made > 4 for made in first.values())
    # the other chapters' journal entries were kept: their files left in place
    after = {path.name: path.stat().st_ino for path in journal.glob("*.json")}
    assert after.keys() == before.keys() and len(before) > 2
    assert sum(after[name] != before[name] for name in before) == 1  # the weapons' chapter


def test_an_edit_others_read_renders_the_ruleset_again(work: Path) -> None:
    watch = InProcessWatch(work)
    root = work / "compendium"
    cannon = root / PISTOLS / "hand-cannon.yaml"
    edit(cannon, "cost: 26\n", "cost: 28\n")
    watch.follow(cannon)  # renders every piece, and keeps them
    edit(cannon, "cost: 28\n", "cost: 29\n")
    fast = watch.follow(cannon)
    # its place among the pistols: the Items' order
    edit(cannon, "order: 4\n", "order: 0\n")
    moved = watch.follow(cannon)
    # its section: another folder, another journal page, another guide section
    edit(cannon, "section: pistols\n", "section: shotguns\n")
    assert all(made > fast[target] for target, made in watch.follow(cannon).items())
    # the skill its Item and its section's page name
    skill = root / "iris" / "skills" / "high-caliber-mastery.yaml"
    edit(skill, "name: High-Caliber Mastery\n", "name: Heavy Calibre Mastery\n")
    assert all(made > fast[target] for target, made in watch.follow(skill).items())
    assert all(made > fast[target] for target, made in moved.items())


def test_a_save_that_changes_no_byte_of_a_file_leaves_it_in_place(work: Path, monkeypatch) -> None:
    """A watch compares a JSON file's new parts with those it last wrote (the kept texts,
    the same objects), never with the file read back: a save that changes no byte of it
    leaves the file in place, one that does replaces it."""
    watch = InProcessWatch(work)
    cannon = work / "compendium" / PISTOLS / "hand-cannon.yaml"
    json_file = watch.out / "json" / "iris.json"
    edit(cannon, "cost: 26\n", "cost: 27\n")
    watch.follow(cannon)  # the build's file: compared with the file on disk, once

    digest = OutputFolder.digest

    def read_back(output: OutputFolder, path: Path) -> str | None:
        assert Path(path) != json_file, "the file was read back"
        return digest(output, path)  # the fresh build's, in `follow`

    monkeypatch.setattr(OutputFolder, "digest", read_back)
    before = json_file.stat()
    edit(cannon, "cost: 27\n", "cost: 27  # the same cost\n")
    assert watch.follow(cannon)["json"] == 1  # its text was made again, the same bytes
    assert json_file.stat().st_ino == before.st_ino, "an unchanged file was replaced"
    edit(cannon, "cost: 27  # the same cost\n", "cost: 28\n")
    watch.follow(cannon)
    assert json_file.stat().st_ino != before.st_ino
    assert b'"cost": 28' in json_file.read_bytes()


def test_a_watch_render_settles_each_source_file_as_its_document_comes(
    work: Path, monkeypatch
) -> None:
    """The foundry target's live form writes (or keeps) each document's source file as
    the render adds it, so a pack's files are never all held at once (146 MB at 10,000
    weapons was the watch's peak); the outputs stay a fresh build's."""
    from rulepress.exporters.foundry import live as foundry_live

    keep, held = foundry_live._KeptPack.keep, []

    def counting(pack, ready):
        kept = keep(pack, ready)
        held.append(sum(document.source is not None for document in pack.documents))
        return kept

    monkeypatch.setattr(foundry_live._KeptPack, "keep", counting)
    watch = InProcessWatch(work)
    watch.watch.prime()
    assert len(held) > 20 and max(held) == 0
    # what it keeps between edits: the Items' values compressed, and the values of the
    # journal pages kept as pieces (a section's: the weapons' tables)
    kept = [
        e for entries in watch.watch.updaters["foundry"].entries.values() for e in entries.items()
    ]
    items = [value for key, value in kept if key.startswith("!items!")]
    pages = [value for key, value in kept if key.startswith("!journal.pages!")]
    assert items and all(isinstance(value, Squeezed) for value in items)
    assert sum(isinstance(value, Squeezed) for value in pages) > len(pages) / 2
    cannon = work / "compendium" / PISTOLS / "hand-cannon.yaml"
    edit(cannon, "cost: 26\n", "cost: 27\n")
    watch.follow(cannon)
