"""Twilight: 2000 4e's odds chart as SVG, computed from the rules at build time (the step
dice's `chart` hook), drawn in the site's chart frame."""

from __future__ import annotations

from rulepress.games.t2k4e.models.step_dice import PushRule, StepDice, push_reading
from rulepress.plugin.site import (
    BOTTOM,
    COLOURS,
    HEIGHT,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    Chart,
    chart_frame,
    chart_y,
    figures_table,
    html_text,
    percent,
)

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
    return figures_table(["Dice pool", "Initial", "Pushed"], rows)


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
            y = chart_y(chance)
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
    return chart_frame(
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
