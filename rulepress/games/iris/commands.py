"""IRIS's subcommands: `rulepress roll iris` and `odds iris` (the skill test, rolled or
worked exactly), `new weapon` and `new skill` (a valid skeleton document in its place)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import click

from rulepress.games.iris.kinds import SKILL_CATEGORIES
from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.skill_test import MAX_RANK, SkillTest
from rulepress.games.iris.models.weapon import WeaponProfile, WeaponSection
from rulepress.plugin import DIE_SIDES, Ruleset, dice
from rulepress.plugin.cli import (
    SEED,
    TEXT,
    IntList,
    RulepressError,
    Text,
    chance_json,
    check_faces,
    compendium_option,
    create_document,
    dice_count,
    emit,
    faces_text,
    fitted_table_lines,
    format_distribution,
    free_id,
    load_ruleset,
    ruleset_option,
    ruleset_options,
    table_lines,
    target_ruleset,
)


def _check_traits(traits: Sequence[int]) -> None:
    if len(traits) > 2:
        raise RulepressError(f"--traits: a skill has two traits, {len(traits)} ranks given")
    for rank in traits:
        if not 0 <= rank <= MAX_RANK:
            raise RulepressError(f"--traits: a trait rank is 0 to {MAX_RANK}, not {rank}")


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
        needs = f"rank {rank} rolls {dice_count(count)}"
        check_faces("--faces", faces, [DIE_SIDES[rule.die]] * count, needs)
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


def iris_summary(data: dict) -> str:
    """An IRIS test's result in one sentence."""
    return (
        f"Rank {data['rank']} rolls {dice_count(len(data['faces']))} "
        f"({faces_text(data['faces'])}): "
        f"{data['dice_ap']} AP from the dice and {data['trait_bonus']} from the higher trait, "
        f"{data['total']} AP in all."
    )


def iris_table(ruleset: Ruleset, ranks: range, up_to: int, trait_bonus: int) -> dict:
    """P(AP >= k) for each rank and k = 1..up_to."""
    rule: SkillTest = ruleset.require(SkillTest)
    rows = []
    for rank in ranks:
        chances = rule.chances(rank, range(1, up_to + 1), trait_bonus=trait_bonus)
        rows.append({"rank": rank, "at_least": [chance_json(chance) for chance in chances]})
    return {
        "ruleset": ruleset.id,
        "trait_bonus": trait_bonus,
        "ap": list(range(1, up_to + 1)),
        "rows": rows,
    }


def iris_distribution(ruleset: Ruleset, rank: int, trait_bonus: int) -> dict:
    """The AP one skill test can earn, each exactly and at least: `odds`'s data for one rank."""
    rule: SkillTest = ruleset.require(SkillTest)
    distribution = rule.distribution(rank, trait_bonus=trait_bonus)
    at_least = dice.tails(distribution)
    return {
        "ruleset": ruleset.id,
        "rank": rank,
        "trait_bonus": trait_bonus,
        "outcomes": [
            {
                "ap": ap,
                "exactly": chance_json(p),
                "at_least": chance_json(at_least[ap]),
            }
            for ap, p in dice.ordered(distribution)
        ],
    }


def format_iris_table(data: dict, wide: bool = False) -> str:
    """The chance of at least k AP by rank, as an aligned text table: in blocks of k that
    fit 100 columns, or `wide`, every k on one line."""
    rows = [
        [str(row["rank"]), *(f"{cell['percent']:.1f}%" for cell in row["at_least"])]
        for row in data["rows"]
    ]
    header = ["rank \\ k", *map(str, data["ap"])]
    return "\n".join(
        [
            f"The chance of at least k AP by rank, with a trait bonus of {data['trait_bonus']}:",
            *(table_lines(header, rows) if wide else fitted_table_lines(header, rows)),
        ]
    )


def new_weapon(
    compendium: Path, ruleset_id: str | None, name: str, section: str, tier: int
) -> Path:
    """Write a draft weapon, last in its section: the new file's path."""
    ruleset = target_ruleset(compendium, ruleset_id, WeaponProfile)
    if not isinstance(ruleset.get(section), WeaponSection):
        known = ", ".join(s.id for s in ruleset.all(WeaponSection, drafts=True))
        raise RulepressError(f"no weapon section '{section}' (known: {known})")
    order = 1 + max(
        (w.order for w in ruleset.all(WeaponProfile, drafts=True) if w.section == section),
        default=0,
    )
    weapon_id = free_id(ruleset, name)
    data = {
        "kind": "weapon",
        "id": weapon_id,
        "status": "draft",
        "name": name,
        "header": name,
        "tier": tier,
        "section": section,
        "order": order,
    }
    return create_document(ruleset, ("weapons", section, f"{weapon_id}.yaml"), data)


def new_skill(
    compendium: Path, ruleset_id: str | None, name: str, category: str, traits: list[str]
) -> Path:
    """Write a skill, last in the skills' order: the new file's path."""
    ruleset = target_ruleset(compendium, ruleset_id, Skill)
    order = 1 + max((s.order for s in ruleset.all(Skill, drafts=True)), default=0)
    skill_id = free_id(ruleset, name)
    data = {
        "kind": "skill",
        "id": skill_id,
        "name": name,
        "category": category,
        "order": order,
        "traits": traits,
    }
    return create_document(ruleset, ("skills", f"{skill_id}.yaml"), data)


NAME = Text("cannot make an id from ''")
"""A document's name: its id is made from it."""


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


@click.command("iris")
@click.option(
    "--rank",
    type=click.IntRange(0, MAX_RANK),
    default=None,
    help="One rank's full distribution; default: the P(AP >= k) table by rank.",
)
@click.option(
    "--max-rank",
    type=click.IntRange(1, MAX_RANK),
    default=10,
    show_default=True,
    help="Largest rank in the table.",
)
@click.option(
    "--up-to",
    type=click.IntRange(1, 120),
    default=20,
    show_default=True,
    help="Largest k in the table.",
)
@click.option(
    "--trait-bonus",
    type=click.IntRange(0, MAX_RANK),
    default=0,
    show_default=True,
    help="AP the higher trait adds to every test.",
)
@click.option(
    "--wide",
    is_flag=True,
    help="The table with every k on one line; default: in blocks of k that fit 100 columns.",
)
@ruleset_options(SkillTest)
def odds_iris(rank, max_rank, up_to, trait_bonus, wide, compendium, ruleset_id, as_json):
    """IRIS skill test odds: P(AP >= k) by rank, or one rank's distribution."""
    ruleset = load_ruleset(compendium, ruleset_id, SkillTest)
    if rank is not None:
        data = iris_distribution(ruleset, rank, trait_bonus)
        text = format_distribution(
            [(str(o["ap"]), o["exactly"]) for o in data["outcomes"]],
            f"The AP one test earns at rank {rank}, with a trait bonus of {trait_bonus}:",
            "AP",
        )
    else:
        data = iris_table(ruleset, range(1, max_rank + 1), up_to, trait_bonus)
        text = format_iris_table(data, wide)
    emit(data, as_json, text)


@click.command("weapon")
@click.argument("name", type=NAME)
@click.option(
    "--section", type=TEXT, required=True, help="Weapon section id (pistols, shotguns...)."
)
@click.option(
    "--tier", type=click.IntRange(1, 10), default=1, show_default=True, help="The weapon's tier."
)
@ruleset_option(WeaponProfile)
@compendium_option
def new_weapon_command(name, section, tier, ruleset_id, compendium):
    """A draft weapon profile NAME, to fill in with its stats and AP table."""
    click.echo(f"wrote {new_weapon(compendium, ruleset_id, name, section, tier)}")


@click.command("skill")
@click.argument("name", type=NAME)
@click.option(
    "--category", type=click.Choice(list(SKILL_CATEGORIES)), required=True, help="Its list."
)
@click.option("--traits", type=TEXT, required=True, help="The two trait ids: agility,acuity.")
@ruleset_option(Skill)
@compendium_option
def new_skill_command(name, category, traits, ruleset_id, compendium):
    """A skill NAME with its category and two traits."""
    trait_ids = [t.strip() for t in traits.split(",") if t.strip()]
    click.echo(f"wrote {new_skill(compendium, ruleset_id, name, category, trait_ids)}")
