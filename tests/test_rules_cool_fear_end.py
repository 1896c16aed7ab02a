"""The percentile Cool fear rules (seed 002) the example replay only showed: fear ending
out of danger, and panic's flight or freeze; and the rulings on the margins of the text.
Each test quotes its sentence from tests/fixtures/seeds/cool.txt."""

from __future__ import annotations

import random

import pytest

from rulepress.games.cool.models import CriticalFailure, FearRoll, PanicResult, ShockRoll
from rulepress.games.cool.rules import Combatant, acting_order
from tests.helpers import in_source


@pytest.fixture(scope="module")
def text(seed_text) -> str:
    return " ".join(seed_text("cool.txt").split())


@pytest.fixture(scope="module")
def fear(cool) -> FearRoll:
    return cool.one(FearRoll)


def test_fear_ends_when_no_longer_in_danger(fear, text):
    in_source(
        text,
        "Fear or panic automatically ends whenever the character(s) are considered to be no "
        "longer in danger",
    )
    assert fear.fear_ends(in_danger=False)
    assert not fear.fear_ends(in_danger=True)


def test_ugg_is_no_longer_scared_once_the_vampire_is_dead(fear, text):
    in_source(text, "he is no longer scared or frightened")
    assert fear.state_after("panicked", in_danger=False) == "not-afraid"
    assert fear.state_after("frightened", in_danger=False) == "not-afraid"
    assert fear.state_after("panicked", in_danger=True) == "panicked"
    assert fear.state_after("not-afraid", in_danger=True) == "not-afraid"


def test_a_panicked_character_flees_if_they_can(fear, text):
    in_source(text, "the character will flee from the scene if they can at all costs")
    assert fear.panic(can_escape=True) == PanicResult("flees", None, None)


def test_a_trapped_character_is_frozen_for_1d6_plus_1_turns(fear, text):
    in_source(
        text,
        "If they can’t escape they are frozen to the spot with fear and cannot act for 1d6+1 turns.",
    )
    frozen = fear.panic(can_escape=False)
    assert frozen.outcome == "frozen" and frozen.turns is None
    assert frozen.frozen.dice == "1d6+1" and frozen.frozen.unit == "turns"
    rolled = [fear.panic(can_escape=False, rng=random.Random(seed)).turns for seed in range(40)]
    assert set(rolled) == set(range(2, 8))


def test_a_critical_recovery_roll_only_fails_to_recover(fear, cool):
    # ruling fear-recovery-critical: recovers() is False, and nothing turns into panic
    critical = cool.one(CriticalFailure)
    assert fear.recovers(99, 100, critical) is False
    assert fear.recovers(50, 80, critical) is True


def test_shock_marks_are_not_rounded(cool):
    # ruling damage-marks-unrounded: 13 hit points, 1/4 is 3.25, 1/2 is 6.5
    shock = cool.one(ShockRoll)
    assert shock.required(wound=7, damage_before=0, hit_points=13)
    assert shock.required(wound=4, damage_before=0, hit_points=13)
    assert not shock.required(wound=3, damage_before=0, hit_points=13)


def test_a_target_below_one_fails_every_roll(cool):
    # ruling target-not-floored
    shock = cool.one(ShockRoll)
    critical = cool.one(CriticalFailure)
    assert shock.target(20, 25) == -5
    assert shock.resolve(1, shock.target(20, 25), critical).outcome == "shock"


def test_initiative_decides_higher_first_ties_in_given_order(text):
    in_source(text, "their individual initiatives will decide which will act first")
    order = acting_order(
        [
            Combatant("a", 5, "frightened"),
            Combatant("b", 9, "frightened"),
            Combatant("c", 9, "frightened"),
        ]
    )
    assert [c.name for c in order] == ["b", "c", "a"]  # ruling higher-initiative-first


def test_a_character_in_shock_cannot_act_that_round(cool, text):
    in_source(text, "If a character enters shock they are stunned for that round and cannot act.")
    in_source(text, "A successful roll means they have recovered from shock and can act.")
    shock, critical = cool.one(ShockRoll), cool.one(CriticalFailure)
    assert not shock.resolve(75, 70, critical).acts
    assert shock.resolve(70, 70, critical).acts
    assert not shock.resolve_recovery(99, 80, 0, critical).acts
