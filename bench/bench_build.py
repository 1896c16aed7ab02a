"""How long `rulepress build` takes on large compendia, beside the floors and the anchor.

    .venv/bin/python bench/bench_build.py [--sizes 1000 10000] [--repeats 3] [--json FILE]
    .venv/bin/python bench/bench_build.py --quick     # 1,000 weapons, one run: a fast check
    .venv/bin/python bench/bench_build.py --sizes 10000 --growth 10000 30000 100000

For each size it writes a synthetic compendium of that many weapon documents (30-row AP
table, description, a section and skill reference each), then measures in one run, as
medians of the repeats (the stages, floors and anchor in turn, round by round: `in_turn`):
- the cold build: `rulepress build` (Foundry, Markdown, JSON) as a user runs it, with an
  empty cache, into a new folder; and each of its stages, load (parse + models, no
  cache), validate (cross-document checks), Foundry, Markdown and JSON exports, timed in
  a Python of their own as the build runs them (`BUILD_STAGES`); the site: its pages,
  generated here as the build does (the loaded objects frozen), and their mkdocs build;
- the floors: parsing the same files with PyYAML's libyaml loader, `json.loads` of the
  same documents, a bare plyvel write batch of the same Foundry values, and the Foundry
  export's writes alone (its files, packs and zip written again from memory);
- the anchor: the official Foundry CLI's `fvtt package pack` of the same documents as
  ready JSON;
- loading again from the document cache;
- `rulepress build` as a user runs it again: a no-op rebuild, a rebuild after one file
  changed, and the bare `python -c "import rulepress"` start in turn with the bundled
  compendium's no-op rebuild (NOOP_ROUNDS rounds); every Python the bench starts runs
  from compiled bytecode, as an installed rulepress does;
- peak memory of a first `rulepress build` (empty cache), alone in its process tree;
- a running `rulepress build --watch` (bench/running.py: Foundry, Markdown, JSON),
  driven by real file edits: the time from saving one weapon file to its `rebuilt `
  line (median of 10), the outputs checked to hold the new figure, and its memory after
  the first edit and after 100;
- a running `rulepress serve`: the time from saving one weapon file to its page served
  with the new figure (median of 5);
- the site's pages with the Changes page's history, the compendium committed to git
  with six more commits that each change one weapon: loaded without a cache, and cached.
A figure that cannot be taken (a rulepress without `--watch`, a process that stopped)
is "not measured: <why>", in the table and in the JSON.
It prints a table of seconds, then for each size issue 30's table: every figure beside
its target with a pass mark (bench/targets.py), all from this one run; and writes it all
as JSON. `--growth` adds the growth run (bench/growth.py): a cold build of every target
but the site at each size given, and of the site up to `--growth-site-max` documents,
with seconds and memory per document.
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

from bench.growth import growth, growth_table  # noqa: E402
from bench.running import BUILD_TARGETS, WATCH_KEYS, live_figures, serve_figures, watch_figures  # noqa: E402
from bench.synthetic import write_compendium  # noqa: E402
from bench.targets import HISTORY_COMMITS, MEMORY_EDITS, report  # noqa: E402
from rulepress.commands.build import loaded_objects_frozen  # noqa: E402
from rulepress.compendium.cache import DocumentCache  # noqa: E402
from rulepress.compendium.loader import load_compendium  # noqa: E402
from rulepress.exporters import ExportOptions  # noqa: E402
from rulepress.exporters.foundry import FoundryExporter  # noqa: E402
from rulepress.exporters.foundry.leveldb import encode, read_entries, write_entries  # noqa: E402
from rulepress.exporters.foundry.release import write_release_zip  # noqa: E402
from rulepress.exporters.guide import chapters, section_of  # noqa: E402
from rulepress.exporters.output_folder import OutputFolder  # noqa: E402
from rulepress.exporters.site import run_mkdocs  # noqa: E402
from rulepress.exporters.site.pages import generate  # noqa: E402
from rulepress.exporters.site.places import page_of  # noqa: E402

FOUNDRY_CLI = REPO / "tools/foundry-cli/node_modules/@foundryvtt/foundryvtt-cli/fvtt.mjs"
BUILD_STAGES = """
import json, sys, time
from pathlib import Path
from rulepress.commands.build import loaded_objects_frozen
from rulepress.compendium.loader import load_compendium
from rulepress.exporters import ExportOptions
from rulepress.exporters.foundry import FoundryExporter
from rulepress.exporters.foundry.module_writer import writer_forked_early
from rulepress.exporters.json_data import JsonExporter
from rulepress.exporters.markdown_guide import MarkdownExporter
from rulepress.validators import run_checks

root, out = map(Path, sys.argv[1:])
seconds = {}
with writer_forked_early():
    start = time.perf_counter()
    compendium = load_compendium(root).compendium
    seconds["load"] = time.perf_counter() - start
    start = time.perf_counter()
    run_checks(compendium)
    seconds["validate"] = time.perf_counter() - start
    with loaded_objects_frozen():
        for exporter in (FoundryExporter(), MarkdownExporter(), JsonExporter()):
            start = time.perf_counter()
            exporter.export(compendium, out / exporter.name, ExportOptions())
            seconds[exporter.name] = time.perf_counter() - start
print(json.dumps(seconds))
"""
"""The stages of a cold `rulepress build` (commands/build.py) in a Python of their own,
each timed, as the build runs them: the module's writer forked before the load (which a
process that has loaded a compendium cannot do again: module_writer.py says why), the
load without a cache, the checks, then the exports with the loaded objects frozen. In the
bench's own process each stage would also pay for the bench's other objects, scanned by
the cycle collector (the load there took 0.89x its floor, 0.5x here)."""


def once(function: Callable[[], object], before: Callable[[], object] | None = None) -> float:
    """Seconds of one call, after `before()`, which is not timed (an output folder
    emptied or a new one made: see NewFolders)."""
    if before is not None:
        before()
    gc.collect()
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


Taken = float | dict[str, float]


def timed(
    function: Callable[[], object], repeats: int, before: Callable[[], object] | None = None
) -> float:
    """Median seconds of `repeats` calls, one after another (see `once`); progress goes to
    stderr."""
    return in_turn({"": lambda: once(function, before)}, repeats)[""]


def in_turn(takes: dict[str, Callable[[], Taken]], repeats: int) -> dict[str, float]:
    """The median of each figure's `repeats` takes, taken in turn: round by round, every
    take once (a take gives its figure's seconds, or several figures by name). The two
    sides of a ratio are then timed in the same rounds, so a machine that slows down or
    speeds up during the run moves both alike. Last session's machine drifted by half
    over a run (a pure-Python loop took 0.80-1.32 s)."""
    seconds: dict[str, list[float]] = {}
    for _ in range(repeats):
        for name, take in takes.items():
            taken = take()
            for figure, value in (taken if isinstance(taken, dict) else {name: taken}).items():
                seconds.setdefault(figure, []).append(value)
        print(".", end="", file=sys.stderr, flush=True)
    return {name: statistics.median(values) for name, values in seconds.items()}


def build_stages(root: Path, outs: NewFolders) -> dict[str, float]:
    """Seconds of each stage of a cold build (BUILD_STAGES), into a new folder of `outs`."""
    done = subprocess.run(
        [sys.executable, "-c", BUILD_STAGES, str(root), str(outs.new())],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)


def fresh(folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


class NewFolders:
    """A new empty folder on each `new()`, `<stem>-1`, `<stem>-2`... below `parent`, for
    the figures that create thousands of files (the Foundry export, its writes alone):
    their outputs are kept until the bench's work folder goes, never deleted just
    before the next repeat. On an ext4 without a journal (this machine's), a file made
    within about 30 s of other files' deletion makes ext4 step past each inode deleted
    since (`recently_deleted`, in `ext4_create`): the writer's kernel time for 11,000
    new files was 1.8 s right after the last repeat's were deleted, 0.35 s with none
    deleted. A build writes into a new staging folder and deletes the old output after;
    a bench deleting before each repeat charged its own deletion to the export."""

    def __init__(self, parent: Path, stem: str) -> None:
        self.parent, self.stem, self.made = parent, stem, 0

    def new(self) -> Path:
        self.made += 1
        return fresh(self.parent / f"{self.stem}-{self.made}")

    @property
    def last(self) -> Path:
        return self.parent / f"{self.stem}-{self.made}"


def module_writes(exported: Path, outs: NewFolders) -> Callable[[], None]:
    """What a Foundry export writes beyond its render, as one process writes it: every
    file of the modules in `exported` (read into memory first), their packs from their
    entries (leveldb.write_entries) and their release zips, written again into the last
    new folder of `outs`.
    The export can be no faster than this on one core; the official CLI writes one pack."""
    source = OutputFolder(exported)
    files, packs = {}, {}
    for parts, is_folder in source.files(exported):
        if len(parts) > 2 and parts[1] == "packs":  # a pack's LevelDB: written from entries
            if len(parts) == 3 and is_folder:
                packs[parts] = read_entries(exported.joinpath(*parts))
        elif not is_folder and len(parts) > 1:
            files[parts] = source.read(exported.joinpath(*parts)) or b""
    modules = sorted({parts[0] for parts in files})

    def write() -> None:
        into = outs.last
        output = OutputFolder(into)
        for parts, data in files.items():
            into.joinpath(*parts[:-1]).mkdir(parents=True, exist_ok=True)
            into.joinpath(*parts).write_bytes(data)
        for parts, entries in packs.items():
            write_entries(entries, into.joinpath(*parts), output)
        for module in modules:
            with (into / f"{module}.zip").open("wb") as target:
                write_release_zip(output, into / module, target)

    return write


def run(args: list[str], cache: Path) -> None:
    """Run a command with its own rulepress cache folder."""
    env = {**os.environ, "RULEPRESS_CACHE_DIR": str(cache)}
    subprocess.run(args, cwd=REPO, env=env, check=True, capture_output=True)


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


def weapon_page(compendium, weapon_id: str) -> str:
    """The site's page (below the site's root, as served) that shows the weapon."""
    ruleset = compendium.ruleset("bench")
    parts = chapters(ruleset)
    chapter, section = section_of(parts)[weapon_id]
    return page_of(ruleset, chapter, section).removesuffix(".md") + ".html"


def commit_history(root: Path, files: list[Path]) -> None:
    """Commit the compendium under `root`, then HISTORY_COMMITS commits that each change
    one weapon's cost (weapons far apart, so no two touch the same file)."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.org",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.org",
    }

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)

    git("init", "-q")
    git("add", ".")
    git("commit", "-q", "-m", "all weapons")
    weapons = [path for path in files if path.name.startswith("weapon-")]
    for number in range(HISTORY_COMMITS):
        path = weapons[(number + 1) * len(weapons) // (HISTORY_COMMITS + 2)]
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"(?m)^cost: (\d+)$", "cost: 999", text), encoding="utf-8")
        git("commit", "-q", "-am", f"a dearer {path.stem}")


def measure(size: int, repeats: int, work: Path) -> dict:
    root = write_compendium(fresh(work / f"compendium-{size}"), size)
    files = sorted(root.rglob("*.yaml"))
    texts = [path.read_bytes() for path in files]
    result: dict = {"documents": size, "files": len(files)}

    compendium = load_compendium(root).compendium  # for the stages after the load
    cache_folder = work / f"cache-{size}"
    load_compendium(root, DocumentCache(root, cache_folder))  # fill the document cache
    out = work / f"out-{size}"
    # an export for the floors' and the anchor's inputs: its pack's documents and files
    exported = fresh(out / "exported")
    FoundryExporter().export(compendium, exported, ExportOptions())
    pack_sources = exported / "rulepress-bench" / "src" / "packs" / "weapons"
    values = [json.loads(p.read_text()) for p in sorted(pack_sources.glob("*.json"))]
    entries = sorted(
        (v["_key"].encode(), encode({k: x for k, x in v.items() if k != "_key"})) for v in values
    )
    documents = [json.dumps(yaml.load(text, Loader=yaml.CSafeLoader)) for text in texts]

    def bare_plyvel() -> None:
        db = plyvel.DB(str(out / "plyvel" / "pack"), create_if_missing=True)
        with db.write_batch() as batch:
            for key, value in entries:
                batch.put(key, value)
        db.compact_range()
        db.close()

    build = [sys.executable, "-m", "rulepress", "build", str(root), *BUILD_TARGETS]
    stages, cold, caches, writes, sites = (
        NewFolders(out, name) for name in ("stages", "cold", "cold-cache", "writes", "site")
    )
    write_module = module_writes(exported, writes)

    def site() -> dict[str, float]:
        """The site's pages and their mkdocs build, as the build runs them (frozen)."""
        with loaded_objects_frozen():
            pages = once(lambda: generate(compendium, out / "s"), before=lambda: fresh(out / "s"))
        built = once(lambda: run_mkdocs(out / "s" / "mkdocs.yml", sites.last), before=sites.new)
        return {"site pages": pages, "mkdocs build": built}

    takes: dict[str, Callable[[], Taken]] = {
        "floor: libyaml parse": lambda: once(
            lambda: [yaml.load(text, Loader=yaml.CSafeLoader) for text in texts]
        ),
        # a user's first build: an empty cache, a new output folder, the CLI's every step
        "cold build": lambda: once(
            lambda: run([*build, "--out", str(cold.last)], caches.last),
            before=lambda: (cold.new(), caches.new()),
        ),
        "stages": lambda: build_stages(root, stages),
        "load, cached": lambda: once(
            lambda: load_compendium(root, DocumentCache(root, cache_folder))
        ),
        "site": site,
        "floor: json.loads": lambda: once(lambda: [json.loads(d) for d in documents]),
        "floor: plyvel batch": lambda: once(bare_plyvel, before=lambda: fresh(out / "plyvel")),
        "floor: the module's writes": lambda: once(write_module, before=writes.new),
    }
    node = shutil.which("node")
    if node and FOUNDRY_CLI.is_file():
        pack = [node, str(FOUNDRY_CLI), "package", "pack", "-n", "weapons"]
        pack += ["--in", str(pack_sources), "--out", str(out / "fvtt")]
        takes["anchor: fvtt package pack"] = lambda: once(
            lambda: subprocess.run(pack, check=True, capture_output=True),
            before=lambda: fresh(out / "fvtt"),
        )
    else:  # the table says why its ratios to the anchor are missing
        result["anchor: fvtt package pack"] = (
            "not measured: the official Foundry CLI is missing (make test installs it)"
        )
    result.update(in_turn(takes, repeats))
    result["site build"] = result["site pages"] + result["mkdocs build"]

    build += ["--out", str(out / "dist")]
    cli_cache = work / f"cli-cache-{size}"
    run(build, fresh(cli_cache))  # the cache and the stamp the no-op rebuild answers from
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
        [*build[:-1], str(out / "peak")], fresh(work / "peak-cache")
    )
    result.update(
        live_figures(
            "watch",
            lambda: watch_figures(root, changed, out / "watch", fresh(work / "watch-cache")),
            WATCH_KEYS,
        )
    )
    page = weapon_page(compendium, changed.stem)
    result.update(
        live_figures(
            "serve",
            lambda: serve_figures(root, changed, page, fresh(work / "serve-cache")),
            ["serve: changed page served"],
        )
    )
    commit_history(root, files)
    # `compendium` was loaded without a cache: the history loads without one too
    history_cache = DocumentCache(root, fresh(work / f"history-cache-{size}"))
    cached = load_compendium(root, history_cache).compendium
    with loaded_objects_frozen():  # as the site's export runs
        result["site pages + history, no cache"] = timed(
            lambda: generate(compendium, out / "sh"), repeats, before=lambda: fresh(out / "sh")
        )
        generate(cached, fresh(out / "sh"))  # the revisions' documents into the cache
        result["site pages + history, cached"] = timed(
            lambda: generate(cached, out / "sh"), repeats, before=lambda: fresh(out / "sh")
        )
    return result


NOOP_ROUNDS = 51


def bundled_noop(work: Path) -> dict:
    """The bare import and the bundled compendium's no-op rebuild."""
    out = work / "bundled"
    build = [sys.executable, "-m", "rulepress", "build", "--out", str(out)]
    cache = fresh(work / "bundled-cache")
    run(build, cache)
    run(build, cache)  # the first no-op writes the launcher's bytecode

    def take(args: list[str]) -> Callable[[], float]:
        return lambda: once(lambda: run(args, cache))

    bare = [sys.executable, "-c", "import rulepress"]
    # in turn, as the figure divides them: one start of each per round, many rounds (a
    # start takes tens of milliseconds, and as much again now and then on a busy machine)
    takes = {"bare import": take(bare), "bundled no-op rebuild": take(build)}
    return in_turn(takes, NOOP_ROUNDS)


def _cell(value: float | str) -> str:
    """A figure of the table; one not measured says so there, and why below it."""
    return f"{'not measured':>19}" if isinstance(value, str) else f"{value:>19.3f}"


def other_lines(r: dict) -> list[str]:
    """The figures beside the table's that earlier issues set: the one-file rebuild
    against the anchor, the watch's memory drift over its edits."""
    docs, lines = f"{r['documents']:,} docs:", []
    anchor = r.get("anchor: fvtt package pack")
    if isinstance(anchor, float):
        lines.append(
            f"{docs} one-file rebuild / fvtt pack = {r['one-file rebuild'] / anchor:.2f}x "
            "(no target since issue 20: build --watch is for iteration)"
        )
    first = r["watch: MB after 1 edit (peak)"]
    last = r[f"watch: MB after {MEMORY_EDITS} edits (peak)"]
    if not isinstance(first, str) and not isinstance(last, str):
        lines.append(
            f"{docs} watch peak memory after {MEMORY_EDITS} edits {last:.0f} MB, after the "
            f"first {first:.0f} MB: {last / first - 1:+.1%} (target within 10%)"
        )
    lines.append(f"{docs} load / libyaml floor = {r['load'] / r['floor: libyaml parse']:.2f}x")
    writes = r["floor: the module's writes"]
    lines.append(
        f"{docs} Foundry export / its writes alone = {r['foundry'] / writes:.2f}x"
        + (
            f"; its writes alone / CLI pack = {writes / anchor:.2f}x"
            if isinstance(anchor, float)
            else ""
        )
    )
    return lines


def table(results: list[dict], bundled: dict) -> str:
    """The figures of every size side by side, then each size's figures against their
    targets (issue 30's table), then the others."""
    lines = [f"{'stage':<34}" + "".join(f"{r['documents']:>14,} docs" for r in results)]
    keys = [k for k in results[0] if k not in ("documents", "files")]
    for key in keys:
        cells = "".join(_cell(r.get(key, float("nan"))) for r in results)
        lines.append(f"{key:<34}{cells}")
    for key, value in bundled.items():
        lines.append(f"{key:<34}{_cell(value)}")
    for r in results:
        lines += ["", report(r, bundled), ""]
        lines += other_lines(r)
    if len(results) > 1:
        a, b = results[0], results[-1]
        growth = b["mkdocs build"] / a["mkdocs build"]
        lines.append(
            f"mkdocs build grows {growth:.1f}x from {a['documents']:,} to "
            f"{b['documents']:,} documents ({b['documents'] / a['documents']:.0f}x)"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, default=REPO / "bench" / "results.json")
    parser.add_argument(
        "--quick", action="store_true", help="1,000 weapons, one run each: a fast check"
    )
    parser.add_argument(
        "--growth",
        type=int,
        nargs="*",
        default=[],
        help="the growth run's sizes (e.g. 10000 30000 100000): a cold build of every "
        "target but the site at each, in its own process",
    )
    parser.add_argument(
        "--growth-site-max",
        type=int,
        default=30000,
        help="the growth run builds the site up to this many documents",
    )
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.repeats = [1000], 1
    with tempfile.TemporaryDirectory(prefix="rulepress-bench-") as folder:
        work = Path(folder)
        # Every Python the bench starts runs from compiled bytecode, as an installed
        # rulepress does, written once into a folder of the bench's own: with
        # PYTHONDONTWRITEBYTECODE, set in some environments, each would compile every
        # module it imports from source, which no user's install does.
        os.environ["PYTHONPYCACHEPREFIX"] = str(work / "bytecode")
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        results = [measure(size, args.repeats, work) for size in args.sizes]
        bundled = bundled_noop(work) if results else {}
        grown = growth(args.growth, args.growth_site_max, work, REPO) if args.growth else []
    if results:
        print(table(results, bundled))
    if grown:
        print("\ngrowth: a cold build of Foundry + Markdown + JSON, and of the site, per size")
        print(growth_table(grown))
    report_json = {"sizes": results, "bundled": bundled, "growth": grown}
    args.json.write_text(json.dumps(report_json, indent=2) + "\n")
    print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
