"""Faults: a build killed part-way leaves the previous outputs whole and loadable; two
builds into one folder at once do not corrupt it; a killed build's leftovers are tidied."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from rulepress.exporters.output import MARKER_NAME, marker_text, output_lock
from tests.helpers import COMPENDIUM, unpack_with_cli

TARGETS = ("foundry", "markdown", "json")


def start_build(out: Path) -> subprocess.Popen:
    args = [sys.executable, "-m", "rulepress", "build", str(COMPENDIUM), "--out", str(out)]
    for target in TARGETS:
        args += ["--target", target]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def snapshot(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and not p.name.startswith(".rulepress")
    }


def unpacks(foundry_cli: list[str], pack: Path, tmp: Path) -> int:
    return len(list(unpack_with_cli(foundry_cli, pack, tmp).glob("*.json")))


def test_a_build_killed_part_way_leaves_the_previous_outputs_whole(tmp_path, foundry_cli):
    out = tmp_path / "dist"
    first = start_build(out)
    assert first.wait(timeout=300) == 0
    before = snapshot(out)
    generator = random.Random(7)
    for attempt in range(6):
        build = start_build(out)
        time.sleep(generator.uniform(0.3, 2.5))
        build.send_signal(signal.SIGKILL)
        build.wait()
        visible = {k: v for k, v in snapshot(out).items() if not k.startswith(".")}
        for target in TARGETS:
            # each target is whole: the previous output, or the killed build's complete
            # one (the same bytes); absent only if killed between the swap's two renames
            part = {k: v for k, v in visible.items() if k.startswith(f"{target}/")}
            whole = {k: v for k, v in before.items() if k.startswith(f"{target}/")}
            assert part in (whole, {}), (attempt, target)
    rebuilt = start_build(out)
    assert rebuilt.wait(timeout=300) == 0
    assert snapshot(out) == before
    assert sorted(p.name for p in out.iterdir()) == [".rulepress-build.lock", *sorted(TARGETS)]
    for pack in sorted(out.glob("foundry/*/packs/*")):
        assert unpacks(foundry_cli, pack, tmp_path) > 0


def test_two_builds_at_once_into_one_folder_do_not_corrupt_it(tmp_path, foundry_cli):
    out, reference = tmp_path / "dist", tmp_path / "reference"
    builds = [start_build(out), start_build(out)]
    assert [b.wait(timeout=300) for b in builds] == [0, 0]
    assert start_build(reference).wait(timeout=300) == 0
    assert snapshot(out) == snapshot(reference)
    manifest = json.loads((out / "foundry/rulepress-iris/module.json").read_text())
    for pack in manifest["packs"]:
        assert unpacks(foundry_cli, out / "foundry/rulepress-iris" / pack["path"], tmp_path) > 0


def test_a_swap_cut_between_its_renames_is_undone_by_the_next_build(tmp_path):
    out = tmp_path / "dist"
    (out / ".json.retired-4242").mkdir(parents=True)
    (out / ".json.retired-4242" / "iris.json").write_text("{}")
    (out / ".json.retired-4242" / MARKER_NAME).write_bytes(marker_text(Path("json")))
    (out / ".markdown.staging-abc").mkdir()  # as a build makes it: with the mark
    (out / ".markdown.staging-abc" / MARKER_NAME).write_bytes(marker_text(Path("markdown")))
    with output_lock(out):
        pass
    assert (out / "json" / "iris.json").read_text() == "{}"
    assert not (out / ".markdown.staging-abc").exists()
