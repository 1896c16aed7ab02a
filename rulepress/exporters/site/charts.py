"""Odds charts as SVG, computed from the rules at build time (no plotting library).

The site shows them inline, so they take the page's colours: text and grid lines are
drawn in `currentColor` (the page's text colour, light or dark) on no background, and
the series colours read on both palettes. The same SVG opened alone is black on white.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from rulepress import kinds
from rulepress.exporters.escaping import html_attribute, html_text
from rulepress.exporters.markdown_text import percent
from rulepress.games.t2k4e.models.step_dice import PushRule, StepDice, push_reading


class Chart(NamedTuple):
    """A chart of the site: its alt text, its SVG, and its figures as a Markdown table,
    so what the chart shows is there as text too (for a screen reader, or to copy)."""

    alt: str
    svg: str
    figures: str = ""


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 20, 48
COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)


def _frame(title: str, x_label: str, body: list[str], x_ticks: list[tuple[float, str]]) -> str:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{html_attribute(title)}" font-family="sans-serif" font-size="12" '
        'fill="currentColor" class="rp-chart">',
        f"<title>{html_text(title)}</title>",
    ]
    for gridline in range(0, 101, 20):
        y = TOP + plot_h * (1 - gridline / 100)
        parts.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" '
            'stroke="currentColor" stroke-opacity="0.2"/>'
        )
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{gridline}%</text>')
    for x, label in x_ticks:
        parts.append(
            f'<text x="{x:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">'
            f"{html_text(label)}</text>"
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
        f"{html_text(x_label)}</text>"
    )
    parts.extend(body)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _y(chance: Fraction) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - float(chance))


POOLS = [[d] for d in ("d6", "d8", "d10", "d12")] + [[d, d] for d in ("d6", "d8", "d10", "d12")]
"""The T2K4e chart's pools: single dice and matched pairs."""


def t2k4e_figures(step_dice: StepDice, push: PushRule | None) -> str:
    """The T2K4e chart's figures: each pool's chance, initial and pushed."""
    reading = push_reading(push)
    rows = [
        [
            "+".join(pool),
            *(
                percent(step_dice.chance(pool, pushed=pushed, reading=reading), 1)
                for pushed in (False, True)
            ),
        ]
        for pool in POOLS
    ]
    return _table(["Dice pool", "Initial", "Pushed"], rows)


def t2k4e_chart(step_dice: StepDice, push: PushRule | None) -> str:
    """P(at least one success) for single dice and matched pairs, initial and pushed."""
    reading = push_reading(push)
    pools = POOLS
    plot_w = WIDTH - LEFT - RIGHT
    group = plot_w / len(pools)
    bar = group * 0.36
    body = []
    for index, pool in enumerate(pools):
        base = LEFT + group * index + group * 0.14
        for offset, (pushed, colour) in enumerate(((False, COLOURS[0]), (True, COLOURS[1]))):
            chance = step_dice.chance(pool, pushed=pushed, reading=reading)
            y = _y(chance)
            label = (
                f"{'+'.join(pool)} {'pushed' if pushed else 'initial'}: {float(chance) * 100:.1f}%"
            )
            body.append(
                f'<rect x="{base + offset * bar:.1f}" y="{y:.1f}" width="{bar:.1f}" '
                f'height="{HEIGHT - BOTTOM - y:.1f}" fill="{colour}">'
                f"<title>{html_text(label)}</title></rect>"
            )
    for offset, (label, colour) in enumerate((("initial", COLOURS[0]), ("pushed", COLOURS[1]))):
        y = TOP + 18 * offset
        body.append(
            f'<rect x="{WIDTH - RIGHT + 16}" y="{y}" width="14" height="12" fill="{colour}"/>'
        )
        body.append(f'<text x="{WIDTH - RIGHT + 36}" y="{y + 10}">{html_text(label)}</text>')
    ticks = [(LEFT + group * (i + 0.5), "+".join(pool)) for i, pool in enumerate(pools)]
    return _frame(
        "Twilight: 2000 4e: chance of at least one success, initial and pushed",
        "dice pool",
        body,
        ticks,
    )


def step_dice_charts(ruleset) -> dict[str, Chart]:
    """The step dice's chart (the kind's `chart` hook): file name -> Chart."""
    step_dice, push = ruleset.one(StepDice), ruleset.one(PushRule)
    return {
        f"{ruleset.id}-success-odds.svg": Chart(
            "Chance of at least one success by dice pool, initial and pushed",
            t2k4e_chart(step_dice, push),
            t2k4e_figures(step_dice, push),
        )
    }


def charts_by_kind(ruleset) -> dict[str, dict[str, Chart]]:
    """kind name -> {file name: Chart} for the kinds the ruleset has with a `chart` hook,
    in the registry's order."""
    return {
        kind.name: {
            name: Chart(*chart) for name, chart in kinds.load_hook(kind.chart)(ruleset).items()
        }
        for kind in kinds.registry().values()
        if kind.chart and ruleset.one(kind.model) is not None
    }


def charts_for(ruleset) -> dict[str, Chart]:
    """file name -> Chart (alt text, SVG, figures) for the charts of the kinds the ruleset
    has (each kind's `chart` hook in the registry)."""
    return {
        name: chart for charts in charts_by_kind(ruleset).values() for name, chart in charts.items()
    }
