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


class Chart(NamedTuple):
    """A chart of the site: its alt text, its SVG, and its figures as a Markdown table,
    so what the chart shows is there as text too (for a screen reader, or to copy)."""

    alt: str
    svg: str
    figures: str = ""


def figures_table(header: list[str], rows: list[list[str]]) -> str:
    """A chart's figures as a Markdown table: its header, then its rows of cells."""
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


def chart_frame(title: str, x_label: str, body: list[str], x_ticks: list[tuple[float, str]]) -> str:
    """A chart's SVG: its title, the 0-100% gridlines, the x axis's ticks and label, and
    `body` (the series, drawn with `chart_y` and `COLOURS`)."""
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


def chart_y(chance: Fraction) -> float:
    """The height in the frame of a chance (0 at the bottom of the plot, 1 at its top)."""
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - float(chance))


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
