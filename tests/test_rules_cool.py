"""The percentile Cool stat (seed 002): shock rolls, fear rolls, durations, acting order.

Ugg's figures (cool 80, 10 damage, 70 or less; a roll of 90 failing by 10) and the 1d6+1
durations are read from tests/fixtures/seeds/cool.txt.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from rulepress.games.cool.models import CriticalFailure, Duration, FearResult, FearRoll, ShockRoll
from rulepress.games.cool.rules import Combatant, acting_order
from rulepress.rules.examples import replay


@pytest.fixture(scope="module")
def text(seed_text) -> str:
    return " ".join(seed_text("cool.txt").split())


@pytest.fixture(scope="module")
def shock(cool) -> ShockRoll:
    return cool.one(ShockRoll)


@pytest.fixture(scope="module")
def fear(cool) -> FearRoll:
    return cool.one(FearRoll)


@pytest.fixture(scope="module")
def critical(cool) -> CriticalFailure:
    return cool.one(CriticalFailure)


# --- shock rolls ------------------------------------------------------------------------------


def test_ugg_needs_seventy_or_less(shock, text):
    cool_, damage = map(
        int,
        re.search(r"Ugg the Mighty has a cool of (\d+), he takes (\d+) hit-points", text).groups(),
    )
    needed = int(re.search(r"Ugg requires (\d+) or less to save against shock", text).group(1))
    assert shock.target(cool_, damage) == needed


def test_ugg_rolling_seventy_saves_and_seventy_one_goes_into_shock(shock, critical):
    assert shock.resolve(70, 70, critical).outcome == "steady"
    assert shock.resolve(71, 70, critical).outcome == "shock"


def test_ugg_shock_example_replays_through_the_rule(shock, cool):
    for example in shock.examples:
        assert replay(shock, example, cool) == example.expect


def test_every_hit_point_of_damage_is_minus_one(shock):
    assert [shock.target(80, d) for d in (0, 1, 25)] == [80, 79, 55]


def test_a_single_wound_of_half_the_hit_points_calls_for_a_roll(shock):
    assert shock.required(20, 0, 40)


def test_a_single_wound_of_half_the_hit_points_calls_even_past_both_marks(shock):
    assert shock.required(20, 25, 40)


def test_a_first_wound_over_a_quarter_calls_for_a_roll(shock):
    # Ugg's 10 damage "exceeds a quarter of total hit-points": with 36 HP the mark is 9
    assert shock.required(10, 0, 36)


def test_a_wound_reaching_the_quarter_mark_exactly_does_not_exceed_it(shock):
    assert not shock.required(10, 0, 40)
    assert shock.required(1, 10, 40)


def test_a_wound_between_the_marks_calls_for_no_roll(shock):
    assert not shock.required(5, 12, 40)


def test_passing_the_half_mark_calls_for_a_roll(shock):
    assert shock.required(6, 15, 40)


def test_damage_past_both_marks_calls_for_no_further_roll(shock):
    assert not shock.required(3, 25, 40)


IN_SHOCK_MUST_ROLL_AGAIN = (
    "However in order to act the person in shock must succeed their cool roll again. A failed "
    "roll means they are still in shock and can’t act. A successful roll means they have "
    "recovered from shock and can act."
)


def test_in_shock_ugg_must_roll_seventy_or_less_again_to_act(shock, critical, text):
    # the same roll with the same wound penalty (ruling shock-recovery-roll-penalty)
    assert IN_SHOCK_MUST_ROLL_AGAIN in text
    assert shock.resolve_recovery(70, 80, 10, critical).outcome == "steady"
    assert shock.resolve_recovery(71, 80, 10, critical).outcome == "shock"


def test_a_critical_recovery_roll_knocks_out(shock, critical):
    # ruling shock-critical-on-recovery
    assert shock.resolve_recovery(97, 80, 10, critical).outcome == "unconscious"


def test_a_critical_shock_roll_knocks_out_whatever_the_target(shock, critical):
    assert shock.resolve(96, 99, critical).outcome == "unconscious"
    assert shock.resolve(100, 70, critical).outcome == "unconscious"
    assert shock.resolve(95, 99, critical).outcome == "steady"


@pytest.mark.parametrize("roll", [0, 101, -5])
def test_a_percentile_roll_outside_one_to_a_hundred_is_refused(shock, fear, critical, roll):
    with pytest.raises(ValueError):
        shock.resolve(roll, 50, critical)
    with pytest.raises(ValueError):
        fear.resolve(roll, 50, critical)


def test_critical_failures_are_ninety_six_to_a_hundred(critical):
    assert [r for r in range(1, 101) if critical.is_critical(r)] == list(range(96, 101))


# --- durations ----------------------------------------------------------------------------------


def test_a_critical_shock_knocks_out_for_one_d6_plus_one_rounds(shock, text):
    assert "automatic loss of consciousness for 1d6+1 rounds" in text
    assert shock.unconscious.unit == "rounds"
    assert shock.unconscious.distribution() == {n: Fraction(1, 6) for n in range(2, 8)}


def test_a_panic_freezes_for_one_d6_plus_one_turns(fear, text):
    assert "cannot act for 1d6+1 turns" in text
    assert fear.frozen.unit == "turns"
    assert fear.frozen.distribution() == {n: Fraction(1, 6) for n in range(2, 8)}


def test_a_rolled_duration_is_two_to_seven(shock):
    rng = random.Random(11)
    assert {shock.unconscious.roll(rng) for _ in range(300)} == set(range(2, 8))


def test_two_d6_minus_one_runs_from_one_to_eleven():
    duration = Duration(dice="2d6-1", unit="rounds")
    distribution = duration.distribution()
    assert min(distribution) == 1
    assert max(distribution) == 11
    assert distribution[6] == Fraction(6, 36)


def test_a_duration_without_a_bonus_is_the_dice_alone():
    assert Duration(dice="1d4", unit="turns").distribution() == {
        n: Fraction(1, 4) for n in range(1, 5)
    }


# --- fear rolls -------------------------------------------------------------------------------


def test_ugg_rolling_ninety_against_cool_eighty_is_frightened_at_minus_ten(fear, critical, text):
    cool_ = int(re.search(r"has a cool of (\d+)\. He encounters", text).group(1))
    roll, margin = map(int, re.search(r"Ugg rolls a (\d+)\. He fails by (\d+)", text).groups())
    penalty = int(re.search(r"actions are at (-\d+) until", text).group(1))
    result = fear.resolve(roll, fear.target(cool_), critical)
    assert result == FearResult(roll, cool_, "frightened", margin)
    assert result.penalty == penalty


def test_the_fear_examples_replay_through_the_rule(fear, cool):
    for example in fear.examples:
        assert replay(fear, example, cool) == example.expect


def test_rolling_exactly_cool_is_not_afraid(fear, critical):
    assert fear.resolve(80, 80, critical) == FearResult(80, 80, "not-afraid", 0)
    assert fear.resolve(1, 80, critical).outcome == "not-afraid"


def test_missing_by_one_is_frightened_at_minus_one(fear, critical):
    result = fear.resolve(81, 80, critical)
    assert (result.outcome, result.margin, result.penalty) == ("frightened", 1, -1)


def test_a_critical_fear_roll_panics(fear, critical):
    result = fear.resolve(97, 80, critical)
    assert result.outcome == "panicked"
    assert result.margin == 17


def test_a_critical_fear_roll_panics_even_under_the_cool(fear, critical):
    assert fear.resolve(96, 99, critical) == FearResult(96, 99, "panicked", 0)


def test_a_wounded_fear_roll_fails_by_its_margin_from_the_lowered_target(fear, critical, text):
    # "all actions are penalised by the amount that they failed their roll by", measured
    # from Cool less the wound penalty (ruling fear-margin-from-penalised-target): Ugg,
    # Cool 80 with 10 damage, rolling 90 fails by 20
    assert "penalised by the amount that they failed their roll by" in text
    result = fear.resolve(90, fear.target(80, damage_taken=10), critical)
    assert (result.outcome, result.margin, result.penalty) == ("frightened", 20, -20)


RECOVERS_FROM_FEAR = (
    "To recover from fear or panic the player must re-roll their cool during their turn in "
    "the following turn."
)


def test_a_frightened_character_recovers_on_a_re_roll_under_cool_unpenalised(fear, critical, text):
    # Ugg, Cool 80, frightened at -10: the re-roll is made against 80, not 70 (ruling
    # recovery-roll-unpenalised)
    assert RECOVERS_FROM_FEAR in text
    assert fear.recovers(80, 80, critical)
    assert fear.recovers(75, 80, critical)
    assert not fear.recovers(81, 80, critical)


def test_a_wounded_character_re_rolls_fear_against_the_wounded_cool(fear, critical):
    assert not fear.recovers(75, 80, critical, damage_taken=10)
    assert fear.recovers(70, 80, critical, damage_taken=10)


def test_a_critical_re_roll_never_recovers_from_fear(fear, critical):
    assert not fear.recovers(96, 100, critical)


def test_wounds_lower_the_fear_target(fear, critical):
    # cool 80 with 10 damage taken: a 75 misses the 70 target by 5
    target = fear.target(80, damage_taken=10)
    assert target == 70
    assert fear.resolve(75, target, critical) == FearResult(75, 70, "frightened", 5)


# --- acting order ---------------------------------------------------------------------------


def names(combatants) -> list[str]:
    return [c.name for c in acting_order(combatants)]


def test_those_in_shock_act_last_irrespective_of_initiative():
    assert names([Combatant("Ugg", 20, "shock"), Combatant("Grak", 3)]) == ["Grak", "Ugg"]


def test_two_in_shock_act_by_their_initiatives():
    assert names([Combatant("Low", 4, "shock"), Combatant("High", 9, "shock")]) == ["High", "Low"]


def test_frightened_characters_act_before_scared_ones():
    assert names([Combatant("Scared", 18, "scared"), Combatant("Frightened", 2, "frightened")]) == [
        "Frightened",
        "Scared",
    ]


def test_frightened_characters_act_by_their_initiatives():
    assert names([Combatant("A", 5, "frightened"), Combatant("B", 12, "frightened")]) == ["B", "A"]


def test_shocked_and_scared_act_last_together_by_initiative():
    order = names(
        [
            Combatant("Shocked", 7, "shock"),
            Combatant("Scared", 11, "scared"),
            Combatant("Frightened", 1, "frightened"),
            Combatant("Calm", 0),
            Combatant("Shocked2", 15, "shock"),
        ]
    )
    assert order == ["Calm", "Frightened", "Shocked2", "Scared", "Shocked"]


def test_steady_characters_act_by_initiative_highest_first():
    assert names([Combatant("A", 3), Combatant("B", 14), Combatant("C", 8)]) == ["B", "C", "A"]


def test_acting_order_keeps_every_combatant():
    combatants = [
        Combatant(str(i), i % 7, s)
        for i, s in enumerate(["steady", "shock", "scared", "frightened"] * 3)
    ]
    assert sorted(names(combatants)) == sorted(c.name for c in combatants)


def test_unconscious_characters_do_not_act():
    assert names([Combatant("Ugg", 20, "unconscious"), Combatant("Grak", 3)]) == ["Grak"]


def test_fear_roll_outcomes_give_the_acting_order():
    order = names(
        [
            Combatant("Panicked", 19, "panicked"),
            Combatant("Calm", 1, "not-afraid"),
            Combatant("Frightened", 9, "frightened"),
        ]
    )
    assert order == ["Calm", "Frightened", "Panicked"]


def test_an_unknown_state_is_refused():
    with pytest.raises(ValueError, match="unknown state"):
        acting_order([Combatant("Ugg", 5, "berserk")])


def test_a_fear_example_without_a_critical_failure_rule_cannot_be_replayed(tmp_path):
    """Found by fuzzing: a fear roll alone in a ruleset crashed the example check."""
    import shutil

    from rulepress.validation import validate
    from tests.helpers import COMPENDIUM, RULESET, build_tree

    build_tree(tmp_path, {"demo/ruleset.yaml": RULESET})
    shutil.copy(COMPENDIUM / "cool" / "fear-roll.yaml", tmp_path / "demo" / "fear-roll.yaml")
    findings = validate(tmp_path).findings
    assert any(f.code == "RP302" and "no critical-failure" in f.message for f in findings)
