"""Properties every resolution function must keep, whatever the input (hypothesis)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress import dice
from rulepress.games.cool.models import Duration
from rulepress.games.cuf.models.cuf import CufRating
from rulepress.games.t2k4e.models.step_dice import STEPS
from rulepress.games.t2k4e.odds import READINGS

step_die = st.sampled_from(STEPS)
pools = st.lists(step_die, min_size=1, max_size=3)
shift_pools = st.lists(step_die, min_size=1, max_size=2)
readings = st.sampled_from(READINGS)


@pytest.fixture(scope="module")
def rating(bundled) -> CufRating:
    return bundled.compendium.ruleset("t2k-cuf").one(CufRating)


def sums_to_one(distribution) -> bool:
    return sum(distribution.values(), Fraction(0)) == 1 and all(
        isinstance(p, Fraction) and p > 0 for p in distribution.values()
    )


# --- every distribution is a distribution ---------------------------------------------------


@given(rank=st.integers(0, 15), bonus=st.integers(0, 10))
def test_every_iris_distribution_sums_to_one(skill_test, rank, bonus):
    assert sums_to_one(skill_test.distribution(rank, trait_bonus=bonus))


@given(pool=st.lists(step_die, max_size=4), pushed=st.booleans(), reading=readings)
def test_every_t2k_distribution_sums_to_one(step_dice, pool, pushed, reading):
    assert sums_to_one(step_dice.distribution(pool, pushed=pushed, reading=reading))


@given(modifiers_=st.integers(-5, 5), willpower=st.integers(1, 20))
def test_every_cuf_distribution_sums_to_one(rating, modifiers_, willpower):
    assert sums_to_one(rating.distribution(modifiers_, willpower))


@given(
    count=st.integers(1, 4), sides=st.sampled_from([4, 6, 8, 10, 12, 20]), bonus=st.integers(-5, 5)
)
def test_every_duration_distribution_sums_to_one(count, sides, bonus):
    dice_ = f"{count}d{sides}" + (f"{bonus:+d}" if bonus else "")
    distribution = Duration(dice=dice_, unit="rounds").distribution()
    assert sums_to_one(distribution)
    assert min(distribution) == count + bonus
    assert max(distribution) == count * sides + bonus


@given(sides=st.integers(1, 12), times=st.integers(0, 12))
def test_every_repeated_die_sums_to_one(sides, times):
    assert sums_to_one(dice.repeated(dice.die(sides), times))


# --- pushing ----------------------------------------------------------------------------------


@given(pool=pools, reading=readings)
def test_pushing_never_lowers_the_chance_of_a_success(step_dice, pool, reading):
    assert step_dice.chance(pool, pushed=True, reading=reading) >= step_dice.chance(pool)


@given(pool=pools)
def test_rerolling_every_non_success_is_never_worse_than_the_text(step_dice, pool):
    assert step_dice.chance(pool, pushed=True, reading="every-non-success") >= step_dice.chance(
        pool, pushed=True, reading="neither-one-nor-success"
    )


@given(pool=pools, pushed=st.booleans(), reading=readings)
def test_the_order_of_the_dice_does_not_change_the_odds(step_dice, pool, pushed, reading):
    assert step_dice.distribution(pool, pushed=pushed, reading=reading) == step_dice.distribution(
        list(reversed(pool)), pushed=pushed, reading=reading
    )


# --- shifting ---------------------------------------------------------------------------------


@given(pool=shift_pools, modifier=st.integers(-10, 10))
def test_shifting_stays_within_one_or_two_dice_from_d6_to_d12(modifiers, pool, modifier):
    shifted = modifiers.shift(pool, modifier)
    assert 1 <= len(shifted) <= 2
    assert all(d in ("d6", "d8", "d10", "d12") for d in shifted)


@given(pool=shift_pools, modifier=st.integers(-10, -1))
def test_a_penalty_never_raises_the_pool(modifiers, step_dice, pool, modifier):
    shifted = modifiers.shift(pool, modifier)
    assert len(shifted) <= len(pool)
    assert all(STEPS.index(a) <= STEPS.index(b) for a, b in zip(shifted, pool, strict=False))
    assert step_dice.chance(shifted) <= step_dice.chance(pool)


@given(pool=shift_pools, modifier=st.integers(1, 10))
def test_a_bonus_never_lowers_the_pool(modifiers, step_dice, pool, modifier):
    shifted = modifiers.shift(pool, modifier)
    assert len(shifted) == len(pool)
    assert all(STEPS.index(a) >= STEPS.index(b) for a, b in zip(shifted, pool, strict=True))
    assert step_dice.chance(shifted) >= step_dice.chance(pool)


@given(pool=shift_pools, modifier=st.integers(-10, 10))
def test_a_shifted_pair_stays_balanced(modifiers, pool, modifier):
    """Dice that start at most one step apart stay at most one step apart."""
    shifted = modifiers.shift(pool, modifier)
    if (
        len(pool) == 2
        and abs(STEPS.index(pool[0]) - STEPS.index(pool[1])) <= 1
        and len(shifted) == 2
    ):
        assert abs(STEPS.index(shifted[0]) - STEPS.index(shifted[1])) <= 1


@given(pool=shift_pools, a=st.integers(0, 6), b=st.integers(0, 6))
def test_two_penalties_in_a_row_are_one_bigger_penalty(modifiers, pool, a, b):
    assert modifiers.shift(modifiers.shift(pool, -a), -b) == modifiers.shift(pool, -(a + b))


@given(pool=shift_pools, modifier=st.integers(-20, 20))
def test_a_large_modifier_shifts_as_one_step_at_a_time_does(modifiers, pool, modifier):
    """shift() stops counting steps once the pool is at its end: the same as stepping."""
    stepped = list(pool)
    for _ in range(abs(modifier)):
        stepped = modifiers.shift(stepped, 1 if modifier > 0 else -1)
    assert modifiers.shift(pool, modifier) == stepped


@given(
    pool=shift_pools,
    modifier=st.integers(-(10**12), 10**12),
    lowest=step_die,
    highest=step_die,
)
def test_a_shift_never_moves_a_die_past_the_rules_pools(modifiers, pool, modifier, lowest, highest):
    rule = modifiers.model_copy(update={"lowest_pool": [lowest], "highest_pool": [highest]})
    for before, after in zip(pool, rule.shift(pool, modifier), strict=False):
        start, end = STEPS.index(before), STEPS.index(after)
        if modifier > 0:
            assert start <= end <= max(start, STEPS.index(highest))
        else:
            assert min(start, STEPS.index(lowest)) <= end <= start


# --- opposed rolls ----------------------------------------------------------------------------


@given(a=st.integers(0, 30), b=st.integers(0, 30))
def test_opposed_rolls_are_antisymmetric(opposed, a, b):
    forward, backward = opposed.compare(a, b), opposed.compare(b, a)
    assert forward.successes == backward.successes
    swapped = {"acting-wins": "opposing-wins", "opposing-wins": "acting-wins", "tie": "tie"}
    assert swapped[forward.outcome] == backward.outcome


@given(a=st.integers(0, 30), b=st.integers(0, 30))
def test_the_side_with_more_successes_wins_by_the_difference(opposed, a, b):
    result = opposed.compare(a, b)
    assert (result.outcome == "acting-wins") == (a > b)
    assert result.successes == abs(a - b)


# --- IRIS odds --------------------------------------------------------------------------------


@settings(deadline=None)
@given(rank=st.integers(0, 12), k=st.integers(-2, 26))
def test_iris_chance_of_k_ap_never_rises_with_k(skill_test, rank, k):
    assert skill_test.chance(rank, k + 1) <= skill_test.chance(rank, k)


@settings(deadline=None)
@given(rank=st.integers(0, 12), k=st.integers(-2, 26))
def test_iris_chance_of_k_ap_never_falls_with_rank(skill_test, rank, k):
    assert skill_test.chance(rank + 1, k) >= skill_test.chance(rank, k)


@given(rank=st.integers(0, 12), bonus=st.integers(0, 10))
def test_iris_ap_stays_within_zero_and_two_per_die(skill_test, rank, bonus):
    distribution = skill_test.distribution(rank, trait_bonus=bonus)
    assert min(distribution) == bonus
    assert max(distribution) == bonus + 2 * rank
