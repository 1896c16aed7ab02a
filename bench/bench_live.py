"""How long a live update takes after one weapon file is saved, at 10,000 weapons.

Run: .venv/bin/python bench/bench_live.py [--count N] [--edits N] [--folder DIR]
Writes a synthetic compendium (bench/synthetic.py), keeps it in a LiveCompendium,
updates once (not timed), then saves one weapon at a time with another weight and times
`update` (median of the edits), split into reading the file, the checks and comparing
with the last good state. Beside it, what an update cost before it was incremental: a
whole `validate` through the warm document cache (median of three).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.synthetic import write_compendium  # noqa: E402
from rulepress.compendium.cache import DocumentCache  # noqa: E402
from rulepress.live import LiveCompendium  # noqa: E402
from rulepress.validation import validate  # noqa: E402


def weapon_files(root: Path, edits: int) -> list[Path]:
    """`edits` weapon files spread over the compendium."""
    files = sorted((root / "bench" / "weapons").rglob("*.yaml"))
    step = max(1, len(files) // edits)
    return files[::step][:edits]


def reweighed(path: Path) -> None:
    """Save the weapon with its weight one more: a change no check's index sees."""
    text = path.read_text(encoding="utf-8")
    weight = int(re.search(r"(?m)^weight: (\d+)$", text).group(1))
    path.write_text(re.sub(r"(?m)^weight: \d+$", f"weight: {weight + 1}", text), "utf-8")


def main(argv: list[str] | None = None) -> None:
    """Print the per-phase medians of one-weapon updates, and a whole validation's time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--folder", type=Path, help="reuse (or write) the compendium here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        root = args.folder or Path(temporary) / "compendium"
        if not (root / "bench").is_dir():
            write_compendium(root, args.count)
        started = time.perf_counter()
        live = LiveCompendium(root)
        print(f"{args.count} weapons: first load and check {time.perf_counter() - started:.2f} s")
        files = weapon_files(root, args.edits + 1)
        reweighed(files[0])
        live.update([files[0]])  # the first update: not timed
        phases: dict[str, list[float]] = {"read": [], "checks": [], "compare": [], "total": []}
        for path in files[1:]:
            reweighed(path)
            started = time.perf_counter()
            update = live.update([path])
            phases["total"].append(time.perf_counter() - started)
            assert update.ok and not update.whole, "a one-weapon edit must be incremental"
            for name, seconds in update.phases.items():
                phases[name].append(seconds)
        print(f"one-weapon update, median of {len(files) - 1} edits:")
        for name, values in phases.items():
            print(f"  {name:8} {statistics.median(values) * 1000:8.1f} ms")
        cache = DocumentCache(root)
        whole = []
        for _ in range(3):
            started = time.perf_counter()
            validate(root, cache=cache)
            whole.append(time.perf_counter() - started)
        print(
            f"before (whole validate through the warm cache), median of 3: "
            f"{statistics.median(whole) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
