"""`rulepress roll cool`: a shock or fear roll against Cool, with a given percentile roll
or a seeded one (`random.Random(seed)`, so the same seed gives the same roll).

`cool_roll` returns plain data (what `--json` prints); the command formats it for people.
"""

from __future__ import annotations

import random

import click

from rulepress.games.cool.models import CriticalFailure, FearRoll, ShockRoll
from rulepress.plugin import Ruleset, dice
from rulepress.plugin.cli import SEED, emit, load_ruleset, ruleset_options


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
