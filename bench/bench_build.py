"""How long `rulepress build` takes on large compendia, beside the floors and the anchor.

    .venv/bin/python bench/bench_build.py [--sizes 1000 10000] [--repeats 3] [--json FILE]

For each size it writes a synthetic compendium of that many weapon documents (30-row AP
table, description, a section and skill reference each), then measures in one run, as
medians of the repeats:
- each stage of a build: load (parse + models), validate (cross-document checks),
  Foundry export, Markdown export, site page generation; the mkdocs build once;
- the floors: parsing the same files with PyYAML's libyaml loader, `json.loads` of the
  same documents, and a bare plyvel write batch of the same Foundry values;
- the anchor: the official Foundry CLI's `fvtt package pack` of the same documents as
  ready JSON;
- loading again from the document cache;
- `rulepress build` as a user runs it: a first build (empty cache), a no-op rebuild, a
  rebuild after one file changed, and the bare `python -c "import rulepress"` start;
- peak memory of a first `rulepress build` (empty cache), alone in its process tree.
It prints a table of seconds and ratios and writes it as JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import plyvel
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.synthetic import write_compendium  # noqa: E402
from rulepress.compendium.cache import DocumentCache  # noqa: E402
from rulepress.compendium.loader import load_compendium  # noqa: E402
from rulepress.exporters import ExportOptions  # noqa: E402
from rulepress.exporters.foundry import FoundryExporter  # noqa: E402
from rulepress.exporters.foundry.leveldb import encode  # noqa: E402
from rulepress.exporters.markdown_guide import MarkdownExporter  # noqa: E402
from rulepress.exporters.site import run_mkdocs  # noqa: E402
from rulepress.exporters.site.pages import generate  # noqa: E402
from rulepress.validators import run_checks  # noqa: E402

FOUNDRY_CLI = REPO / "tools/foundry-cli/node_modules/@foundryvtt/foundryvtt-cli/fvtt.mjs"
BUILD_TARGETS = ("--target", "foundry", "--target", "markdown")


def timed(function: Callable[[], object], repeats: int) -> float:
    """Median seconds of `repeats` calls (progress goes to stderr)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    print(".", end="", file=sys.stderr, flush=True)
    return statistics.median(times)


def fresh(folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def run(args: list[str], cache: Path, cwd: Path = REPO) -> None:
    """Run a command with its own rulepress cache folder."""
    env = {**os.environ, "RULEPRESS_CACHE_DIR": str(cache)}
    subprocess.run(args, cwd=cwd, env=env, check=True, capture_output=True)


def peak_megabytes(args: list[str], cache: Path) -> float:
    """Peak resident memory of one command. It runs under a fresh Python whose only child
    it is: this process's children's peak would include the earlier ones (mkdocs, node)."""
    probe = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    env = {**os.environ, "RULEPRESS_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], cwd=REPO, env=env, check=True, capture_output=True
    )
    return int(done.stdout) / 1024


def cli_seconds(args: list[str], repeats: int, cache: Path) -> float:
    return timed(lambda: run(args, cache), repeats)


def measure(size: int, repeats: int, work: Path) -> dict:
    root = write_compendium(fresh(work / f"compendium-{size}"), size)
    files = sorted(root.rglob("*.yaml"))
    texts = [path.read_bytes() for path in files]
    result: dict = {"documents": size, "files": len(files)}

    loaded = {}

    def load() -> None:
        loaded["result"] = load_compendium(root)

    result["load"] = timed(load, repeats)
    compendium = loaded["result"].compendium
    cache_folder = work / f"cache-{size}"
    load_compendium(root, DocumentCache(root, cache_folder))  # fill the document cache
    result["load, cached"] = timed(
        lambda: load_compendium(root, DocumentCache(root, cache_folder)), repeats
    )
    result["validate"] = timed(lambda: run_checks(compendium), repeats)
    out = work / f"out-{size}"
    result["foundry"] = timed(
        lambda: FoundryExporter().export(compendium, fresh(out / "f"), ExportOptions()), repeats
    )
    result["markdown"] = timed(
        lambda: MarkdownExporter().export(compendium, fresh(out / "m"), ExportOptions()), repeats
    )
    result["site pages"] = timed(lambda: generate(compendium, fresh(out / "s")), repeats)
    start = time.perf_counter()
    run_mkdocs(out / "s" / "mkdocs.yml", fresh(out / "site"))
    result["mkdocs build"] = time.perf_counter() - start
    result["cold build"] = sum(result[k] for k in ("load", "validate", "foundry", "markdown"))

    result["floor: libyaml parse"] = timed(
        lambda: [yaml.load(text, Loader=yaml.CSafeLoader) for text in texts], repeats
    )
    documents = [json.dumps(yaml.load(text, Loader=yaml.CSafeLoader)) for text in texts]
    result["floor: json.loads"] = timed(lambda: [json.loads(d) for d in documents], repeats)
    pack_sources = out / "f" / "rulepress-bench" / "src" / "packs" / "weapons"
    values = [json.loads(p.read_text()) for p in sorted(pack_sources.glob("*.json"))]
    entries = sorted(
        (v["_key"].encode(), encode({k: x for k, x in v.items() if k != "_key"})) for v in values
    )

    def bare_plyvel() -> None:
        db = plyvel.DB(str(fresh(out / "plyvel") / "pack"), create_if_missing=True)
        with db.write_batch() as batch:
            for key, value in entries:
                batch.put(key, value)
        db.compact_range()
        db.close()

    result["floor: plyvel batch"] = timed(bare_plyvel, repeats)
    node = shutil.which("node")
    if node and FOUNDRY_CLI.is_file():
        result["anchor: fvtt package pack"] = timed(
            lambda: subprocess.run(
                [
                    node,
                    str(FOUNDRY_CLI),
                    "package",
                    "pack",
                    "-n",
                    "weapons",
                    "--in",
                    str(pack_sources),
                    "--out",
                    str(fresh(out / "fvtt")),
                ],
                check=True,
                capture_output=True,
            ),
            repeats,
        )

    build = [
        sys.executable,
        "-m",
        "rulepress",
        "build",
        str(root),
        "--out",
        str(out / "dist"),
        *BUILD_TARGETS,
    ]
    cli_cache = work / f"cli-cache-{size}"
    result["first build (CLI)"] = timed(
        lambda: run(build, fresh(cli_cache)), 1
    )  # empty cache: parses everything, then fills the cache
    result["no-op rebuild"] = cli_seconds(build, repeats, cli_cache)
    changed = files[-1]  # the last weapon: its section's top tier, so a dearer cost is fine
    original = changed.read_text()
    edits = iter(range(1, 1_000_000))

    def one_changed() -> None:
        # a new figure each time: every rebuild really has one file to read again
        changed.write_text(re.sub(r"(?m)^cost: (\d+)$", f"cost: {1000 + next(edits)}", original))
        run(build, cli_cache)

    result["one-file rebuild"] = timed(one_changed, repeats)
    changed.write_text(original)
    result["peak memory MB"] = peak_megabytes(
        [*build[:5], "--out", str(out / "peak"), *BUILD_TARGETS], fresh(work / "peak-cache")
    )
    return result


def bundled_noop(repeats: int, work: Path) -> dict:
    out = work / "bundled"
    build = [sys.executable, "-m", "rulepress", "build", "--out", str(out)]
    cache = fresh(work / "bundled-cache")
    run(build, cache)
    return {
        "bare import": cli_seconds([sys.executable, "-c", "import rulepress"], repeats * 5, cache),
        "bundled no-op rebuild": cli_seconds(build, repeats * 5, cache),
    }


def table(results: list[dict], bundled: dict) -> str:
    lines = [f"{'stage':<28}" + "".join(f"{r['documents']:>14,} docs" for r in results)]
    keys = [k for k in results[0] if k not in ("documents", "files")]
    for key in keys:
        cells = "".join(f"{r.get(key, float('nan')):>19.3f}" for r in results)
        lines.append(f"{key:<28}{cells}")
    lines.append("")
    for r in results:
        floor = r["floor: libyaml parse"]
        anchor = r.get("anchor: fvtt package pack")
        lines.append(
            f"{r['documents']:,} docs: cold build / libyaml floor = "
            f"{r['cold build'] / floor:.2f}x (target <= 2x); load / floor = "
            f"{r['load'] / floor:.2f}x"
        )
        if anchor:
            lines.append(
                f"{r['documents']:,} docs: one-file rebuild / fvtt pack = "
                f"{r['one-file rebuild'] / anchor:.2f}x (target < 1x)"
            )
        lines.append(
            f"{r['documents']:,} docs: peak memory {r['peak memory MB']:.0f} MB (target < 500 MB)"
        )
    if len(results) > 1:
        a, b = results[0], results[-1]
        growth = b["mkdocs build"] / a["mkdocs build"]
        lines.append(
            f"mkdocs build grows {growth:.1f}x from {a['documents']:,} to "
            f"{b['documents']:,} documents ({b['documents'] / a['documents']:.0f}x)"
        )
    lines.append(
        f"bundled no-op rebuild {bundled['bundled no-op rebuild']:.3f} s, bare import "
        f"{bundled['bare import']:.3f} s: "
        f"{bundled['bundled no-op rebuild'] / bundled['bare import']:.2f}x (target <= 1.5x)"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, default=REPO / "bench" / "results.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulepress-bench-") as folder:
        work = Path(folder)
        results = [measure(size, args.repeats, work) for size in args.sizes]
        bundled = bundled_noop(args.repeats, work)
    print(table(results, bundled))
    args.json.write_text(json.dumps({"sizes": results, "bundled": bundled}, indent=2) + "\n")
    print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
