"""`rulepress roll`: resolve one test with given faces or a seeded roll, the rules' way.

Each function returns plain data (what `--json` prints); the CLI formats it for people.
Given faces are resolved as they are; otherwise the dice are rolled with
`random.Random(seed)`, so the same seed gives the same result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import click

from rulepress import dice
from rulepress.commands.options import (
    READING,
    SEED,
    STEP_DIE,
    IntList,
    emit,
    load_ruleset,
    ruleset_options,
)
from rulepress.compendium.model import Ruleset
from rulepress.errors import RulepressError
from rulepress.games.cool.models import CriticalFailure, FearRoll, ShockRoll
from rulepress.games.cuf import rules as cuf_rules
from rulepress.games.cuf.models.cuf import CufRating
from rulepress.games.t2k4e.models.step_dice import (
    GroupRoll,
    ModifierRule,
    PushRule,
    Reading,
    StepDice,
)
from rulepress.models.common import DIE_SIDES


def check_faces(option: str, faces: Sequence[int], sides: Sequence[int], needs: str) -> None:
    """Faces given with `option`, one for each die of `sides`: the right count, each on its
    die. `needs` says how many are needed ("rank 2 rolls 2 dice")."""
    if len(faces) != len(sides):
        given = "1 face" if len(faces) == 1 else f"{len(faces)} faces"
        raise RulepressError(f"{option}: {needs}, {given} given")
    for face, size in zip(faces, sides, strict=True):
        if not 1 <= face <= size:
            raise RulepressError(f"{option}: a d{size} cannot show {face}")


def _dice(count: int) -> str:
    return "1 die" if count == 1 else f"{count} dice"


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
        needs = f"the pool {'+'.join(shifted)} rolls {_dice(len(shifted))}"
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
            needs = f"the push re-rolls {_dice(len(picked))}"
            check_faces("--push-faces", push_faces, sides, needs)
        pushed = rule.push(faces, push_faces, step_dice, reading)
        data["pushed"] = {"rerolled": picked, "faces": pushed, "successes": step_dice.count(pushed)}
        if request.attribute:
            price = rule.price(request.attribute, request.with_gear)
            data["pushed"]["price"] = {
                "character": price.character,
                "gear_damage": price.gear_damage,
                "gear_reliability_loss": price.gear_reliability_loss,
            }
    return data


def cuf_check(
    ruleset: Ruleset, cuf: int, willpower: int, tcs: int, d20: int | None, seed: int | None
) -> dict:
    """The state a number of TCs puts a CUF in, and the check it calls for: what `roll` prints."""
    reached = cuf_rules.state(ruleset, tcs, cuf=cuf)
    data: dict = {
        "ruleset": ruleset.id,
        "cuf": cuf,
        "tcs": tcs,
        "state": reached.id,
    }
    threshold = reached.threshold
    if threshold is None:
        return data
    ratings = {"cuf": cuf, "willpower": willpower}
    roll = d20 if d20 is not None else dice.roll(20, random.Random(seed))
    check_faces("--d20", [roll], [20], "the check rolls one d20")
    passed = threshold.check.passes(roll, ratings)
    result = threshold.result(passed)
    data.update(
        check={
            "difficulty": threshold.check.difficulty,
            "target": threshold.check.target(ratings),
            "roll": roll,
            "passed": passed,
        },
        suppression_rounds=threshold.suppression_rounds(tcs, cuf, passed),
        bane=result.bane,
        flee_or_surrender=result.flee_or_surrender,
        skill_penalty=result.skill_penalty,
        initiative_penalty=result.initiative_penalty,
        effect=result.text.strip(),
    )
    return data


def cool_roll(
    ruleset: Ruleset, kind: str, cool: int, damage: int, roll: int | None, seed: int | None
) -> dict:
    """A shock or fear roll against Cool, and its outcome: what `roll` prints."""
    critical: CriticalFailure = ruleset.require(CriticalFailure)
    roll = roll if roll is not None else dice.roll(100, random.Random(seed))
    check_faces("--roll", [roll], [100], "a percentile roll is one roll")
    if kind == "shock":
        rule: ShockRoll = ruleset.require(ShockRoll)
        target = rule.target(cool, damage)
        return {
            "ruleset": ruleset.id,
            "roll": roll,
            "target": target,
            "outcome": rule.resolve(roll, target, critical).outcome,
            "unconscious": rule.unconscious.dice + " " + rule.unconscious.unit,
        }
    fear: FearRoll = ruleset.require(FearRoll)
    result = fear.resolve(roll, fear.target(cool, damage), critical)
    return {
        "ruleset": ruleset.id,
        "roll": roll,
        "target": result.target,
        "outcome": result.outcome,
        "penalty": result.penalty,
    }


def _successes(count: int) -> str:
    return "1 success" if count == 1 else f"{count} successes"


def _faces(faces: Sequence[int]) -> str:
    return ", ".join(map(str, faces)) or "no dice"


def t2k4e_summary(data: dict) -> str:
    """A T2K4e roll's result, and its push's, in words."""
    pool, rolled = "+".join(data["pool"]), "+".join(data["rolled_pool"])
    shifted = f", shifted by {data['net_modifier']:+d} to {rolled}," if data["net_modifier"] else ""
    text = f"{pool}{shifted} rolls {_faces(data['faces'])}: {_successes(data['successes'])}."
    if "pushed" in data:
        pushed = data["pushed"]
        text += (
            f" Pushed, re-rolling {_dice(len(pushed['rerolled']))}: "
            f"{_faces(pushed['faces'])}, so {_successes(pushed['successes'])}."
        )
    return text


def cuf_summary(data: dict) -> str:
    """A CUF threat check's result in words."""
    start = f"{data['tcs']} TC{'' if data['tcs'] == 1 else 's'} against CUF {data['cuf']}"
    if "check" not in data:
        return f"{start}: no threat state, so no check."
    check = data["check"]
    return (
        f"{start}: {data['state'].replace('-', ' ').capitalize()}. The {check['difficulty']} "
        f"check against {check['target']} rolls {check['roll']}: "
        f"{'passed' if check['passed'] else 'failed'}."
    )


def cool_summary(kind: str, data: dict) -> str:
    """A shock or fear roll's result in words."""
    return (
        f"{kind.capitalize()} roll of {data['roll']} against a target of {data['target']}: "
        f"{data['outcome'].replace('-', ' ')}."
    )


# The kinds' `roll` commands (rulepress.kinds.builtin names them; rulepress.cli loads them).


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
    """A Twilight: 2000 4e roll with modifiers, helpers and a push."""
    pool = [attribute_die, *([skill_die] if skill_die else [])]
    data = t2k4e_roll(load_ruleset(compendium, ruleset_id, StepDice), T2k4eRoll(pool, **request))
    emit(data, as_json, summary=t2k4e_summary(data))


@click.command("cuf")
@click.option("--cuf", type=click.IntRange(0, 40), required=True, help="The character's CUF.")
@click.option("--willpower", type=click.IntRange(0, 40), required=True, help="Willpower.")
@click.option(
    "--tcs", type=click.IntRange(0, 500), required=True, help="Threat conditions this round."
)
@click.option("--d20", type=click.IntRange(1, 20), default=None, help="The check's d20 roll.")
@click.option("--seed", type=SEED, default=None, help="Roll with this seed (0 to 2^63-1) instead.")
@ruleset_options(CufRating)
def roll_cuf(cuf, willpower, tcs, d20, seed, compendium, ruleset_id, as_json):
    """A CUF threat check: the state the TCs reach and the check it calls for."""
    ruleset = load_ruleset(compendium, ruleset_id, CufRating)
    data = cuf_check(ruleset, cuf, willpower, tcs, d20, seed)
    emit(data, as_json, summary=cuf_summary(data))


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
