"""How long `validate` takes on a document full of misspellings (issue 26: RP231 was
quadratic, every misspelling scanning the file again to find its line and column).

Run: .venv/bin/python bench/bench_spelling.py [--kilobytes N] [--every-finding]
Writes a one-weapon synthetic compendium (bench/synthetic.py) plus one rule whose
rulings repeat two common misspellings, line after line, until the file is about N KB
(394 by default), then times one `validate` (no document cache) and prints the seconds
and the number of findings the spelling check gave (with `--every-finding`, every
misspelling's, not the first 50 and a count).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.synthetic import write_compendium  # noqa: E402
from rulepress.validation import validate  # noqa: E402
from rulepress.validators import word_places  # noqa: E402

SENTENCE = "Roll teh dice and recieve the result."
"""A line of a ruling's text: two misspellings."""
LINES = 100
"""Lines of each text (a block scalar): a text holds at most 20,000 characters."""


def misspelt_rule(kilobytes: int) -> str:
    """A rule document of about `kilobytes` KB whose rulings are full of misspellings."""
    lines = [
        "kind: rule",
        "id: misspelt",
        "title: Misspelt",
        "chapter: Bench",
        "order: 1",
        "text: A rule for the spelling benchmark.",
        "rulings:",
    ]
    number = 0
    while sum(len(line) + 1 for line in lines) < kilobytes * 1000:
        lines.append(f"  - id: ruling-{number}")
        for field in ("question", "ruling", "alternative", "why"):
            lines.append(f"    {field}: |")
            lines.extend(f"      {SENTENCE}" for _ in range(LINES))
        number += 1
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kilobytes", type=int, default=394)
    parser.add_argument(
        "--every-finding", action="store_true", help="lift the per-file bound on findings"
    )
    arguments = parser.parse_args()
    if arguments.every_finding:  # to time finding every word's place, not only 50
        word_places.MAX_WORD_REPORTS = 10**9
    with tempfile.TemporaryDirectory() as folder:
        compendium = write_compendium(Path(folder), 1)
        document = compendium / "bench" / "misspelt.yaml"
        document.write_text(misspelt_rule(arguments.kilobytes), encoding="utf-8")
        size = document.stat().st_size
        start = time.perf_counter()
        validation = validate(compendium)
        seconds = time.perf_counter() - start
    spelling = [f for f in validation.findings if f.code == "RP231"]
    print(f"{size // 1000} KB document: validate {seconds:.2f} s, {len(spelling)} RP231 findings")


if __name__ == "__main__":
    main()
