"""The site's calculators: forms that answer players' questions with figures the rules
work out at build time.

No rule is written again in JavaScript. Each calculator (a kind's `calculator` hook)
gives its form and a table of exact results, keyed by the form's inputs; the page's
script (`javascripts/calculator.js`) only looks the inputs up in that table and shows
what it finds. Every table is bounded (each hook's docstring says how), so a page stays
small; where a range is too large to precompute, the page says so and what to do instead.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

from rulepress import kinds
from rulepress.errors import PluginError
from rulepress.exporters.escaping import html_attribute, html_text, script_json

DATA_ID = "rp-calculator-data"
"""The id of the page's JSON block the script reads."""
SCRIPT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.js")
"""What a game's script may be named: it becomes `javascripts/<game>/<name>` on the site."""


class Calculator(NamedTuple):
    """A calculator of the site: its heading, its text (Markdown), its form (HTML: inputs
    with labels, and an output the script fills), and the figures the script looks up."""

    id: str
    title: str
    text: str
    form: str
    data: dict


def chance_cells(chance: Fraction) -> list[str]:
    """A chance as the page shows it: a percent to two places and the exact fraction."""
    percent = f"{chance.numerator * 100 / chance.denominator:.2f}%"
    return [percent, f"{chance.numerator}/{chance.denominator}"]


def number_input(calculator: str, name: str, label: str, low: int, high: int, value: int) -> str:
    """A whole-number input of a calculator's form (`readWhole` in its script reads it),
    labelled with its range."""
    field = html_attribute(f"{calculator}-{name}")
    return (
        f'<p class="rp-field"><label for="{field}">{html_text(label)} ({low} to {high})</label> '
        f'<input type="number" id="{field}" name="{html_attribute(name)}" min="{low}" '
        f'max="{high}" step="1" value="{value}" inputmode="numeric"></p>'
    )


def calculator_form(calculator: str, title: str, inputs: list[str]) -> str:
    """The form's HTML: its inputs, then the region the script writes the answers into."""
    return (
        f'<form class="rp-calculator" data-calculator="{html_attribute(calculator)}" '
        f'aria-label="{html_attribute(title)}" onsubmit="return false">'
        + "".join(inputs)
        + '<div class="rp-calculator-output" aria-live="polite" '
        f'id="{html_attribute(calculator)}-output">'
        "<p>This calculator needs JavaScript; the rules pages give the same figures.</p>"
        "</div></form>"
    )


def select(calculator: str, name: str, label: str, options: list[tuple[str, str]], chosen: str):
    """A drop-down of a calculator's form: (value, text) `options`, `chosen` selected."""
    field = html_attribute(f"{calculator}-{name}")
    items = "".join(
        f'<option value="{html_attribute(value)}"{" selected" if value == chosen else ""}>'
        f"{html_text(text)}</option>"
        for value, text in options
    )
    return (
        f'<p class="rp-field"><label for="{field}">{html_text(label)}</label> '
        f'<select id="{field}" name="{html_attribute(name)}">{items}</select></p>'
    )


COMMAND_SPAN = re.compile(r"`rulepress [^`]*`")
"""A Markdown code span that gives a rulepress command: an instruction for a publisher."""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")


def for_players(text: str) -> str:
    """A calculator's text as players read it. Players have the site, not rulepress's
    command line: where a sentence of the text gives a `rulepress` command (a code span),
    that is for the publisher. Such a sentence ends at the colon before the command, if
    it has one ("Totals above 200 are not precomputed: `rulepress roll ...` works them
    out" keeps its first clause), and is left out otherwise."""
    kept = []
    for sentence in _SENTENCE_END.split(text):
        command = COMMAND_SPAN.search(sentence)
        if command is None:
            kept.append(sentence)
            continue
        before, colon, _ = sentence[: command.start()].rpartition(":")
        if colon and before.strip():
            kept.append(before.rstrip() + ".")
    return " ".join(kept)


def calculators_for(ruleset) -> list[Calculator]:
    """The calculators of the kinds the ruleset has (each kind's `calculator` hook)."""
    return [
        kinds.load_hook(kind.calculator)(ruleset)
        for kind in kinds.registry().values()
        if kind.calculator and ruleset.one(kind.model) is not None
    ]


def calculator_page(title: str, calculators: list[Calculator]) -> str:
    """The Markdown of a ruleset's calculator page: each calculator's heading, text and
    form, then the figures as one JSON block (`<` escaped, so no text ends the script)."""
    blocks = [f"# {title}\n"]
    for calculator in calculators:
        text = for_players(calculator.text)
        blocks.append(f"## {calculator.title}\n\n{text}\n\n{calculator.form}\n")
    data = script_json({c.id: c.data for c in calculators}, separators=(",", ":"))
    blocks.append(f'<script type="application/json" id="{DATA_ID}">{data}</script>\n')
    return "\n".join(blocks)


def game_scripts(rulesets) -> dict[str, bytes]:
    """The site path (`javascripts/<game>/<file>`) -> bytes of each script of the games
    whose calculators the rulesets show (`Game.scripts`), in the games' order: the site
    loads them after calculator.js. A script that is no `.js` file or cannot be read is a
    PluginError naming the game's package."""
    scripts: dict[str, bytes] = {}
    for game in kinds.games():
        shown = any(
            kind.calculator and ruleset.one(kind.model) is not None
            for kind in game.kinds
            for ruleset in rulesets
        )
        for script in map(Path, game.scripts if shown else ()):
            where = f"javascripts/{game.id}/{script.name}"
            problem = None
            if not SCRIPT_NAME.fullmatch(script.name):
                problem = "must be a .js file named with letters, digits, '.', '_' and '-'"
            elif where in scripts:
                problem = "is named like another of the game's scripts"
            else:
                try:
                    scripts[where] = script.read_bytes()
                except OSError as exc:
                    problem = f"cannot be read: {exc.strerror or exc}"
            if problem:
                raise PluginError(
                    f"script {str(script)!r} of game {game.id!r} from plugin {game.package} "
                    f"{problem}"
                )
    return scripts
