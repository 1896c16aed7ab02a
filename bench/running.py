"""The bench's figures of running rulepress processes: `rulepress build --watch` and
`rulepress serve`, driven by real file edits (bench_build.py takes them in its run)."""

from __future__ import annotations

import os
import queue
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from bench.targets import MEMORY_EDITS

REPO = Path(__file__).resolve().parents[1]
BUILD_TARGETS = ("--target", "foundry", "--target", "markdown", "--target", "json")
WATCH_TARGETS = BUILD_TARGETS  # the watch's peak is held to the same build's
WATCH_EDITS = 10
SERVE_EDITS = 5
START_SECONDS = 1800
"""How long a watch or serve process may take to be ready (a first build of 10,000
weapons on a loaded machine)."""
UPDATE_SECONDS = 600
"""How long one edit may take to show before the figure is "not measured"."""


class NotMeasured(Exception):
    """A figure the bench cannot take: a feature missing, a process that stopped or
    refused an edit; its message says why."""


class Running:
    """A long-running rulepress command (`build --watch`, `serve`) with its own cache
    folder; its output lines are read as they come, each with the time it arrived."""

    def __init__(self, args: list[str], cache: Path) -> None:
        env = {**os.environ, "RULEPRESS_CACHE_DIR": str(cache), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            args,
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        )
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:  # type: ignore[union-attr]
            self.lines.put((time.perf_counter(), line.rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def next_line(self, starts: tuple[str, ...], seconds: float) -> float:
        """When the next line starting with one of `starts` arrived. NotMeasured if the
        process ends, keeps the last good output (it refused an edit) or says nothing
        of the kind within `seconds`."""
        deadline = time.perf_counter() + seconds
        while True:
            try:
                arrived, line = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                quiet = f"no line starting {starts[0]!r} within {seconds:.0f} s"
                raise NotMeasured(quiet) from None
            if line is None:
                raise NotMeasured(f"it stopped (exit {self.process.wait()}): {self.last_words()}")
            self.seen = [*self.seen[-4:], line]
            if "kept the last good output" in line:
                raise NotMeasured(f"it refused an edit: {self.last_words()}")
            if line.startswith(starts):
                return arrived

    def drain(self) -> None:
        """Forget the lines read so far; NotMeasured if the process has ended."""
        while not self.lines.empty():
            _, line = self.lines.get()
            if line is None:
                raise NotMeasured(f"it stopped (exit {self.process.wait()}): {self.last_words()}")
            self.seen = [*self.seen[-4:], line]

    def last_words(self) -> str:
        """Its last lines, for a reason."""
        return " / ".join(line.strip() for line in self.seen[-3:] if line.strip()) or "no output"

    def megabytes(self) -> tuple[float, float]:
        """(VmRSS, VmHWM) of the process now, in MB: its resident memory and its peak."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        found = dict(re.findall(r"(?m)^(VmRSS|VmHWM):\s+(\d+) kB", status))
        return int(found["VmRSS"]) / 1024, int(found["VmHWM"]) / 1024

    def stop(self) -> None:
        """End the process (and wait for it)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Edits:
    """Saving one weapon file with a new cost each time, as a contributor does."""

    def __init__(self, path: Path) -> None:
        self.path, self.original = path, path.read_text(encoding="utf-8")
        self.cost = 1000

    def save(self) -> int:
        """Write the file with a cost it never had; return the cost."""
        self.cost += 1
        text = re.sub(r"(?m)^cost: (\d+)$", f"cost: {self.cost}", self.original)
        self.path.write_text(text, encoding="utf-8")
        return self.cost

    def undo(self) -> None:
        """Put the file back as it was."""
        self.path.write_text(self.original, encoding="utf-8")


def shows_cost(text: str, cost: int) -> bool:
    """Whether an output shows `cost` as a figure of its own (not inside an id)."""
    return re.search(rf"(?<![\w-]){cost}(?![\w])", text) is not None


def watch_figures(root: Path, weapon: Path, out: Path, cache: Path) -> dict:
    """A running `build --watch`: seconds from saving one weapon file to its `rebuilt `
    line (median of WATCH_EDITS), and its memory after the first edit and after
    MEMORY_EDITS. NotMeasured when it cannot be taken."""
    args = [sys.executable, "-m", "rulepress", "build", str(root), "--out", str(out)]
    running = Running([*args, *WATCH_TARGETS, "--watch"], cache)
    edits = Edits(weapon)
    try:
        running.next_line(("rebuilt ", "watching", "ready"), START_SECONDS)
        time.sleep(0.5)  # a watcher may start watching just after saying it is ready
        running.drain()
        seconds = []
        for number in range(1, MEMORY_EDITS + 1):
            edits.save()
            saved = time.perf_counter()
            seconds.append(running.next_line(("rebuilt ",), UPDATE_SECONDS) - saved)
            if number == 1:
                first = running.megabytes()
            if number == WATCH_EDITS:
                check_watch_outputs(out, weapon.stem, edits.cost)
        last = running.megabytes()
    finally:
        running.stop()
        edits.undo()
    print(".", end="", file=sys.stderr, flush=True)
    return {
        "watch: one-file update": statistics.median(seconds[:WATCH_EDITS]),
        "watch: MB after 1 edit (RSS)": first[0],
        "watch: MB after 1 edit (peak)": first[1],
        f"watch: MB after {MEMORY_EDITS} edits (RSS)": last[0],
        f"watch: MB after {MEMORY_EDITS} edits (peak)": last[1],
    }


def check_watch_outputs(out: Path, weapon_id: str, cost: int) -> None:
    """The Markdown guide and the weapon's Foundry source file show the cost last saved."""
    guide = out / "markdown" / "bench.md"
    if not (guide.is_file() and f"| {cost} Bar |" in guide.read_text(encoding="utf-8")):
        raise NotMeasured(f"after the last edit the guide {guide} does not show cost {cost}")
    number = weapon_id.removeprefix("weapon-")
    sources = out / "foundry" / "rulepress-bench" / "src" / "packs" / "weapons"
    found = sorted(sources.glob(f"Weapon_{number}_*.json"))
    if len(found) != 1 or not shows_cost(found[0].read_text(encoding="utf-8"), cost):
        raise NotMeasured(f"after the last edit no Foundry source in {sources} shows cost {cost}")


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def served(url: str) -> str | None:
    """The page at `url`, or None while it does not answer."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8", errors="replace")
    except (urllib.error.URLError, OSError):
        return None


def serve_figures(root: Path, weapon: Path, page: str, cache: Path) -> dict:
    """A running `serve`: seconds from saving one weapon file until its page is served
    with the new cost (median of SERVE_EDITS). NotMeasured when it cannot be taken."""
    address = f"127.0.0.1:{free_port()}"
    url = f"http://{address}/{page}"
    running = Running([sys.executable, "-m", "rulepress", "serve", str(root), "-a", address], cache)
    edits = Edits(weapon)

    def wait_for(shown: Callable[[str], bool], seconds: float) -> float:
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            running.drain()  # NotMeasured once it has stopped
            text = served(url)
            if text is not None and shown(text):
                return time.perf_counter()
            time.sleep(0.05)
        raise NotMeasured(f"{url} did not show it within {seconds:.0f} s")

    try:
        wait_for(lambda text: True, START_SECONDS)
        seconds = []
        for _ in range(SERVE_EDITS):
            cost = edits.save()
            saved = time.perf_counter()
            shown = wait_for(lambda text, c=cost: shows_cost(text, c), UPDATE_SECONDS)
            seconds.append(shown - saved)
    finally:
        running.stop()
        edits.undo()
    print(".", end="", file=sys.stderr, flush=True)
    return {"serve: changed page served": statistics.median(seconds)}


def live_figures(name: str, take: Callable[[], dict], keys: list[str]) -> dict:
    """take()'s figures, or each of `keys` as "not measured: <why>"."""
    try:
        return take()
    except NotMeasured as reason:
        print(f"\n{name} not measured: {reason}", file=sys.stderr, flush=True)
        return dict.fromkeys(keys, f"not measured: {reason}")


WATCH_KEYS = [
    "watch: one-file update",
    "watch: MB after 1 edit (RSS)",
    "watch: MB after 1 edit (peak)",
    f"watch: MB after {MEMORY_EDITS} edits (RSS)",
    f"watch: MB after {MEMORY_EDITS} edits (peak)",
]
