"""The growth run: how a cold build's time and memory grow with the number of documents.

    .venv/bin/python bench/bench_build.py --growth 10000 30000 100000 [--growth-site-max 30000]

For each size it writes a synthetic compendium of that many weapons and runs, each in a
fresh process with an empty cache, `rulepress build` of every target but the site
(Foundry, Markdown, JSON), and, up to `--growth-site-max` documents, of the site (its
pages and the mkdocs build). Each gives its seconds and peak memory, per document and per
document added since the size before (the interpreter's own memory drops out of the
latter). Memory per document is held to MEMORY_PER_DOCUMENT_KB: the build's peak over
the number of documents.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from bench.running import BUILD_TARGETS as BUILD
from bench.synthetic import write_compendium

MEMORY_PER_DOCUMENT_KB = 25
SITE = ("--target", "site")
PROBE = (
    "import resource, subprocess, sys, time; start = time.perf_counter(); "
    "subprocess.run(sys.argv[1:], check=True, capture_output=True); "
    "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)
"""Seconds and peak resident memory (KB) of one command, under a fresh Python whose only
child it is (a process's children's peak would include the earlier ones)."""


def timed_peak(args: list[str], cache: Path, cwd: Path) -> tuple[float, float]:
    """(seconds, peak MB) of one command run with its own empty rulepress cache folder."""
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir(parents=True)
    env = {**os.environ, "RULEPRESS_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=cwd, env=env, check=True, capture_output=True
    )
    seconds, kilobytes = done.stdout.split()
    return float(seconds), int(kilobytes) / 1024


def growth(sizes: list[int], site_max: int, work: Path, repo: Path) -> list[dict]:
    """The figures of each size, smallest first."""
    rows = []
    for size in sorted(sizes):
        folder = work / f"growth-{size}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        root = write_compendium(folder / "compendium", size)
        command = [sys.executable, "-m", "rulepress", "build", str(root)]
        row: dict = {"documents": size}
        out = folder / "out"
        seconds, peak = timed_peak([*command, "--out", str(out), *BUILD], folder / "cache", repo)
        row["build s"], row["build peak MB"] = seconds, peak
        if size <= site_max:
            site = [*command, "--out", str(folder / "site-out"), *SITE]
            row["site s"], row["site peak MB"] = timed_peak(site, folder / "site-cache", repo)
        shutil.rmtree(folder, ignore_errors=True)  # 100,000 documents' outputs are large
        rows.append(row)
        print(".", end="", file=sys.stderr, flush=True)
    return rows


def _per(value: float, documents: int, scale: float) -> float:
    return value * scale / documents if documents else float("nan")


def growth_table(rows: list[dict]) -> str:
    """The growth run as Markdown: per size, seconds and memory, per document and per
    document added; memory per document against its target."""
    lines = [
        "| documents | build s | ms/doc | ms/doc added | build peak MB | KB/doc "
        f"(target < {MEMORY_PER_DOCUMENT_KB}) | KB/doc added | site s | site peak MB |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    previous = None
    for row in rows:
        docs = row["documents"]
        per_doc_kb = _per(row["build peak MB"], docs, 1024)
        mark = "✔" if per_doc_kb < MEMORY_PER_DOCUMENT_KB else "✘"
        added_ms = added_kb = "-"
        if previous is not None:
            more = docs - previous["documents"]
            added_ms = f"{_per(row['build s'] - previous['build s'], more, 1000):.2f}"
            added_kb = f"{_per(row['build peak MB'] - previous['build peak MB'], more, 1024):.1f}"
        site = (
            (f"{row['site s']:.1f}", f"{row['site peak MB']:.0f}")
            if "site s" in row
            else ("-", "-")
        )
        lines.append(
            f"| {docs:,} | {row['build s']:.1f} | {_per(row['build s'], docs, 1000):.2f} | "
            f"{added_ms} | {row['build peak MB']:.0f} | {per_doc_kb:.1f} {mark} | {added_kb} | "
            f"{site[0]} | {site[1]} |"
        )
        previous = row
    return "\n".join(lines)
