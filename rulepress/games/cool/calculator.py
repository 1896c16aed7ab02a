"""Cool's calculator: shock and fear rolls (a kind's `calculator` hook; its script is
`calculator.js, beside it`)."""

from __future__ import annotations

from fractions import Fraction

from rulepress.games.cool.models import PERCENTILE, CriticalFailure, FearRoll, ShockRoll
from rulepress.plugin.site import Calculator, calculator_form, chance_cells, number_input

COOL_DAMAGE = 100
"""The damage taken the Cool calculator covers, 0 to 100 (as `roll cool --penalty`)."""


def _outcome_chances(outcome, targets: set[int]) -> dict[str, list[list[str]]]:
    """Each target -> [state, percent, exact fraction] for each state a d100 can give."""
    table = {}
    for target in sorted(targets):
        counts: dict[str, int] = {}
        for roll in range(1, PERCENTILE + 1):
            state = outcome(roll, target)
            counts[state] = counts.get(state, 0) + 1
        table[str(target)] = [
            [state.replace("-", " ").capitalize(), *chance_cells(Fraction(count, PERCENTILE))]
            for state, count in counts.items()
        ]
    return table


def cool_calculator(ruleset) -> Calculator:
    """Cool score (0-100) and damage taken (0-COOL_DAMAGE): each roll's target and the
    chance of each outcome. Bounded: a target per (Cool, damage) pair, 101 x 101 numbers
    for each roll, and the outcomes of each of the at most 201 targets they take."""
    shock, fear = ruleset.one(ShockRoll), ruleset.one(FearRoll)
    critical: CriticalFailure = ruleset.require(CriticalFailure)
    rolls = []
    for name, rule, outcome in (
        ("Shock roll", shock, lambda roll, target: shock.resolve(roll, target, critical).outcome),
        ("Fear roll", fear, lambda roll, target: fear.resolve(roll, target, critical).outcome),
    ):
        if rule is None:
            continue
        targets = [
            [rule.target(cool, damage) for damage in range(COOL_DAMAGE + 1)]
            for cool in range(PERCENTILE + 1)
        ]
        rolls.append(
            {
                "name": name,
                "targets": targets,
                "outcomes": _outcome_chances(outcome, {t for row in targets for t in row}),
            }
        )
    form = calculator_form(
        "cool",
        "Shock and fear rolls",
        [
            number_input("cool", "cool", "Cool score", 0, PERCENTILE, 50),
            number_input("cool", "damage", "Damage taken", 0, COOL_DAMAGE, 0),
        ],
    )
    text = (
        "Give a character's Cool and the damage they have taken: the calculator shows "
        "the target of each roll and the chance of each outcome on a d100, exactly. "
        f"A roll of {critical.lowest_roll} or more is a critical failure."
    )
    return Calculator("cool", "Shock and fear rolls", text, form, {"rolls": rolls})
