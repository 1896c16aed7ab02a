"""`rulepress odds`: exact distributions and tables, computed from the rules.

Chances are exact fractions; `--json` gives each as "numerator/denominator" beside its
percentage.
"""

from __future__ import annotations

from fractions import Fraction

import click

from rulepress import dice
from rulepress.commands.options import (
    READING,
    STEP_DIE,
    emit,
    load_ruleset,
    ruleset_options,
    table_lines,
)
from rulepress.compendium.model import Ruleset
from rulepress.games.t2k4e.models.odds_table import OddsTable
from rulepress.games.t2k4e.models.step_dice import PushRule, StepDice
from rulepress.games.t2k4e.odds import exact_percent, within_rounding


def chance_json(chance: Fraction) -> dict:
    """A chance as `odds --json` gives it: the exact fraction, and a percent rounded for reading."""
    return {
        "fraction": f"{chance.numerator}/{chance.denominator}",
        # int / int is correctly rounded, without reducing a Fraction of 2,000-digit parts
        "percent": round(chance.numerator * 100 / chance.denominator, 4),
    }


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
    printed cell a point or more off the computed figure beside it."""
    lines = [
        f"Each cell: the printed chance of at least one success / the chance the rules give "
        f"(pushing: {data['reading']}); * marks a printed figure a point or more off."
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


def format_distribution(rows: list[tuple[str, dict]], title: str, outcome: str) -> str:
    """A distribution as an aligned text table: each outcome's chance, in percent and exact."""
    cells = [[label, f"{chance['percent']:.4f}%", chance["fraction"]] for label, chance in rows]
    table = table_lines([outcome, "chance", "exactly"], cells, ragged_last=True)
    return "\n".join([title, *table])


# The kinds' `odds` commands (rulepress.kinds.builtin names them; rulepress.cli loads them).


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
