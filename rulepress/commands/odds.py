"""`rulepress odds`: exact distributions and tables, computed from the rules.

Chances are exact fractions; `--json` gives each as "numerator/denominator" beside its
percentage.
"""

from __future__ import annotations

from fractions import Fraction

import click

from rulepress import dice
from rulepress.commands.options import (
    emit,
    load_ruleset,
    ruleset_options,
    table_lines,
)
from rulepress.compendium.model import Ruleset
from rulepress.games.iris.models.skill_test import MAX_RANK, SkillTest


def chance_json(chance: Fraction) -> dict:
    """A chance as `odds --json` gives it: the exact fraction, and a percent rounded for reading."""
    return {
        "fraction": f"{chance.numerator}/{chance.denominator}",
        # int / int is correctly rounded, without reducing a Fraction of 2,000-digit parts
        "percent": round(chance.numerator * 100 / chance.denominator, 4),
    }


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


def format_iris_table(data: dict) -> str:
    """The chance of at least k AP by rank, as an aligned text table."""
    rows = [
        [str(row["rank"]), *(f"{cell['percent']:.1f}%" for cell in row["at_least"])]
        for row in data["rows"]
    ]
    return "\n".join(
        [
            f"The chance of at least k AP by rank, with a trait bonus of {data['trait_bonus']}:",
            *table_lines(["rank \\ k", *map(str, data["ap"])], rows),
        ]
    )


def format_distribution(rows: list[tuple[str, dict]], title: str, outcome: str) -> str:
    """A distribution as an aligned text table: each outcome's chance, in percent and exact."""
    cells = [[label, f"{chance['percent']:.4f}%", chance["fraction"]] for label, chance in rows]
    table = table_lines([outcome, "chance", "exactly"], cells, ragged_last=True)
    return "\n".join([title, *table])


# The kinds' `odds` commands (rulepress.kinds.builtin names them; rulepress.cli loads them).


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
@ruleset_options(SkillTest)
def odds_iris(rank, max_rank, up_to, trait_bonus, compendium, ruleset_id, as_json):
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
        text = format_iris_table(data)
    emit(data, as_json, text)
