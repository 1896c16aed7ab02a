"""Twilight: 2000 4e character improvement, die levels, time units, when a roll may be pushed
and when a plain roll succeeds (seed 001), each test quoting the sentence it checks from
tests/fixtures/seeds/t2k4e.txt."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulepress.games.t2k4e.models import (
    CharacterImprovement,
    GroupRoll,
    Helper,
    Improvement,
    OpposedRoll,
    PushAllowance,
    PushRule,
    TimeUnits,
)
from tests.helpers import in_source


@pytest.fixture(scope="module")
def text(seed_text) -> str:
    return " ".join(seed_text("t2k4e.txt").split())


@pytest.fixture(scope="module")
def improvement(t2k) -> CharacterImprovement:
    return t2k.one(CharacterImprovement)


@pytest.fixture(scope="module")
def time(t2k) -> TimeUnits:
    return t2k.one(TimeUnits)


@pytest.fixture(scope="module")
def push(t2k) -> PushRule:
    return t2k.one(PushRule)


# --- experience ---------------------------------------------------------------------------


def test_each_listed_deed_earns_experience(improvement, text):
    in_source(text, "You earn experience points by participating in the game session")
    for source in improvement.earned_for:
        assert source.text in text
    assert len(improvement.earned_for) == 6
    ids = [s.id for s in improvement.earned_for]
    assert improvement.xp_earned(ids) == 6  # ruling xp-one-per-source
    assert improvement.xp_earned(["participating", "participating"]) == 1
    assert improvement.xp_earned([]) == 0


def test_an_unknown_source_of_experience_is_refused(improvement):
    with pytest.raises(ValueError, match="not a source of experience: looting"):
        improvement.xp_earned(["looting"])


def test_xp_is_spent_when_resting_or_sleeping(improvement, text):
    in_source(text, "Whenever you rest or sleep, you can spend XP.")
    assert improvement.can_spend("rest") and improvement.can_spend("sleep")
    assert not improvement.can_spend("combat")


def test_attributes_cannot_be_improved(improvement, text):
    in_source(text, "Your attributes cannot be improved after character generation.")
    result = improvement.can_raise("attribute", "B", used_successfully=True, teacher="A")
    assert result == Improvement("attribute", False, None, None, "fixed")


def test_a_skill_rises_after_successful_use(improvement, text):
    in_source(
        text,
        "To raise a skill or buy a new skill, you must have used the skill successfully at "
        "least once since your last increase",
    )
    assert improvement.can_raise("skill", "C", used_successfully=True) == Improvement(
        "skill", True, "B", "use", "allowed"
    )
    assert improvement.can_raise("skill", "C").outcome == "needs-use-or-teacher"
    assert not improvement.can_raise("skill", "C").allowed


def test_a_new_skill_is_bought_at_level_d(improvement, text):
    in_source(text, "(or simply at least once to buy a new skill at Level D)")
    assert improvement.can_raise("skill", None, used_successfully=True).level == "D"
    assert not improvement.can_raise("skill", None).allowed


def test_a_teacher_with_a_higher_level_stands_in_for_use(improvement, text):
    in_source(
        text,
        "As an alternative to successful skill use, you can be instructed for 1 shift by "
        "someone with a higher skill level than you.",
    )
    assert improvement.teaching.duration == 1 and improvement.teaching.unit == "shift"
    assert improvement.can_raise("skill", "C", teacher="B") == Improvement(
        "skill", True, "B", "teacher", "allowed"
    )
    # ruling teacher-strictly-higher: the same level does not teach
    assert not improvement.can_raise("skill", "C", teacher="C").allowed
    assert not improvement.can_raise("skill", "B", teacher="C").allowed
    assert improvement.with_teacher("D", "A") and not improvement.with_teacher("A", "A")
    # ruling teacher-for-a-new-skill
    assert improvement.can_raise("skill", None, teacher="D").level == "D"
    assert not improvement.with_teacher(None, None)


def test_a_skill_rises_one_level_and_never_past_a(improvement):
    # rulings one-level-per-raise, no-raise-above-a
    assert [improvement.can_raise("skill", lv, used_successfully=True).level for lv in "DCB"] == [
        "C",
        "B",
        "A",
    ]
    top = improvement.can_raise("skill", "A", used_successfully=True, teacher="A")
    assert top.outcome == "highest-level" and not top.allowed
    with pytest.raises(ValueError, match="A, B, C or D"):
        improvement.can_raise("skill", "E")


def test_a_specialty_always_needs_a_teacher(improvement, text):
    in_source(text, "Learning a specialty always requires a teacher.")
    alone = improvement.can_raise("specialty", used_successfully=True)
    assert alone == Improvement("specialty", False, None, None, "needs-teacher")
    taught = improvement.can_raise("specialty", teacher_has_specialty=True)
    assert taught == Improvement("specialty", True, None, "teacher", "allowed")


def test_xp_buys_skills_new_skills_and_specialties(improvement, text):
    in_source(
        text,
        "However you can increase your skills, buy new skills, and buy new specialties with XP.",
    )
    assert improvement.buys == ["raise-skill", "new-skill", "new-specialty"]
    assert improvement.fixed == ["attribute"]


# --- die levels ---------------------------------------------------------------------------


def test_levels_and_dice_both_ways(step_dice, text):
    in_source(text, "d6, d8, d10, and d12, also known as Levels D, C, B, or A, respectively")
    for die, level in zip(["d6", "d8", "d10", "d12"], "DCBA", strict=True):
        assert step_dice.level_of(die) == level
        assert step_dice.die_of(level) == die
    with pytest.raises(KeyError):
        step_dice.level_of("d20")
    with pytest.raises(KeyError):
        step_dice.die_of("E")


def test_a_pool_from_levels_or_dice_and_the_attribute_alone(step_dice, text):
    in_source(
        text, "If you don't have any level in a skill, you can still roll the associated attribute"
    )
    assert step_dice.pool("B", "D") == ["d10", "d6"]
    assert step_dice.pool("d12") == ["d12"]


# --- time ---------------------------------------------------------------------------------


def test_a_stretch_is_thirty_to_a_hundred_and_twenty_rounds(time, text):
    in_source(text, "Round | 5-10 seconds")
    in_source(text, "Stretch | 5-10 minutes")
    result = time.convert(1, "stretch", "rounds")
    assert (result.low, result.high, result.nominal) == (30, 120, 60)  # rulings time-*
    assert result.unit == "round"


def test_a_shift_in_hours_and_stretches(time, text):
    in_source(text, "Shift | 5-10 hours")
    hours = time.convert(1, "Shift", "hours")
    assert (hours.low, hours.high, hours.nominal) == (5, 10, Fraction(15, 2))
    assert time.convert(2, "shifts", "stretch").nominal == 120
    assert time.convert(60, "seconds", "minute").nominal == 1
    with pytest.raises(KeyError, match="no unit of time 'day'"):
        time.convert(1, "day", "round")
    with pytest.raises(ValueError):
        time.convert(-1, "round", "round")


# --- pushing and plain success -------------------------------------------------------------


def test_a_roll_may_be_pushed_only_when_it_failed_or_fell_short(push, step_dice, text):
    in_source(
        text,
        "If you fail your initial roll or need more successes than you got, you can push your roll.",
    )
    assert push.may_push([3, 4], step_dice) == PushAllowance(True, "may-push", 0)
    assert push.may_push([7, 4], step_dice).outcome == "enough-successes"
    assert push.may_push([7, 4], step_dice, needed=2) == PushAllowance(True, "may-push", 1)
    assert push.may_push([10, 4], step_dice, needed=2).outcome == "enough-successes"


def test_a_roll_is_pushed_once_and_needs_a_die_to_pick_up(push, step_dice):
    # rulings push-how-often and push-with-nothing-to-pick-up
    assert push.may_push([3, 4], step_dice, pushes=1).outcome == "already-pushed"
    assert push.may_push([1, 1], step_dice).outcome == "nothing-to-pick-up"
    assert push.may_push([1, 1], step_dice).allowed is False


def test_one_success_is_sufficient_for_a_normal_roll(t2k, push, step_dice, text):
    in_source(text, "For normal rolls, 1 success is sufficient to succeed at your task.")
    opposed = t2k.one(OpposedRoll)
    assert opposed.normal_roll_needs == 1
    assert opposed.succeeds(1) and not opposed.succeeds(0)
    # may_push's default need is the normal roll's
    assert push.may_push([6, 2], step_dice).outcome == "enough-successes"
    with pytest.raises(ValueError):
        opposed.succeeds(-1)


# --- group rolls --------------------------------------------------------------------------


def test_the_others_capable_of_helping_give_the_bonus(t2k, text):
    in_source(text, "If the others are capable of helping, whoever is rolling gets a +1 modifier")
    group = t2k.one(GroupRoll)
    others = [Helper("Anna"), Helper("Bo", skill="C"), Helper("Cy", able=False)]
    assert group.helping(others) == 2  # ruling capable-of-helping
    assert group.bonus_for(others) == 2
    assert group.helping(others, needs_skill=True) == 1
    many = [Helper(str(n)) for n in range(5)]
    assert group.bonus_for(many) == 3
