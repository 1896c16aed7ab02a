"""Twilight: 2000 4e's subcommands: `rulepress roll t2k4e` resolves one roll of a dice
pool and its push, with given faces or a seeded roll (`random.Random(seed)`, so the same
seed gives the same result); `rulepress odds t2k4e` gives exact distributions and the
printed odds tables beside the computed ones. Each function returns plain data (what
`--json` prints); the commands format it for people."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import click

from rulepress.games.t2k4e.models.odds_table import OddsTable
from rulepress.games.t2k4e.models.step_dice import (
    GroupRoll,
    ModifierRule,
    PushRule,
    Reading,
    StepDice,
)
from rulepress.games.t2k4e.odds import READINGS, exact_percent, within_rounding
from rulepress.plugin import DIE_SIDES, Ruleset, dice
from rulepress.plugin.cli import (
    SEED,
    IntList,
    chance_json,
    check_faces,
    dice_count,
    emit,
    faces_text,
    format_distribution,
    load_ruleset,
    ruleset_options,
    table_lines,
)

STEP_DIE = click.Choice(["d6", "d8", "d10", "d12"])
READING = click.Choice(list(READINGS))


@dataclass(frozen=True)
class T2k4eRoll:
    """What a Twilight: 2000 4e roll asks: the pool and everything that changes it."""

    pool: list[str]
    """The attribute die, then the skill die if any."""
    modifiers: Sequence[int] = ()
    helpers: int = 0
    faces: Sequence[int] | None = None
    """The faces rolled, attribute die first; None rolls them."""
    push: bool = False
    push_faces: Sequence[int] | None = None
    """Faces of the re-rolled dice (implies a push); None rolls them."""
    attribute: str | None = None
    """The attribute rolled (STR, AGL...), to price the push."""
    with_gear: bool = False
    reading: Reading | None = None
    """Which dice a push re-rolls; None: the push rule's."""
    seed: int | None = None


def t2k4e_roll(ruleset: Ruleset, request: T2k4eRoll) -> dict:
    """A roll of a dice pool, and its push if asked: what `roll` prints."""
    pool, modifiers, helpers = request.pool, request.modifiers, request.helpers
    faces, push_faces, reading = request.faces, request.push_faces, request.reading
    step_dice: StepDice = ruleset.require(StepDice)
    modifier_rule: ModifierRule = ruleset.require(ModifierRule)
    bonus = ruleset.require(GroupRoll).bonus(helpers) if helpers else 0
    net = modifier_rule.net([*modifiers, bonus])
    shifted = modifier_rule.shift(pool, net)
    rng = random.Random(request.seed)
    if faces is None:
        faces = step_dice.roll(shifted, rng)
    else:
        needs = f"the pool {'+'.join(shifted)} rolls {dice_count(len(shifted))}"
        check_faces("--faces", faces, [DIE_SIDES[d] for d in shifted], needs)
    data = {
        "ruleset": ruleset.id,
        "pool": pool,
        "net_modifier": net,
        "rolled_pool": shifted,
        "faces": list(faces),
        "successes": step_dice.count(faces),
    }
    if request.push or push_faces is not None:
        rule: PushRule = ruleset.require(PushRule)
        picked = rule.rerolled(faces, step_dice, reading)
        sides = [DIE_SIDES[shifted[i]] for i in picked]
        if push_faces is None:
            push_faces = [dice.roll(size, rng) for size in sides]
        else:
            needs = f"the push re-rolls {dice_count(len(picked))}"
            check_faces("--push-faces", push_faces, sides, needs)
        pushed = rule.push(faces, push_faces, step_dice, reading)
        data["pushed"] = {
            "rerolled": picked,
            "faces": pushed,
            "successes": step_dice.count(pushed),
            "allowed": rule.may_push(faces, step_dice, reading=reading).outcome,
        }
        if request.attribute:
            price = rule.price(request.attribute, request.with_gear)
            data["pushed"]["price"] = {
                "character": price.character,
                "gear_damage": price.gear_damage,
                "gear_reliability_loss": price.gear_reliability_loss,
            }
    return data


def _successes(count: int) -> str:
    return "1 success" if count == 1 else f"{count} successes"


def rerolled_dice(data: dict) -> list[str]:
    """The dice a push re-rolled, for people: "die 2 (d6 showing 3)", counted from 1 in
    the rolled pool's order (JSON keeps `pushed.rerolled`, their indices from 0)."""
    return [
        f"die {index + 1} ({data['rolled_pool'][index]} showing {data['faces'][index]})"
        for index in data["pushed"]["rerolled"]
    ]


def t2k4e_summary(data: dict) -> str:
    """A T2K4e roll's result, and its push's, in words."""
    pool, rolled = "+".join(data["pool"]), "+".join(data["rolled_pool"])
    shifted = f", shifted by {data['net_modifier']:+d} to {rolled}," if data["net_modifier"] else ""
    text = f"{pool}{shifted} rolls {faces_text(data['faces'])}: {_successes(data['successes'])}."
    if "pushed" in data:
        pushed = data["pushed"]
        *others, last = rerolled_dice(data) or ["no dice"]
        which = f"{', '.join(others)} and {last}" if others else last
        text += (
            f" Pushed, re-rolling {which}: "
            f"{faces_text(pushed['faces'])}, so {_successes(pushed['successes'])}."
        )
        if pushed.get("allowed", "may-push") != "may-push":
            text += f" The rules allow no push here: {NO_PUSH[pushed['allowed']]}."
    return text


NO_PUSH = {
    "enough-successes": "the roll already succeeded",
    "nothing-to-pick-up": "no die to pick up",
    "already-pushed": "the roll was pushed already",
}
"""Why a push is not allowed, in words (`PushRule.may_push`'s outcomes)."""


def t2k4e_text_data(data: dict) -> dict:
    """`roll t2k4e`'s data as its text shows it: the re-rolled dice by name and place."""
    if "pushed" not in data:
        return data
    return {**data, "pushed": {**data["pushed"], "rerolled": rerolled_dice(data)}}


def t2k4e_pool(ruleset: Ruleset, pool: list[str], reading: str | None) -> dict:
    """Full success distribution of one pool, initial and pushed."""
    step_dice: StepDice = ruleset.require(StepDice)
    reading = reading or ruleset.require(PushRule).rerolls
    result = {"ruleset": ruleset.id, "pool": pool, "reading": reading}
    for name, pushed in (("initial", False), ("pushed", True)):
        distribution = step_dice.distribution(pool, pushed=pushed, reading=reading)
        result[name] = {
            "at_least_one": chance_json(dice.at_least(distribution, 1)),
            "successes": [
                {"successes": s, "chance": chance_json(p)} for s, p in dice.ordered(distribution)
            ],
        }
    return result


def t2k4e_tables(ruleset: Ruleset, reading: str | None) -> dict:
    """Every printed odds table beside the chance the rules give, cell by cell."""
    step_dice: StepDice = ruleset.require(StepDice)
    reading = reading or ruleset.require(PushRule).rerolls
    tables = []
    for table in ruleset.all(OddsTable):
        rows = []
        for row in table.rows:
            cells = []
            for column, printed in zip(table.columns, row.percent, strict=False):
                exact = exact_percent(step_dice, table, row.skill, column, reading)
                cells.append(
                    {
                        "attribute": column,
                        "printed": printed,
                        "computed": chance_json(exact / 100),
                        "agrees": within_rounding(printed, exact),
                    }
                )
            rows.append({"skill": row.skill, "cells": cells})
        tables.append({"id": table.id, "name": table.name, "roll": table.roll, "rows": rows})
    return {"ruleset": ruleset.id, "reading": reading, "tables": tables}


def format_t2k4e_tables(data: dict) -> str:
    """The printed odds tables beside the computed chances, as aligned text; a star marks a
    printed cell that `within_rounding` refuses: more than half a point from the exact
    chance (the figure shown beside it is rounded to a tenth)."""
    lines = [
        "Each cell: the printed chance of at least one success / the chance the rules give",
        f"(pushing: {data['reading']}). * marks a printed figure that is not the rules' chance",
        "rounded to a whole percent: more than half a point from it (37.5% agrees with 37 and 38).",
    ]
    for table in data["tables"]:
        columns = [cell["attribute"] for cell in table["rows"][0]["cells"]]
        rows = [
            [
                row["skill"] or "--",
                *(
                    f"{'' if cell['agrees'] else '*'}{cell['printed']}% / "
                    f"{cell['computed']['percent']:.1f}%"
                    for cell in row["cells"]
                ),
            ]
            for row in table["rows"]
        ]
        lines += ["", table["name"]]
        lines += table_lines(["skill \\ attribute", *columns], rows)
    return "\n".join(lines)


@click.command("t2k4e")
@click.option("--attribute", "attribute_die", type=STEP_DIE, required=True, help="Attribute die.")
@click.option("--skill", "skill_die", type=STEP_DIE, default=None, help="Skill die, if any.")
@click.option(
    "--modifier",
    "modifiers",
    type=click.IntRange(-10, 10),
    multiple=True,
    help="A bonus or penalty, -10 to +10 (repeatable; the net shifts the dice at most to "
    "the rules' highest or lowest pool).",
)
@click.option(
    "--helpers", type=click.IntRange(0, 20), default=0, help="Characters helping (group roll)."
)
@click.option(
    "--faces", type=IntList(), default=None, help="The faces rolled, attribute die first."
)
@click.option("--push", is_flag=True, help="Push the roll.")
@click.option("--push-faces", type=IntList(), default=None, help="Faces of the re-rolled dice.")
@click.option(
    "--for",
    "attribute",
    type=click.Choice(["STR", "AGL", "INT", "EMP"]),
    default=None,
    help="The attribute rolled, to price the push.",
)
@click.option("--gear", "with_gear", is_flag=True, help="The push uses a piece of gear.")
@click.option("--reading", type=READING, default=None, help="Which dice a push re-rolls.")
@click.option("--seed", type=SEED, default=None, help="Roll with this seed (0 to 2^63-1) instead.")
@ruleset_options(StepDice)
def roll_t2k4e(attribute_die, skill_die, compendium, ruleset_id, as_json, **request):
    """A Twilight: 2000 4e roll with modifiers, helpers and a push.

    The text names the dice a push re-rolls ("die 2 (d6 showing 3)"); with --json,
    `pushed.rerolled` lists their indices in `faces` and `rolled_pool`, counted from 0."""
    pool = [attribute_die, *([skill_die] if skill_die else [])]
    data = t2k4e_roll(load_ruleset(compendium, ruleset_id, StepDice), T2k4eRoll(pool, **request))
    emit(data if as_json else t2k4e_text_data(data), as_json, summary=t2k4e_summary(data))


@click.command("t2k4e")
@click.option(
    "--attribute",
    "attribute_die",
    type=STEP_DIE,
    default=None,
    help="With --skill: one pool's full distribution; default: the odds tables.",
)
@click.option("--skill", "skill_die", type=STEP_DIE, default=None, help="Skill die, if any.")
@click.option(
    "--reading",
    type=READING,
    default=None,
    help="Which dice a push re-rolls (default: the rule text's).",
)
@ruleset_options(StepDice)
def odds_t2k4e(attribute_die, skill_die, reading, compendium, ruleset_id, as_json):
    """T2K4e success odds: the printed tables beside the computed ones, or one pool."""
    ruleset = load_ruleset(compendium, ruleset_id, StepDice)
    if attribute_die:
        pool = [attribute_die, *([skill_die] if skill_die else [])]
        data = t2k4e_pool(ruleset, pool, reading)
        text = "\n\n".join(
            format_distribution(
                [(f"{s['successes']}", s["chance"]) for s in data[name]["successes"]],
                f"The successes of {'+'.join(pool)}, {name}"
                + (f" (pushing: {data['reading']}):" if name == "pushed" else ":"),
                "successes",
            )
            for name in ("initial", "pushed")
        )
    else:
        data = t2k4e_tables(ruleset, reading)
        text = format_t2k4e_tables(data)
    emit(data, as_json, text)
