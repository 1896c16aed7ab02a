"""`build --watch` after one weapon file is saved, against the official CLI's pack time.

Issue 20's target: one weapon saved -> the foundry, markdown and json outputs updated
within 0.25x the official `fvtt package pack` of the same weapons (median of 10 edits),
and the watch process's memory after 100 edits within 10% of after the first.

Three measures on a synthetic compendium (bench/synthetic.py):
- the watch process as a user runs it: a real file saved, timed until its `rebuilt `
  line (and the seconds it prints: from the end of the burst to the outputs written);
  the first edit renders every piece (the build before it kept none), so it is left out
  of the median and reported apart;
- its resident memory (/proc VmRSS) and its peak (VmHWM) after the first edit and after
  `--memory-edits`;
- the split of one edit in-process: LiveCompendium.update, then each target's update.
The release zips and the fresh pack rewrite, done when the edits stop, are not counted.

    python bench/bench_watch.py [--weapons 10000] [--edits 10] [--memory-edits 100]
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.synthetic import write_compendium  # noqa: E402
from rulepress.commands.build import build  # noqa: E402
from rulepress.commands.watch import Watch  # noqa: E402
from rulepress.exporters import ExportOptions  # noqa: E402
from rulepress.live import LiveCompendium  # noqa: E402

FOUNDRY_CLI = REPO / "tools/foundry-cli/node_modules/@foundryvtt/foundryvtt-cli/fvtt.mjs"
TARGETS = ["foundry", "markdown", "json"]
REBUILT = re.compile(r"^rebuilt .* in (\d+\.\d+) s$")


def weapon_files(root: Path) -> list[Path]:
    """The weapon files under a compendium root, in a fixed order."""
    return sorted(root.glob("*/weapons/*/*.yaml"))


RUN = time.time_ns()
"""Part of every edit's text, so that no save repeats a file's bytes from an earlier run."""


def save_edited(path: Path, number: int) -> None:
    """Save a weapon with another description (its place and names unchanged)."""
    text = path.read_text(encoding="utf-8")
    edited = f"A synthetic weapon (edit {RUN}-{number})"
    text = re.sub(r"A synthetic weapon( \(edit [\d-]+\))?", edited, text)
    path.write_text(text, encoding="utf-8")


class WatchProcess:
    """`rulepress build --watch` in the background, its stdout read line by line."""

    def __init__(self, corpus: Path, out: Path, cache: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rulepress", "build", "--watch", str(corpus), "--out", str(out)]
            + [arg for target in TARGETS for arg in ("--target", target)],
            cwd=REPO,
            env={**os.environ, "RULEPRESS_CACHE_DIR": str(cache)},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: re.Pattern | str, timeout: float = 600) -> re.Match:
        """The match of the next line matching `pattern`."""
        while True:
            line = self.lines.get(timeout=timeout)
            found = re.search(pattern, line)
            if found:
                return found
            if line.startswith("rulepress:"):
                raise RuntimeError(line)

    def memory_megabytes(self, field: str) -> float:
        """The process's resident memory now (`VmRSS`) or at its peak so far (`VmHWM`)."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(rf"{field}:\s+(\d+) kB", status).group(1)) / 1024

    def end(self) -> None:
        """Stop it (SIGTERM) and wait."""
        self.process.terminate()
        self.process.wait(timeout=600)


def watched(corpus: Path, work: Path, edits: int, memory_edits: int) -> dict:
    """Edit after edit against a real watch process: seconds and memory."""
    out, cache = work / "out-watch", work / "cache"
    shutil.rmtree(out, ignore_errors=True)
    files = weapon_files(corpus)
    watch = WatchProcess(corpus, out, cache)
    result: dict = {}
    try:
        watch.wait_for(r"^watching ")
        walls, printed = [], []
        for number in range(max(edits + 1, memory_edits)):
            target = files[(number * 7919) % len(files)]
            started = time.perf_counter()
            save_edited(target, number)
            seconds = float(watch.wait_for(REBUILT).group(1))
            wall = time.perf_counter() - started
            if number == 0:
                result["first edit (renders every piece), s"] = wall
                result["rss after 1 edit, MB"] = watch.memory_megabytes("VmRSS")
                result["peak rss after 1 edit, MB"] = watch.memory_megabytes("VmHWM")
            elif number <= edits:
                walls.append(wall)
                printed.append(seconds)
            print(".", end="", file=sys.stderr, flush=True)
        result["median of edits, wall s (save -> rebuilt line)"] = statistics.median(walls)
        result["median of edits, printed s (after the burst)"] = statistics.median(printed)
        result["slowest edit, wall s"] = max(walls)
        last = max(edits + 1, memory_edits)
        result[f"rss after {last} edits, MB"] = watch.memory_megabytes("VmRSS")
        result[f"peak rss after {last} edits, MB"] = watch.memory_megabytes("VmHWM")
    finally:
        watch.end()
    return result


def split(corpus: Path, work: Path) -> dict:
    """One weapon edit in-process, phase by phase (after a warm-up edit)."""
    out = work / "out-split"
    shutil.rmtree(out, ignore_errors=True)
    live = LiveCompendium(corpus)
    build(corpus, out, TARGETS, ExportOptions(), cache=True)
    watch = Watch(live, out, TARGETS, ExportOptions())
    target = weapon_files(corpus)[1234]
    phases: dict = {}
    for number in range(3):
        save_edited(target, 1000 + number)
        started = time.perf_counter()
        update = live.update([target])
        phases["LiveCompendium.update"] = time.perf_counter() - started
        for name, exporter in watch.targets.items():
            started = time.perf_counter()
            watch._apply_to(name, exporter, update.changes)
            phases[f"{name} update"] = time.perf_counter() - started
    return phases  # the last edit's


def fvtt_pack_seconds(sources: Path, work: Path, repeats: int = 3) -> float | None:
    """Median seconds of the official CLI packing the same weapons' source files."""
    node = shutil.which("node")
    if not node or not FOUNDRY_CLI.is_file() or not sources.is_dir():
        return None
    times = []
    for _ in range(repeats):
        target = work / "fvtt"
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        started = time.perf_counter()
        command = [node, str(FOUNDRY_CLI), "package", "pack", "-n", "weapons"]
        subprocess.run(
            [*command, "--in", str(sources), "--out", str(target)],
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weapons", type=int, default=10_000)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--memory-edits", type=int, default=100)
    default_work = Path(tempfile.gettempdir()) / "rulepress-bench-watch"
    parser.add_argument("--work", type=Path, default=default_work)
    args = parser.parse_args()
    work = args.work / str(args.weapons)
    corpus = work / "corpus" / "bench"
    if len(weapon_files(corpus.parent)) != args.weapons:  # written once, kept for the next run
        shutil.rmtree(work / "corpus", ignore_errors=True)
        write_compendium(work / "corpus", args.weapons)
    rows = {"weapons": args.weapons, **watched(corpus.parent, work, args.edits, args.memory_edits)}
    rows.update(split(corpus.parent, work))
    sources = work / "out-split" / "foundry" / "rulepress-bench" / "src" / "packs" / "weapons"
    anchor = fvtt_pack_seconds(sources, work)
    if anchor is not None:
        rows["anchor: fvtt package pack, s"] = anchor
        median = rows["median of edits, wall s (save -> rebuilt line)"]
        rows["median edit / fvtt pack (target 0.25)"] = median / anchor
    print(file=sys.stderr)
    for name, value in rows.items():
        print(f"{name:55} {value:.3f}" if isinstance(value, float) else f"{name:55} {value}")


if __name__ == "__main__":
    main()
