"""`rulepress roll`: resolve one test with given faces or a seeded roll, the rules' way.

Each function returns plain data (what `--json` prints); the CLI formats it for people.
Given faces are resolved as they are; otherwise the dice are rolled with
`random.Random(seed)`, so the same seed gives the same result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import click

from rulepress.commands.options import (
    SEED,
    IntList,
    emit,
    load_ruleset,
    ruleset_options,
)
from rulepress.compendium.model import Ruleset
from rulepress.errors import RulepressError
from rulepress.games.iris.models.skill_test import MAX_RANK, SkillTest
from rulepress.models.common import DIE_SIDES


def _check_faces(option: str, faces: Sequence[int], sides: Sequence[int], needs: str) -> None:
    """Faces given with `option`, one for each die of `sides`: the right count, each on its
    die. `needs` says how many are needed ("rank 2 rolls 2 dice")."""
    if len(faces) != len(sides):
        given = "1 face" if len(faces) == 1 else f"{len(faces)} faces"
        raise RulepressError(f"{option}: {needs}, {given} given")
    for face, size in zip(faces, sides, strict=True):
        if not 1 <= face <= size:
            raise RulepressError(f"{option}: a d{size} cannot show {face}")


def _check_traits(traits: Sequence[int]) -> None:
    if len(traits) > 2:
        raise RulepressError(f"--traits: a skill has two traits, {len(traits)} ranks given")
    for rank in traits:
        if not 0 <= rank <= MAX_RANK:
            raise RulepressError(f"--traits: a trait rank is 0 to {MAX_RANK}, not {rank}")


def _dice(count: int) -> str:
    return "1 die" if count == 1 else f"{count} dice"


def iris_skill_test(
    ruleset: Ruleset,
    rank: int,
    traits: Sequence[int],
    faces: Sequence[int] | None,
    seed: int | None,
) -> dict:
    """One skill test, with the faces given or rolled from `seed`: what `roll` prints."""
    rule: SkillTest = ruleset.require(SkillTest)
    if not 0 <= rank <= MAX_RANK:
        raise RulepressError(f"--rank: a rank is 0 to {MAX_RANK}, not {rank}")
    _check_traits(traits)
    if faces is None:
        result = rule.roll(rank, traits, random.Random(seed))
        faces = result.faces
    else:
        count = rule.dice_for(rank)
        needs = f"rank {rank} rolls {_dice(count)}"
        _check_faces("--faces", faces, [DIE_SIDES[rule.die]] * count, needs)
        result = rule.resolve(faces, traits)
    return {
        "ruleset": ruleset.id,
        "test": "skill-test",
        "rank": rank,
        "faces": list(faces),
        "dice_ap": result.dice_ap,
        "trait_bonus": result.trait_bonus,
        "total": result.total,
    }


def _faces(faces: Sequence[int]) -> str:
    return ", ".join(map(str, faces)) or "no dice"


def iris_summary(data: dict) -> str:
    """An IRIS test's result in one sentence."""
    return (
        f"Rank {data['rank']} rolls {_dice(len(data['faces']))} ({_faces(data['faces'])}): "
        f"{data['dice_ap']} AP from the dice and {data['trait_bonus']} from the higher trait, "
        f"{data['total']} AP in all."
    )


# The kinds' `roll` commands (rulepress.kinds.builtin names them; rulepress.cli loads them).


@click.command("iris")
@click.option(
    "--rank", type=click.IntRange(0, MAX_RANK), required=True, help="Skill rank (dice rolled)."
)
@click.option("--traits", type=IntList(), default="", help="The skill's two trait ranks: 5,3.")
@click.option("--faces", type=IntList(), default=None, help="The d6 faces rolled.")
@click.option("--seed", type=SEED, default=None, help="Roll with this seed (0 to 2^63-1) instead.")
@ruleset_options(SkillTest)
def roll_iris(rank, traits, faces, seed, compendium, ruleset_id, as_json):
    """An IRIS skill test: AP from the dice plus the higher trait."""
    ruleset = load_ruleset(compendium, ruleset_id, SkillTest)
    data = iris_skill_test(ruleset, rank, traits, faces, seed)
    emit(data, as_json, summary=iris_summary(data))
