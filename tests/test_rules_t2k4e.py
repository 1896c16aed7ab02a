"""Twilight: 2000 4e task resolution (seed 001), one test per rule, named as an example.

The figures the text prints (6+ a success, 10+ two, +1 per helper to +3, "a +2 and a -1 is
a net +1", the d12/d8 example) are read from tests/fixtures/seeds/t2k4e.txt.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from rulepress.games.t2k4e.models.odds_table import OddsTable
from rulepress.games.t2k4e.models.step_dice import GroupRoll, OpposedResult, PushPrice, PushRule


@pytest.fixture(scope="module")
def text(seed_text) -> str:
    return " ".join(seed_text("t2k4e.txt").split())


@pytest.fixture(scope="module")
def push(t2k) -> PushRule:
    return t2k.one(PushRule)


@pytest.fixture(scope="module")
def group(t2k) -> GroupRoll:
    return t2k.one(GroupRoll)


# --- successes from faces ---------------------------------------------------------------------


def test_six_or_greater_is_a_success_and_ten_or_greater_two(step_dice, text):
    one = int(re.search(r"Any roll of (\d+) or greater is a success", text).group(1))
    two_at, two = map(
        int, re.search(r"Any roll of (\d+) or greater counts as (\d+) successes", text).groups()
    )
    assert step_dice.successes_for(one - 1) == 0
    assert step_dice.successes_for(one) == 1
    assert step_dice.successes_for(two_at - 1) == 1
    assert step_dice.successes_for(two_at) == two


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5])
def test_a_five_or_less_is_no_success(step_dice, face):
    assert step_dice.successes_for(face) == 0


@pytest.mark.parametrize("face", [6, 7, 8, 9])
def test_a_six_to_nine_is_one_success(step_dice, face):
    assert step_dice.successes_for(face) == 1


@pytest.mark.parametrize("face", [10, 11, 12])
def test_a_ten_or_more_counts_two_successes_not_three(step_dice, face):
    assert step_dice.successes_for(face) == 2


def test_a_one_a_six_and_a_ten_make_three_successes(step_dice):
    assert step_dice.count([1, 6, 10]) == 3
    assert step_dice.count([]) == 0


def test_a_d6_succeeds_only_on_a_six(step_dice):
    assert step_dice.die_successes("d6") == {0: Fraction(5, 6), 1: Fraction(1, 6)}


def test_a_d12_counts_two_on_ten_to_twelve(step_dice):
    assert step_dice.die_successes("d12") == {
        0: Fraction(5, 12),
        1: Fraction(4, 12),
        2: Fraction(3, 12),
    }


def test_levels_d_to_a_are_d6_to_d12(step_dice, text):
    dice_, levels = re.search(
        r"between (d\d+, d\d+, d\d+, and d\d+), also known as Levels "
        r"(\w, \w, \w, or \w)",
        text,
    ).groups()
    printed = dict(zip(re.findall(r"d\d+", dice_), re.findall(r"\b\w\b", levels), strict=True))
    assert {lvl.die: lvl.level for lvl in step_dice.levels} == printed


def test_a_rolled_pool_shows_one_face_per_die(step_dice):
    faces = step_dice.roll(["d12", "d6"], random.Random(5))
    assert len(faces) == 2
    assert 1 <= faces[0] <= 12
    assert 1 <= faces[1] <= 6


# --- pushing ----------------------------------------------------------------------------------


def test_pushing_keeps_ones_by_the_text(push, step_dice, text):
    assert "Pick up any dice that neither rolled a 1 or a success" in text
    assert push.rerolls == "neither-one-nor-success"
    assert push.rerolled([1, 3], step_dice) == [1]


def test_pushing_every_non_success_picks_up_the_ones_too(push, step_dice):
    assert push.rerolled([1, 3], step_dice, "every-non-success") == [0, 1]


@pytest.mark.parametrize("reading", ["neither-one-nor-success", "every-non-success"])
def test_pushing_never_picks_up_a_success(push, step_dice, reading):
    assert push.rerolled([6, 10, 12, 9], step_dice, reading) == []
    assert push.rerolled([6, 2, 10], step_dice, reading) == [1]


def test_pushing_a_d12_d8_showing_five_and_one_rerolls_only_the_five(push, step_dice):
    assert push.push([5, 1], [11], step_dice) == [11, 1]


def test_pushing_with_every_non_success_replaces_the_one_as_well(push, step_dice):
    assert push.push([5, 1], [11, 7], step_dice, "every-non-success") == [11, 7]


def test_a_push_needs_one_new_face_per_picked_up_die(push, step_dice):
    with pytest.raises(ValueError):
        push.push([5, 1], [11, 7], step_dice)
    with pytest.raises(ValueError):
        push.push([5, 3], [11], step_dice)


def test_a_lone_d6_pushed_by_the_text_succeeds_ten_times_in_thirty_six(step_dice):
    # 1/6 at once, and 4 of the 6 faces (2-5) are rolled again with a 1/6 chance.
    assert step_dice.chance(["d6"], pushed=True) == Fraction(10, 36)


def test_a_lone_d6_pushed_rerolling_ones_succeeds_eleven_times_in_thirty_six(step_dice):
    assert step_dice.chance(["d6"], pushed=True, reading="every-non-success") == Fraction(11, 36)


def test_a_pushed_one_stays_a_one_by_the_text(step_dice):
    d6 = step_dice.pushed_die_successes("d6", "neither-one-nor-success")
    # a 1 (1/6) is kept; a 2-5 (4/6) fails again 5/6 of the time
    assert d6[0] == Fraction(1, 6) + Fraction(4, 6) * Fraction(5, 6)


@pytest.mark.parametrize("attribute", ["STR", "AGL"])
def test_pushing_strength_or_agility_costs_a_point_of_damage(push, text, attribute):
    assert "a point of damage (if for STR or AGL)" in text
    assert push.price(attribute) == PushPrice("damage", 0, 0)


@pytest.mark.parametrize("attribute", ["INT", "EMP"])
def test_pushing_intellect_or_empathy_costs_a_point_of_stress(push, text, attribute):
    assert "a point of stress (if for INT or EMP)" in text
    assert push.price(attribute) == PushPrice("stress", 0, 0)


@pytest.mark.parametrize("attribute", ["STR", "AGL"])
def test_pushing_with_gear_moves_the_damage_to_the_gear_and_costs_reliability(push, attribute):
    assert push.price(attribute, with_gear=True) == PushPrice(None, 1, 1)


@pytest.mark.parametrize("attribute", ["INT", "EMP"])
def test_pushing_with_gear_for_int_or_emp_leaves_the_stress_with_you(push, attribute):
    assert push.price(attribute, with_gear=True) == PushPrice("stress", 0, 1)


@pytest.mark.parametrize("attribute", ["WIL", "str", ""])
def test_pushing_for_an_attribute_the_text_does_not_name_is_refused(push, attribute):
    with pytest.raises(ValueError):
        push.price(attribute)


# --- the printed odds ----------------------------------------------------------------------


def odds_cells(table: OddsTable):
    for row in table.rows:
        for attribute, percent in zip(table.columns, row.percent, strict=True):
            yield [attribute, *([row.skill] if row.skill else [])], percent


def test_the_printed_initial_odds_are_the_exact_odds_within_rounding(t2k, step_dice):
    table = next(t for t in t2k.all(OddsTable) if t.roll == "initial")
    for pool, percent in odds_cells(table):
        assert abs(float(step_dice.chance(pool)) * 100 - percent) < 1.5, pool


def test_the_printed_pushed_odds_follow_rerolling_every_non_success(t2k, step_dice):
    table = next(t for t in t2k.all(OddsTable) if t.roll == "pushed")
    for pool, percent in odds_cells(table):
        exact = step_dice.chance(pool, pushed=True, reading="every-non-success")
        assert abs(float(exact) * 100 - percent) < 1.5, pool


def test_the_printed_pushed_odds_overstate_the_texts_push_for_a_lone_d8(t2k, step_dice):
    table = next(t for t in t2k.all(OddsTable) if t.roll == "pushed")
    printed = dict((tuple(pool), pct) for pool, pct in odds_cells(table))[("d8",)]
    assert printed == 62
    assert step_dice.chance(["d8"], pushed=True) == Fraction(9, 16)  # 56%, not 62%


# --- bonuses and penalties ------------------------------------------------------------------


def test_a_plus_two_and_a_minus_one_is_a_net_plus_one(modifiers, text):
    a, b, net = map(
        int, re.search(r"\(a ([+-]\d) and a ([+-]\d) is a net ([+-]\d) bonus\)", text).groups()
    )
    assert modifiers.net([a, b]) == net == 1


def test_no_modifiers_net_to_zero(modifiers):
    assert modifiers.net([]) == 0


def test_netting_first_differs_from_shifting_each_modifier_in_turn(modifiers):
    pool = ["d6", "d6"]
    netted = modifiers.shift(pool, modifiers.net([+2, -1]))
    one_by_one = modifiers.shift(modifiers.shift(pool, -1), +2)
    assert netted == ["d8", "d6"]
    assert one_by_one == ["d10"]


def test_penalty_on_d12_d8_lowers_the_d12(modifiers, text):
    assert (
        "if you had a d12 stat and a d8 skill and had to apply a -1 penalty, you would "
        "reduce your d12 to a d10 and not your d8 to a d6" in text
    )
    assert modifiers.shift(["d12", "d8"], -1) == ["d10", "d8"]


def test_bonus_on_d12_d8_raises_the_d8(modifiers):
    assert modifiers.shift(["d12", "d8"], +1) == ["d12", "d10"]


def test_penalty_on_equal_dice_lowers_the_attribute_die(modifiers):
    assert modifiers.shift(["d8", "d8"], -1) == ["d6", "d8"]


def test_bonus_on_equal_dice_raises_the_attribute_die(modifiers):
    assert modifiers.shift(["d8", "d8"], +1) == ["d10", "d8"]


def test_minus_three_on_d12_d8_keeps_the_dice_balanced(modifiers):
    assert modifiers.shift(["d12", "d8"], -3) == ["d6", "d8"]


def test_no_modifier_leaves_the_pool_alone(modifiers):
    assert modifiers.shift(["d10", "d6"], 0) == ["d10", "d6"]


def test_a_bonus_never_goes_above_two_d12(modifiers):
    assert modifiers.shift(["d12", "d12"], +1) == ["d12", "d12"]
    assert modifiers.shift(["d10", "d12"], +3) == ["d12", "d12"]


def test_two_d6_minus_one_removes_a_die(modifiers, text):
    assert "If you have to downstep below 2d6, you remove 1 of them, instead." in text
    assert modifiers.shift(["d6", "d6"], -1) == ["d6"]


def test_a_single_d6_stays_a_single_d6(modifiers):
    assert modifiers.shift(["d6"], -1) == ["d6"]
    assert modifiers.shift(["d6", "d6"], -4) == ["d6"]
    assert modifiers.shift(["d12", "d12"], -20) == ["d6"]


def test_a_bonus_steps_a_single_die_up_without_adding_one(modifiers):
    assert modifiers.shift(["d6"], +1) == ["d8"]
    assert modifiers.shift(["d6"], +5) == ["d12"]


def test_a_bonus_on_a_single_d12_has_no_effect(modifiers):
    assert modifiers.shift(["d12"], +2) == ["d12"]


def test_shift_does_not_change_the_pool_it_was_given(modifiers):
    pool = ["d12", "d8"]
    modifiers.shift(pool, -2)
    assert pool == ["d12", "d8"]


# --- group rolls ----------------------------------------------------------------------------


def test_each_helper_gives_plus_one_to_a_max_of_plus_three(group, text):
    per, cap = map(
        int,
        re.search(
            r"gets a \+(\d) modifier per person helping, to a max of "
            r"\+(\d)",
            text,
        ).groups(),
    )
    assert [group.bonus(n) for n in range(6)] == [min(n * per, cap) for n in range(6)]
    assert [group.bonus(n) for n in range(6)] == [0, 1, 2, 3, 3, 3]


def test_ten_helpers_still_give_plus_three(group):
    assert group.bonus(10) == 3


def test_negative_helpers_are_refused(group):
    with pytest.raises(ValueError):
        group.bonus(-1)


def test_a_group_bonus_is_summed_with_other_modifiers_before_shifting(group, modifiers):
    # four helpers (+3, capped) and a -1 range penalty net +2
    assert modifiers.shift(["d8", "d8"], modifiers.net([group.bonus(4), -1])) == ["d10", "d10"]


# --- opposed rolls --------------------------------------------------------------------------


def test_three_successes_against_one_win_with_two(opposed, text):
    assert "Every success the loser rolls subtracts 1 success from the winner's total." in text
    assert opposed.compare(3, 1) == OpposedResult("acting-wins", 2)


def test_one_success_against_three_loses_by_two(opposed):
    assert opposed.compare(1, 3) == OpposedResult("opposing-wins", 2)


def test_a_tie_is_no_win_for_anyone(opposed):
    assert opposed.compare(2, 2) == OpposedResult("tie", 0)
    assert opposed.compare(0, 0) == OpposedResult("tie", 0)


def test_one_success_against_none_wins(opposed):
    assert opposed.compare(1, 0) == OpposedResult("acting-wins", 1)
    assert opposed.compare(0, 1) == OpposedResult("opposing-wins", 1)


def test_negative_successes_are_refused(opposed):
    with pytest.raises(ValueError):
        opposed.compare(-1, 2)
    with pytest.raises(ValueError):
        opposed.compare(2, -1)
