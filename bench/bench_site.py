"""The site alone: page generation and `mkdocs build`, beside the libyaml floor, in one run.

    .venv/bin/python bench/bench_site.py [--size 10000] [--repeats 3] [--profile FILE]

It writes the synthetic compendium of bench/synthetic.py, then measures what
bench/bench_build.py measures for the site (`generate`, then `run_mkdocs` once) and
its floor (PyYAML's libyaml loader over the same files, median of the repeats), and
prints (pages + mkdocs) / floor against the target of issue 30 (<= 2x). With
`--profile FILE`, mkdocs runs under cProfile instead (slower; its time is not the
figure) and the profile's top entries by cumulative time are printed.
"""

from __future__ import annotations

import argparse
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.synthetic import write_compendium  # noqa: E402
from rulepress.compendium.loader import load_compendium  # noqa: E402
from rulepress.exporters.site import mkdocs_command, run_mkdocs  # noqa: E402
from rulepress.exporters.site.pages import generate  # noqa: E402

TARGET = 2.0


def timed(function, repeats: int) -> float:
    """Median seconds of `repeats` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def profiled(config: Path, site: Path, out: Path) -> None:
    """`mkdocs build` of `config` under cProfile, its profile written to `out`."""
    command = mkdocs_command("build", "--strict", "--quiet", "-f", str(config), "-d", str(site))
    command[1:1] = ["-m", "cProfile", "-o", str(out)]
    subprocess.run(command, check=True, env={**os.environ, "SOURCE_DATE_EPOCH": "0"})
    pstats.Stats(str(out)).sort_stats("cumulative").print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulepress-bench-site-") as folder:
        work = Path(folder)
        root = write_compendium(work / "compendium", args.size)
        texts = [path.read_bytes() for path in sorted(root.rglob("*.yaml"))]
        compendium = load_compendium(root).compendium
        start = time.perf_counter()
        config = generate(compendium, work / "project")
        pages = time.perf_counter() - start
        if args.profile:
            profiled(config, work / "site", args.profile.resolve())
            return
        start = time.perf_counter()
        run_mkdocs(config, work / "site")
        mkdocs = time.perf_counter() - start
        # the floor as bench_build.py takes it: libyaml parsing the same files
        floor = timed(lambda: [yaml.load(t, Loader=yaml.CSafeLoader) for t in texts], args.repeats)
        html = sum(1 for _ in (work / "site").rglob("*.html"))
    print(f"{args.size:,} weapons, {html:,} pages")
    print(f"site pages       {pages:8.1f} s")
    print(f"mkdocs build     {mkdocs:8.1f} s")
    print(f"libyaml floor    {floor:8.1f} s")
    print(
        f"site: pages + mkdocs build / libyaml floor = {pages:.1f} s + {mkdocs:.1f} s / "
        f"{floor:.1f} s = {(pages + mkdocs) / floor:.2f}x (target <= {TARGET:g}x)"
    )


if __name__ == "__main__":
    main()
