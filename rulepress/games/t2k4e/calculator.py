"""Twilight: 2000 4e's calculator: step dice with modifiers and a push (a kind's
`calculator` hook; its script is `calculator.js, beside it`)."""

from __future__ import annotations

from fractions import Fraction

from rulepress.games.t2k4e.models.step_dice import (
    STEPS,
    GroupRoll,
    ModifierRule,
    PushRule,
    StepDice,
    push_reading,
)
from rulepress.games.t2k4e.odds import READINGS
from rulepress.plugin import dice
from rulepress.plugin.site import Calculator, calculator_form, chance_cells, number_input, select

T2K4E_MODIFIER = 10
"""The net modifier the T2K4e calculator takes, -10 to +10 (as `roll t2k4e --modifier`)."""
T2K4E_HELPERS = 20
"""The helpers the T2K4e calculator takes, 0 to 20 (as `roll t2k4e --helpers`)."""


def _success_rows(distribution: dict[int, Fraction]) -> list[list[str]]:
    at_least = dice.tails(distribution)
    return [
        [str(successes), *chance_cells(chance), *chance_cells(at_least[successes])]
        for successes, chance in dice.ordered(distribution)
    ]


def step_dice_calculator(ruleset) -> Calculator:
    """Attribute die, skill die, net modifier (-T2K4E_MODIFIER to +T2K4E_MODIFIER),
    helpers (0-T2K4E_HELPERS) and push reading: the dice after shifting and each success
    count's chance before and after a push. Bounded: the net of each (modifier, helpers)
    pair (21 x 21 numbers), the shifted pool of each (attribute, skill, net) (4 x 5 x at
    most 31), and the distributions of the at most 20 pools, for each of the 2 readings."""
    step_dice: StepDice = ruleset.require(StepDice)
    modifier_rule: ModifierRule = ruleset.require(ModifierRule)
    group = ruleset.one(GroupRoll)
    rule_reading = push_reading(ruleset.one(PushRule))
    nets = {
        str(modifier): [
            modifier_rule.net([modifier, group.bonus(helpers) if group else 0])
            for helpers in range(T2K4E_HELPERS + 1)
        ]
        for modifier in range(-T2K4E_MODIFIER, T2K4E_MODIFIER + 1)
    }
    all_nets = sorted({net for row in nets.values() for net in row})
    shifted: dict = {}
    pools: dict[str, dict] = {}
    for attribute in STEPS:
        for skill in ("", *STEPS):
            pool = [attribute, *([skill] if skill else [])]
            by_net = {}
            for net in all_nets:
                dice_ = modifier_rule.shift(pool, net)
                key = "+".join(dice_)
                by_net[str(net)] = key
                if key not in pools:
                    pools[key] = {
                        reading: {
                            "initial": _success_rows(step_dice.distribution(dice_)),
                            "pushed": _success_rows(
                                step_dice.distribution(dice_, pushed=True, reading=reading)
                            ),
                        }
                        for reading in READINGS
                    }
            shifted.setdefault(attribute, {})[skill or "none"] = by_net
    dice_options = [(die, die) for die in STEPS]
    form = calculator_form(
        "t2k4e",
        "Roll with modifiers and push",
        [
            select("t2k4e", "attribute", "Attribute die", dice_options, "d8"),
            select("t2k4e", "skill", "Skill die", [("none", "none"), *dice_options], "d8"),
            number_input(
                "t2k4e",
                "modifier",
                "Modifier, all bonuses and penalties summed",
                -T2K4E_MODIFIER,
                T2K4E_MODIFIER,
                0,
            ),
            number_input("t2k4e", "helpers", "Helpers", 0, T2K4E_HELPERS, 0),
            select(
                "t2k4e",
                "reading",
                "Dice a push re-rolls",
                [
                    (r, f"{r.replace('-', ' ')}{' (the rule text)' if r == rule_reading else ''}")
                    for r in READINGS
                ],
                rule_reading,
            ),
        ],
    )
    text = (
        "Choose the dice, the modifiers and helpers, and how a push reads: the calculator "
        "shows the dice after shifting and the chance of each number of successes, "
        "before and after a push, exactly."
    )
    data = {"nets": nets, "shifted": shifted, "pools": pools}
    return Calculator("t2k4e", "Roll with modifiers and push", text, form, data)
