"""The IRIS skill test's chart on the site: the chance of at least k AP by skill rank,
drawn as SVG from the rules at build time, with its figures as a table."""

from __future__ import annotations

from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.plugin.site import (
    COLOURS,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    Chart,
    chart_frame,
    chart_y,
    figures_table,
    percent,
)


def iris_figures(skill_test: SkillTest, ranks: range = range(1, 9), max_ap: int = 16) -> str:
    """The IRIS chart's figures: P(AP >= k) for every other k (rows) and rank (columns),
    to the whole percent, so the table fits a phone."""
    header = ["k", *(f"rank {rank}" for rank in ranks)]
    aps = range(0, max_ap + 1, 2)
    columns = [skill_test.chances(rank, aps) for rank in ranks]
    rows = [
        [str(ap), *(percent(column[index], 0) for column in columns)]
        for index, ap in enumerate(aps)
    ]
    return figures_table(header, rows)


def iris_chart(skill_test: SkillTest, ranks: range = range(1, 9), max_ap: int = 16) -> str:
    """P(AP >= k) against k, one line per skill rank (no trait bonus)."""
    plot_w = WIDTH - LEFT - RIGHT
    x = lambda k: LEFT + plot_w * k / max_ap  # noqa: E731 - a local scale
    body = []
    for index, rank in enumerate(ranks):
        chances = skill_test.chances(rank, range(0, max_ap + 1))
        points = " ".join(f"{x(k):.1f},{chart_y(chance):.1f}" for k, chance in enumerate(chances))
        colour = COLOURS[index % len(COLOURS)]
        body.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" '
            f'stroke-width="2"><title>rank {rank}</title></polyline>'
        )
        y = TOP + 16 * index
        body.append(
            f'<line x1="{WIDTH - RIGHT + 16}" y1="{y + 6}" x2="{WIDTH - RIGHT + 36}" '
            f'y2="{y + 6}" stroke="{colour}" stroke-width="2"/>'
        )
        body.append(f'<text x="{WIDTH - RIGHT + 42}" y="{y + 10}">rank {rank}</text>')
    ticks = [(x(k), str(k)) for k in range(0, max_ap + 1, 2)]
    return chart_frame(
        "IRIS skill test: chance of at least k AP by skill rank",
        "k (AP, before the trait bonus)",
        body,
        ticks,
    )


def skill_test_charts(ruleset) -> dict[str, Chart]:
    """The skill test's chart (the kind's `chart` hook): file name -> Chart."""
    skill_test = ruleset.one(SkillTest)
    return {
        f"{ruleset.id}-skill-test-odds.svg": Chart(
            "Chance of at least k AP by skill rank",
            iris_chart(skill_test),
            iris_figures(skill_test),
        )
    }
