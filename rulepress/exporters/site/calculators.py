"""The site's calculators: forms that answer players' questions with figures the rules
work out at build time.

No rule is written again in JavaScript. Each calculator (a kind's `calculator` hook)
gives its form and a table of exact results, keyed by the form's inputs; the page's
script (`javascripts/calculator.js`) only looks the inputs up in that table and shows
what it finds. Every table is bounded (each hook's docstring says how), so a page stays
small; where a range is too large to precompute, the page says so and what to do instead.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import NamedTuple

from rulepress import dice, kinds
from rulepress.exporters.escaping import html_attribute, html_text, script_json
from rulepress.kinds.builtin import weapons_by_section
from rulepress.models import (
    CriticalFailure,
    FearRoll,
    GroupRoll,
    ModifierRule,
    PushRule,
    ShockRoll,
    SkillTest,
    StepDice,
    ThreatThreshold,
)
from rulepress.models.cool import PERCENTILE
from rulepress.models.skill_test import MAX_RANK, SkillTestResult
from rulepress.models.step_dice import STEPS, push_reading
from rulepress.rules import cuf as cuf_rules
from rulepress.rules.odds import READINGS

DATA_ID = "rp-calculator-data"
"""The id of the page's JSON block the script reads."""


class Calculator(NamedTuple):
    """A calculator of the site: its heading, its text (Markdown), its form (HTML: inputs
    with labels, and an output the script fills), and the figures the script looks up."""

    id: str
    title: str
    text: str
    form: str
    data: dict


def chance_cells(chance: Fraction) -> list[str]:
    """A chance as the page shows it: a percent to two places and the exact fraction."""
    percent = f"{chance.numerator * 100 / chance.denominator:.2f}%"
    return [percent, f"{chance.numerator}/{chance.denominator}"]


def _number_input(calculator: str, name: str, label: str, low: int, high: int, value: int) -> str:
    field = html_attribute(f"{calculator}-{name}")
    return (
        f'<p><label for="{field}">{html_text(label)} ({low} to {high})</label> '
        f'<input type="number" id="{field}" name="{html_attribute(name)}" min="{low}" '
        f'max="{high}" step="1" value="{value}" inputmode="numeric"></p>'
    )


def _form(calculator: str, title: str, inputs: list[str]) -> str:
    """The form's HTML: its inputs, then the region the script writes the answers into."""
    return (
        f'<form class="rp-calculator" data-calculator="{html_attribute(calculator)}" '
        f'aria-label="{html_attribute(title)}" onsubmit="return false">'
        + "".join(inputs)
        + '<div class="rp-calculator-output" aria-live="polite" '
        f'id="{html_attribute(calculator)}-output">'
        "<p>This calculator needs JavaScript; the rules pages give the same figures.</p>"
        "</div></form>"
    )


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
    form = _form(
        "cool",
        "Shock and fear rolls",
        [
            _number_input("cool", "cool", "Cool score", 0, PERCENTILE, 50),
            _number_input("cool", "damage", "Damage taken", 0, COOL_DAMAGE, 0),
        ],
    )
    text = (
        "Give a character's Cool and the damage they have taken: the calculator shows "
        "the target of each roll and the chance of each outcome on a d100, exactly. "
        f"A roll of {critical.lowest_roll} or more is a critical failure."
    )
    return Calculator("cool", "Shock and fear rolls", text, form, {"rolls": rolls})


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
    form = _form(
        "skill-test",
        "Skill test",
        [
            _number_input("skill-test", "rank", "Skill rank", 0, top_rank, 3),
            _number_input(
                "skill-test", "bonus", "Trait bonus (the higher trait)", 0, MAX_CALCULATOR_TRAIT, 0
            ),
            _number_input("skill-test", "ap", "AP scored, for the weapons", 0, most_ap, 3),
        ],
    )
    text = (
        "Give a skill rank and the trait bonus: the calculator shows the chance of each "
        "total AP, exactly and at least, and what each weapon does at the AP you choose."
    )
    if top_rank < MAX_RANK:
        text += (
            f" Ranks above {top_rank} are not precomputed: their exact figures would make "
            "this page too large to load. For a higher rank, run "
            "`rulepress odds iris --rank RANK --trait-bonus BONUS`, which works them out exactly."
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


def calculators_for(ruleset) -> list[Calculator]:
    """The calculators of the kinds the ruleset has (each kind's `calculator` hook)."""
    return [
        kinds.load_hook(kind.calculator)(ruleset)
        for kind in kinds.registry().values()
        if kind.calculator and ruleset.one(kind.model) is not None
    ]


def calculator_page(title: str, calculators: list[Calculator]) -> str:
    """The Markdown of a ruleset's calculator page: each calculator's heading, text and
    form, then the figures as one JSON block (`<` escaped, so no text ends the script)."""
    blocks = [f"# {title}\n"]
    for calculator in calculators:
        blocks.append(f"## {calculator.title}\n\n{calculator.text}\n\n{calculator.form}\n")
    data = script_json({c.id: c.data for c in calculators}, separators=(",", ":"))
    blocks.append(f'<script type="application/json" id="{DATA_ID}">{data}</script>\n')
    return "\n".join(blocks)


CUF_RATINGS = 40
"""The CUF and Willpower the CUF calculator takes, 0 to 40 each (as `roll cuf`)."""
CUF_TCS = 200
"""The TC totals the CUF calculator precomputes, 0 to 200: past three times the highest
CUF, every total is in the last state; `roll cuf` takes up to 500."""


def _result_cells(result) -> dict:
    return {
        "text": result.text.strip(),
        "bane": result.bane,
        "flee": result.flee_or_surrender,
        "skill": result.skill_penalty,
        "initiative": result.initiative_penalty,
    }


def cuf_calculator(ruleset) -> Calculator:
    """CUF and Willpower (0-CUF_RATINGS) and TC total (0-CUF_TCS): the state, its check's
    target and chance, and what failing or passing brings. Bounded: a situation index per
    (CUF, TCs) pair (41 x 201 numbers) into the distinct situations they give, and each
    state's check target and chance per (CUF, Willpower) pair (41 x 41 numbers each)."""
    thresholds = sorted(ruleset.all(ThreatThreshold), key=lambda t: t.exceeds)
    situations: list[list] = []
    known: dict[tuple, int] = {}
    grid = []
    for cuf in range(CUF_RATINGS + 1):
        row = []
        for tcs in range(CUF_TCS + 1):
            threshold = cuf_rules.state(ruleset, tcs, cuf=cuf).threshold
            situation = (
                (-1, 0, 0, 0, False)
                if threshold is None
                else (
                    thresholds.index(threshold),
                    threshold.threshold(cuf),
                    threshold.suppression_rounds(tcs, cuf, False),
                    threshold.suppression_rounds(tcs, cuf, True),
                    threshold.penalties_last(tcs, cuf),
                )
            )
            if situation not in known:
                known[situation] = len(situations)
                situations.append(list(situation))
            row.append(known[situation])
        grid.append(row)
    chances: list[list[str]] = []
    chance_index: dict[tuple, int] = {}
    states = []
    for threshold in thresholds:
        targets, passing = [], []
        for cuf in range(CUF_RATINGS + 1):
            target_row, chance_row = [], []
            for willpower in range(CUF_RATINGS + 1):
                ratings = {"cuf": cuf, "willpower": willpower}
                target_row.append(threshold.check.target(ratings))
                cells = tuple(chance_cells(threshold.check.chance(ratings)))
                chance_index.setdefault(cells, len(chances))
                if chance_index[cells] == len(chances):
                    chances.append(list(cells))
                chance_row.append(chance_index[cells])
            targets.append(target_row)
            passing.append(chance_row)
        states.append(
            {
                "name": threshold.display_name,
                "exceeds": threshold.exceeds,
                "difficulty": threshold.check.difficulty,
                "targets": targets,
                "chances": passing,
                "failure": _result_cells(threshold.on_failure),
                "success": _result_cells(threshold.on_success),
                "penaltiesEnd": threshold.penalties_end.text.strip(),
            }
        )
    form = _form(
        "cuf",
        "Threat check",
        [
            _number_input("cuf", "cuf", "CUF", 0, CUF_RATINGS, 4),
            _number_input("cuf", "willpower", "Willpower", 0, CUF_RATINGS, 6),
            _number_input("cuf", "tcs", "TC total", 0, CUF_TCS, 9),
        ],
    )
    text = (
        "Give a character's CUF and Willpower and the TCs they have: the calculator shows "
        "the threat state, the check it calls for, the chance of passing it, and what "
        f"failing or passing brings. TC totals above {CUF_TCS} are not precomputed (past "
        "three times the highest CUF they change only the rounds of suppression): "
        "`rulepress roll cuf --cuf CUF --willpower WILL --tcs TCS` works any total out."
    )
    data = {"grid": grid, "situations": situations, "states": states, "chances": chances}
    return Calculator("cuf", "Threat check", text, form, data)


T2K4E_MODIFIER = 10
"""The net modifier the T2K4e calculator takes, -10 to +10 (as `roll t2k4e --modifier`)."""
T2K4E_HELPERS = 20
"""The helpers the T2K4e calculator takes, 0 to 20 (as `roll t2k4e --helpers`)."""


def _select(calculator: str, name: str, label: str, options: list[tuple[str, str]], chosen: str):
    field = html_attribute(f"{calculator}-{name}")
    items = "".join(
        f'<option value="{html_attribute(value)}"{" selected" if value == chosen else ""}>'
        f"{html_text(text)}</option>"
        for value, text in options
    )
    return (
        f'<p><label for="{field}">{html_text(label)}</label> '
        f'<select id="{field}" name="{html_attribute(name)}">{items}</select></p>'
    )


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
    form = _form(
        "t2k4e",
        "Roll with modifiers and push",
        [
            _select("t2k4e", "attribute", "Attribute die", dice_options, "d8"),
            _select("t2k4e", "skill", "Skill die", [("none", "none"), *dice_options], "d8"),
            _number_input(
                "t2k4e",
                "modifier",
                "Modifier, all bonuses and penalties summed",
                -T2K4E_MODIFIER,
                T2K4E_MODIFIER,
                0,
            ),
            _number_input("t2k4e", "helpers", "Helpers", 0, T2K4E_HELPERS, 0),
            _select(
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
