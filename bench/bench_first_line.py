"""How long a long `rulepress build` stays silent: seconds to its first output line.

    .venv/bin/python bench/bench_first_line.py [--weapons 2000] [--json FILE]

It writes a synthetic compendium (bench.synthetic) of that many weapons, then runs
`rulepress build --force --no-cache` on it, every target, its stdout and stderr read
through pipes (not a terminal: the plain lines a CI log gets), and records when each line
arrived. It prints the time to the first line, to the `validated:` line, and the total,
then every line with its arrival time.
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.synthetic import write_compendium  # noqa: E402


def timed_lines(args: list[str], env: dict[str, str]) -> tuple[list[tuple[float, str]], float]:
    """Each output line of the command (stdout and stderr) with the seconds since its
    start at which it arrived, and the command's total seconds."""
    start = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    selector = selectors.DefaultSelector()
    pending = {}
    for stream in (process.stdout, process.stderr):
        selector.register(stream, selectors.EVENT_READ)
        pending[stream] = b""
    lines = []
    while selector.get_map():
        for key, _ in selector.select():
            chunk = os.read(key.fileobj.fileno(), 65536)
            if not chunk:
                selector.unregister(key.fileobj)
                continue
            arrived = time.perf_counter() - start
            *complete, pending[key.fileobj] = (pending[key.fileobj] + chunk).split(b"\n")
            lines += [(arrived, line.decode("utf-8", "replace")) for line in complete]
    process.wait()
    total = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"build failed ({process.returncode}): {lines}")
    return lines, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weapons", type=int, default=2000)
    parser.add_argument("--json", type=Path, default=None)
    parsed = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulepress-first-line-") as work:
        root = write_compendium(Path(work) / "compendium", parsed.weapons)
        env = {**os.environ, "RULEPRESS_CACHE_DIR": str(Path(work) / "cache")}
        command = [sys.executable, "-m", "rulepress", "build", str(root)]
        command += ["--out", str(Path(work) / "dist"), "--force", "--no-cache"]
        lines, total = timed_lines(command, env)
    first = lines[0][0] if lines else total
    validated = next((at for at, line in lines if line.startswith("validated:")), None)
    result = {
        "weapons": parsed.weapons,
        "first_line_seconds": round(first, 2),
        "validated_line_seconds": None if validated is None else round(validated, 2),
        "total_seconds": round(total, 2),
        "lines": [[round(at, 2), line] for at, line in lines],
    }
    print(f"{parsed.weapons} weapons: first line after {first:.1f} s, ", end="")
    if validated is not None:
        print(f"validated: line after {validated:.1f} s, ", end="")
    print(f"build {total:.1f} s")
    for at, line in lines:
        print(f"  {at:6.1f} s  {line}")
    if parsed.json:
        parsed.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
