"""`rulepress roll cool`: a shock or fear roll against Cool, with a given percentile roll
or a seeded one (`random.Random(seed)`, so the same seed gives the same roll); `rulepress
odds cool`: each roll's target and the exact chance of each outcome, the site's
calculator's figures.

`cool_roll` returns plain data (what `--json` prints); the command formats it for people.
"""

from __future__ import annotations

import random
from fractions import Fraction

import click

from rulepress.games.cool.models import PERCENTILE, CriticalFailure, FearRoll, ShockRoll
from rulepress.plugin import Ruleset, dice
from rulepress.plugin.cli import (
    SEED,
    chance_json,
    emit,
    format_distribution,
    load_ruleset,
    ruleset_options,
)


def cool_roll(
    ruleset: Ruleset, kind: str, cool: int, damage: int, roll: int | None, seed: int | None
) -> dict:
    """A shock or fear roll against Cool, and its outcome: what `roll` prints (a shock roll
    that knocks out says for how long, `unconscious`). A given `roll` is 1 to 100 (the
    command's `--roll` takes no other), as a rolled one is."""
    critical: CriticalFailure = ruleset.require(CriticalFailure)
    roll = roll if roll is not None else dice.roll(100, random.Random(seed))
    if kind == "shock":
        rule: ShockRoll = ruleset.require(ShockRoll)
        target = rule.target(cool, damage)
        outcome = rule.resolve(roll, target, critical).outcome
        data = {"ruleset": ruleset.id, "roll": roll, "target": target, "outcome": outcome}
        if outcome == "unconscious":  # how long, only when it is so
            data["unconscious"] = rule.unconscious.dice + " " + rule.unconscious.unit
        return data
    fear: FearRoll = ruleset.require(FearRoll)
    result = fear.resolve(roll, fear.target(cool, damage), critical)
    return {
        "ruleset": ruleset.id,
        "roll": roll,
        "target": result.target,
        "outcome": result.outcome,
        "penalty": result.penalty,
    }


def cool_summary(kind: str, data: dict) -> str:
    """A shock or fear roll's result in words."""
    return (
        f"{kind.capitalize()} roll of {data['roll']} against a target of {data['target']}: "
        f"{data['outcome'].replace('-', ' ')}."
    )


# The shock roll's `roll` command (rulepress.games.cool.kinds names it; rulepress.cli loads it).


@click.command("cool")
@click.argument("kind", type=click.Choice(["shock", "fear"]), metavar="KIND")
@click.option("--cool", type=click.IntRange(0, 100), required=True, help="The character's Cool.")
@click.option(
    "--penalty", type=click.IntRange(0, 100), default=0, help="Wound penalty (damage taken)."
)
@click.option(
    "--roll", "roll_", type=click.IntRange(1, 100), default=None, help="The percentile roll."
)
@click.option("--seed", type=SEED, default=None, help="Roll with this seed (0 to 2^63-1) instead.")
@ruleset_options(ShockRoll)
def roll_cool(kind, cool, penalty, roll_, seed, compendium, ruleset_id, as_json):
    """A Cool shock or fear roll."""
    ruleset = load_ruleset(compendium, ruleset_id, ShockRoll)
    data = cool_roll(ruleset, kind, cool, penalty, roll_, seed)
    emit(data, as_json, summary=cool_summary(kind, data))


def cool_odds(ruleset: Ruleset, cool: int, damage: int) -> dict:
    """Each of the ruleset's Cool rolls (shock, fear) for a character: its target and the
    exact chance of each outcome on a d100, in the order the rolls first reach them."""
    critical: CriticalFailure = ruleset.require(CriticalFailure)
    rolls = []
    for name, rule in (("shock", ruleset.one(ShockRoll)), ("fear", ruleset.one(FearRoll))):
        if rule is None:
            continue
        target = rule.target(cool, damage)
        counts: dict[str, int] = {}
        for roll in range(1, PERCENTILE + 1):
            outcome = rule.resolve(roll, target, critical).outcome
            counts[outcome] = counts.get(outcome, 0) + 1
        outcomes = [
            {"outcome": outcome, "chance": chance_json(Fraction(count, PERCENTILE))}
            for outcome, count in counts.items()
        ]
        rolls.append({"roll": name, "target": target, "outcomes": outcomes})
    return {"ruleset": ruleset.id, "cool": cool, "penalty": damage, "rolls": rolls}


def format_cool_odds(data: dict) -> str:
    """`odds cool`'s figures as text: a table of outcomes for each roll."""
    return "\n\n".join(
        format_distribution(
            [(o["outcome"].replace("-", " "), o["chance"]) for o in roll["outcomes"]],
            f"{roll['roll'].capitalize()} roll with Cool {data['cool']} and a penalty of "
            f"{data['penalty']}: {roll['target']} or less on a d100.",
            "outcome",
        )
        for roll in data["rolls"]
    )


@click.command("cool")
@click.option("--cool", type=click.IntRange(0, 100), required=True, help="The character's Cool.")
@click.option(
    "--penalty", type=click.IntRange(0, 100), default=0, help="Wound penalty (damage taken)."
)
@ruleset_options(ShockRoll)
def odds_cool(cool, penalty, compendium, ruleset_id, as_json):
    """Cool shock and fear roll odds: each roll's target and the chance of each outcome."""
    data = cool_odds(load_ruleset(compendium, ruleset_id, ShockRoll), cool, penalty)
    emit(data, as_json, format_cool_odds(data))
