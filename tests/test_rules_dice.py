"""The exact dice engine (rulepress.dice), cross-checked against brute force.

Every distribution the rules compute by convolution is recomputed here the slow way: by
listing every combination of faces with itertools.product and counting. The face values
(what a face is worth) are read from the source texts, not from the code under test.
"""

from __future__ import annotations

import inspect
import itertools
import re
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from functools import reduce

import pytest

from rulepress import dice
from rulepress.games.t2k4e.models.step_dice import PushRule, StepDice, push_reading
from rulepress.games.t2k4e.odds import READINGS
from tests.helpers import REPO

STEP_SIDES = {"d6": 6, "d8": 8, "d10": 10, "d12": 12}
POOLS = [(a,) for a in STEP_SIDES] + list(itertools.product(STEP_SIDES, repeat=2))


# --- what the sources say a face is worth ---------------------------------------------------


@pytest.fixture(scope="module")
def iris_face_ap(seed_text) -> dict[int, int]:
    """AP per d6 face, from "Each D6 result of 4 or 5 grants +1AP, while a 6 grants +2AP"."""
    page = seed_text("iris-wiki.txt")
    one_a, one_b, one_ap, two, two_ap = map(
        int,
        re.search(
            r"Each D6 result of (\d) or (\d) grants \+(\d)AP, while a (\d) grants \+(\d)AP", page
        ).groups(),
    )
    return {
        face: (one_ap if face in (one_a, one_b) else two_ap if face == two else 0)
        for face in range(1, 7)
    }


@pytest.fixture(scope="module")
def t2k_face_successes(seed_text):
    """Successes per face, from "Any roll of 6 or greater is a success. Any roll of 10 or
    greater counts as 2 successes."."""
    text = seed_text("t2k4e.txt")
    one = int(re.search(r"Any roll of (\d+) or greater is a success", text).group(1))
    two_at, two = map(
        int, re.search(r"Any roll of (\d+) or greater counts as (\d+) successes", text).groups()
    )

    def successes(face: int) -> int:
        return two if face >= two_at else 1 if face >= one else 0

    return successes


@pytest.fixture(scope="module")
def step_dice(bundled) -> StepDice:
    return bundled.compendium.ruleset("t2k4e").one(StepDice)


@pytest.fixture(scope="module")
def push_rule(bundled) -> PushRule:
    return bundled.compendium.ruleset("t2k4e").one(PushRule)


def counted(outcomes: Counter, total: int) -> dict[int, Fraction]:
    return {value: Fraction(n, total) for value, n in outcomes.items()}


# --- IRIS skill tests -------------------------------------------------------------------------


@pytest.mark.parametrize("rank", range(6))
def test_iris_skill_test_distribution_matches_every_roll_of_the_dice(
    skill_test, iris_face_ap, rank
):
    outcomes = Counter(
        sum(iris_face_ap[f] for f in faces) for faces in itertools.product(range(1, 7), repeat=rank)
    )
    assert skill_test.distribution(rank) == counted(outcomes, 6**rank)


@pytest.mark.parametrize("rank", range(6))
def test_iris_skill_test_with_a_trait_bonus_matches_every_roll(skill_test, iris_face_ap, rank):
    bonus = 3
    outcomes = Counter(
        sum(iris_face_ap[f] for f in faces) + bonus
        for faces in itertools.product(range(1, 7), repeat=rank)
    )
    assert skill_test.distribution(rank, trait_bonus=bonus) == counted(outcomes, 6**rank)


@pytest.mark.parametrize("rank", range(6))
def test_iris_chance_matches_counting_rolls(skill_test, iris_face_ap, rank):
    rolls = list(itertools.product(range(1, 7), repeat=rank))
    for ap in range(0, 2 * rank + 2):
        hits = sum(1 for faces in rolls if sum(iris_face_ap[f] for f in faces) >= ap)
        assert skill_test.chance(rank, ap) == Fraction(hits, len(rolls)), ap


@pytest.mark.parametrize("rank", range(6))
def test_iris_resolve_agrees_with_the_brute_force_face_values(skill_test, iris_face_ap, rank):
    for faces in itertools.product(range(1, 7), repeat=rank):
        assert skill_test.resolve(faces).dice_ap == sum(iris_face_ap[f] for f in faces)


# --- Twilight: 2000 4e pools -----------------------------------------------------------------


def brute_initial(pool, successes) -> dict[int, Fraction]:
    rolls = list(itertools.product(*(range(1, STEP_SIDES[d] + 1) for d in pool)))
    return counted(Counter(sum(successes(f) for f in faces) for faces in rolls), len(rolls))


def brute_pushed(pool, successes, reading) -> dict[int, Fraction]:
    """Roll every initial combination; pick up the dice the reading re-rolls (by the text:
    neither a 1 nor a success; otherwise every die that is not a success); roll every
    combination of the picked-up dice again and weigh each outcome."""
    sides = [STEP_SIDES[d] for d in pool]
    result: dict[int, Fraction] = {}
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        initial_chance = Fraction(1, reduce(lambda a, b: a * b, sides, 1))
        picked = [
            i
            for i, f in enumerate(faces)
            if successes(f) == 0 and not (reading == "neither-one-nor-success" and f == 1)
        ]
        again = list(itertools.product(*(range(1, sides[i] + 1) for i in picked)))
        for new in again:
            final = list(faces)
            for i, f in zip(picked, new, strict=True):
                final[i] = f
            total = sum(successes(f) for f in final)
            result[total] = result.get(total, 0) + initial_chance / len(again)
    return result


@pytest.mark.parametrize("pool", POOLS, ids="+".join)
def test_t2k_initial_roll_matches_every_combination_of_faces(step_dice, t2k_face_successes, pool):
    assert step_dice.distribution(pool) == brute_initial(pool, t2k_face_successes)


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("pool", POOLS, ids="+".join)
def test_t2k_pushed_roll_matches_every_combination_of_faces(
    step_dice, t2k_face_successes, pool, reading
):
    expected = brute_pushed(pool, t2k_face_successes, reading)
    assert step_dice.distribution(pool, pushed=True, reading=reading) == expected


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("pool", POOLS, ids="+".join)
def test_t2k_push_rule_replayed_face_by_face_gives_the_pushed_distribution(
    step_dice, push_rule, pool, reading
):
    """PushRule.push over every initial roll and every re-roll agrees with the engine."""
    sides = [STEP_SIDES[d] for d in pool]
    result: dict[int, Fraction] = {}
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        picked = push_rule.rerolled(faces, step_dice, reading)
        again = list(itertools.product(*(range(1, sides[i] + 1) for i in picked)))
        for new in again:
            total = step_dice.count(push_rule.push(faces, new, step_dice, reading))
            chance = Fraction(1, reduce(lambda a, b: a * b, sides, 1)) / len(again)
            result[total] = result.get(total, 0) + chance
    assert step_dice.distribution(pool, pushed=True, reading=reading) == result


@pytest.mark.parametrize("pool", POOLS, ids="+".join)
def test_t2k_default_push_is_the_text_reading(step_dice, t2k_face_successes, pool):
    expected = brute_pushed(pool, t2k_face_successes, "neither-one-nor-success")
    assert step_dice.distribution(pool, pushed=True) == expected


def test_push_reading_is_the_rule_texts_and_without_a_rule_the_engines_default(push_rule):
    assert push_reading(push_rule) == push_rule.rerolls
    default = inspect.signature(StepDice.distribution).parameters["reading"].default
    assert push_reading(None) == default


@pytest.mark.parametrize("pool", POOLS, ids="+".join)
def test_t2k_chance_is_the_brute_force_chance_of_a_success(step_dice, t2k_face_successes, pool):
    initial = brute_initial(pool, t2k_face_successes)
    assert step_dice.chance(pool) == sum(p for n, p in initial.items() if n >= 1)
    for reading in READINGS:
        pushed = brute_pushed(pool, t2k_face_successes, reading)
        assert step_dice.chance(pool, pushed=True, reading=reading) == sum(
            p for n, p in pushed.items() if n >= 1
        )


# --- the engine's own pieces -----------------------------------------------------------------


def naive_repeated(part, times):
    result = dice.point(0)
    for _ in range(times):
        result = dice.convolve(result, part)
    return result


PARTS = {
    "d6": dice.die(6),
    "d10": dice.die(10),
    "iris-ap": {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)},
    "skewed": {-2: Fraction(1, 7), 0: Fraction(2, 7), 5: Fraction(4, 7)},
    "certain": dice.point(3),
    "gaps": {1: Fraction(1, 4), 4: Fraction(1, 4), 9: Fraction(1, 2)},
    "iris-d20": dice.mapped(dice.die(20), lambda face: (face - 1) % 11),
}


@pytest.mark.parametrize("times", range(0, 14))
@pytest.mark.parametrize("name", PARTS)
def test_repeated_equals_naive_repeated_convolution(name, times):
    part = PARTS[name]
    assert dice.repeated(part, times) == naive_repeated(part, times)


@pytest.mark.parametrize("times", range(0, 8))
@pytest.mark.parametrize("name", PARTS)
def test_repeated_at_least_equals_summing_the_naive_distribution(name, times):
    part, naive = PARTS[name], naive_repeated(PARTS[name], times)
    thresholds = list(range(min(naive) - 2, max(naive) + 3))
    expected = [dice.at_least(naive, t) for t in thresholds]
    assert dice.repeated_at_least(part, times, thresholds) == expected
    assert dice.repeated_at_least(part, times, thresholds[::-1]) == expected[::-1]


@pytest.mark.parametrize("name", PARTS)
def test_tails_give_the_chance_of_at_least_each_outcome(name):
    distribution = naive_repeated(PARTS[name], 3)
    assert dice.tails(distribution) == {v: dice.at_least(distribution, v) for v in distribution}


@pytest.mark.parametrize("times", range(0, 5))
def test_repeated_d6_equals_counting_every_roll(times):
    rolls = list(itertools.product(range(1, 7), repeat=times))
    assert dice.repeated(dice.die(6), times) == counted(Counter(map(sum, rolls)), len(rolls))


def test_repeated_zero_times_is_a_certain_zero():
    assert dice.repeated(dice.die(6), 0) == {0: Fraction(1)}


def test_repeating_a_die_a_negative_number_of_times_is_refused():
    """Like dice.die(0) and SkillTest.dice_for(-1), a negative count is an error. Run in a
    child process so a hang fails the test instead of stopping the run."""
    code = (
        "from rulepress import dice\n"
        "try:\n    dice.repeated(dice.die(6), -1)\n"
        "except ValueError:\n    raise SystemExit(0)\n"
        "raise SystemExit(1)\n"
    )
    try:
        finished = subprocess.run(
            [sys.executable, "-c", code], timeout=5, cwd=REPO, capture_output=True, text=True
        )
    except subprocess.TimeoutExpired:
        pytest.fail("dice.repeated(die(6), -1) did not return within 5 seconds")
    assert finished.returncode == 0, finished.stderr


def test_total_of_different_dice_equals_counting_every_roll():
    sides = (4, 6, 8)
    rolls = list(itertools.product(*(range(1, s + 1) for s in sides)))
    expected = counted(Counter(map(sum, rolls)), len(rolls))
    assert dice.total(dice.die(s) for s in sides) == expected


def test_a_fair_die_gives_each_face_an_equal_share():
    assert dice.die(6) == {f: Fraction(1, 6) for f in range(1, 7)}


@pytest.mark.parametrize("sides", [0, -1])
def test_a_die_without_sides_is_refused(sides):
    with pytest.raises(ValueError):
        dice.die(sides)


def test_mapped_merges_outcomes_that_map_to_the_same_value():
    parity = dice.mapped(dice.die(6), lambda f: f % 2)
    assert parity == {1: Fraction(1, 2), 0: Fraction(1, 2)}
    assert all(isinstance(p, Fraction) for p in parity.values())


def test_at_least_and_at_most_count_the_threshold_itself():
    d6 = dice.die(6)
    assert dice.at_least(d6, 5) == Fraction(1, 3)
    assert dice.at_most(d6, 5) == Fraction(5, 6)
    assert dice.at_least(d6, 7) == 0
    assert dice.at_most(d6, 0) == 0
    assert dice.at_least(d6, 1) == 1


def test_roll_stays_on_the_die_and_ordered_sorts_outcomes():
    import random

    rng = random.Random(7)
    faces = {dice.roll(8, rng) for _ in range(400)}
    assert faces == set(range(1, 9))
    assert [v for v, _ in dice.ordered({3: Fraction(1, 2), -1: Fraction(1, 2)})] == [-1, 3]
    assert dice.percent(Fraction(1, 8)) == 12.5
