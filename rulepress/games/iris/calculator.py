"""IRIS's calculator: the skill test and each weapon's row (a kind's `calculator` hook;
its script is `calculator.js, beside it`)."""

from __future__ import annotations

import json

from rulepress.games.iris.models.skill_test import MAX_RANK, SkillTest, SkillTestResult
from rulepress.games.iris.models.weapon import weapons_by_section
from rulepress.plugin import dice
from rulepress.plugin.site import (
    Calculator,
    calculator_form,
    chance_cells,
    number_input,
)

MAX_CALCULATOR_RANK = 20
"""The highest skill rank the IRIS calculator precomputes (the rules go to MAX_RANK)."""
MAX_CALCULATOR_TRAIT = 20
"""The highest trait bonus the IRIS calculator takes."""
SKILL_TEST_BUDGET = 200_000
"""Characters of JSON the skill test's distributions may take: with larger dice or more
dice per rank than IRIS's one d6, exact fractions grow long, and fewer ranks fit."""
MAX_CALCULATOR_WEAPONS = 300
"""Weapons whose row the IRIS calculator shows; a larger compendium's calculator says so
and sends readers to the weapon pages."""


def skill_test_calculator(ruleset) -> Calculator:
    """Skill rank (0 to at most MAX_CALCULATOR_RANK, fewer if their exact distributions
    pass SKILL_TEST_BUDGET characters) and trait bonus (0-MAX_CALCULATOR_TRAIT): the AP
    distribution, P(AP >= k), and the row of each of the first MAX_CALCULATOR_WEAPONS
    weapons at a chosen AP."""
    rule: SkillTest = ruleset.require(SkillTest)
    ranks: list[dict] = []
    size = 0
    for rank in range(MAX_CALCULATOR_RANK + 1):
        dice_ap = rule.distribution(rank)
        at_least = dice.tails(dice_ap)
        entry = {
            "ap": [ap for ap, _ in dice.ordered(dice_ap)],
            "exactly": [chance_cells(chance) for _, chance in dice.ordered(dice_ap)],
            "atLeast": [chance_cells(at_least[ap]) for ap, _ in dice.ordered(dice_ap)],
        }
        size += len(json.dumps(entry))
        if size > SKILL_TEST_BUDGET and rank > 0:
            break
        ranks.append(entry)
    top_rank = len(ranks) - 1
    most_dice_ap = max(ranks[-1]["ap"])
    # the test's total for each trait bonus and dice AP, as the rules add them
    totals = [
        [SkillTestResult(ap, bonus).total for ap in range(most_dice_ap + 1)]
        for bonus in range(MAX_CALCULATOR_TRAIT + 1)
    ]
    most_ap = max(max(row) for row in totals)
    weapons = []
    published = [w for _, section in weapons_by_section(ruleset) for w in section]
    for weapon in published[:MAX_CALCULATOR_WEAPONS]:
        rows = [list(row) for row in weapon.table]
        weapons.append(
            {
                "name": weapon.display_name,
                "move": weapon.move_column,
                "rows": rows,
                "at": [_row_index(weapon, ap) for ap in range(most_ap + 1)],
            }
        )
    form = calculator_form(
        "skill-test",
        "Skill test",
        [
            number_input("skill-test", "rank", "Skill rank", 0, top_rank, 3),
            number_input(
                "skill-test", "bonus", "Trait bonus (the higher trait)", 0, MAX_CALCULATOR_TRAIT, 0
            ),
            number_input("skill-test", "ap", "AP scored, for the weapons", 0, most_ap, 3),
        ],
    )
    text = (
        "Give a skill rank and the trait bonus: the calculator shows the chance of each "
        "total AP, exactly and at least, and what each weapon does at the AP you choose."
    )
    if top_rank < MAX_RANK:
        text += (
            f" Ranks above {top_rank} are not precomputed: their exact figures would make "
            "this page too large to load."
        )
    if len(published) > MAX_CALCULATOR_WEAPONS:
        text += (
            f" The weapons shown are the first {MAX_CALCULATOR_WEAPONS} of {len(published)}; "
            "each weapon's page has its whole table."
        )
    data = {"ranks": ranks, "totals": totals, "weapons": weapons}
    return Calculator("skill-test", "Skill test", text, form, data)


def _row_index(weapon, ap: int) -> int:
    """The index of the row a test scoring `ap` uses (`row_for`), or -1 for none."""
    row = weapon.row_for(ap)
    return -1 if row is None else weapon.table.index(row)
