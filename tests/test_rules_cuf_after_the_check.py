"""Coolness Under Fire (seed 000) after a threat check and between the sides: the penalties
a passed check leaves and their ends, the effective Initiative, flee or surrender, a
passed check's skill penalty in `Check.resolve`, the Inspirational Leadership test, the
sides' numbers and the per-enemy sources. Each test quotes the sentence it executes, read
from tests/fixtures/seeds/cuf.txt."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rulepress.games.cuf import rules as cuf
from rulepress.games.cuf.models.cuf import CufRating, SkillCheck
from rulepress.games.cuf.models.threat import TcSource
from rulepress.games.cuf.rules import TcEvent
from tests.helpers import in_source


@pytest.fixture(scope="module")
def ruleset(bundled):
    return bundled.compendium.ruleset("t2k-cuf")


@pytest.fixture(scope="module")
def text(seed_text) -> str:
    return " ".join(seed_text("cuf.txt").split())


# --- the threshold Initiative penalties and their ends --------------------------------------


def test_a_passed_fear_check_costs_one_initiative_until_tcs_drop_to_cuf(ruleset, text):
    in_source(
        text,
        "If the PC/NPC makes their roll for FEAR, they still suffer a -1 to Initiative rolls "
        "until their TCs are reduced to their CUF score.",
    )
    at_five = cuf.initiative(ruleset, 5, cuf=4, rating=4, passed="fear")
    assert (at_five.rating, at_five.penalty, at_five.initiative, at_five.state) == (
        4,
        -1,
        3,
        "fear",
    )
    ended = cuf.initiative(ruleset, 4, cuf=4, rating=4, passed="fear")
    assert (ended.penalty, ended.initiative, ended.state) == (0, 4, "calm")


def test_a_passed_fright_check_costs_two_until_tcs_are_reduced_to_twice_cuf(ruleset, text):
    in_source(
        text,
        "IF the PC/NPC makes their FRIGHT/BANE check, they will still suffer a -2 to "
        "Initiative until their TCs are reduced to 2 x CUF.",
    )
    assert cuf.initiative(ruleset, 9, cuf=4, rating=5, passed="fright").initiative == 3
    assert cuf.initiative(ruleset, 8, cuf=4, rating=5, passed="fright").initiative == 5


def test_a_passed_flight_check_costs_three_until_tcs_drop_below_three_cuf(ruleset, text):
    """At exactly 3 x CUF the penalty still lasts (ruling `flight-penalties-at-three-cuf`),
    though the state is Fright."""
    in_source(
        text,
        "IF the PC/NPC makes their FIGHT OR FLIGHT check, they still suffer a -3 to Initiative "
        "rolls until their TCs drop below CUF x 3 (in addition to an automatic BANE).",
    )
    at_twelve = cuf.lasting(ruleset, 12, cuf=4, passed="fight-or-flight")
    assert cuf.state(ruleset, 12, cuf=4).id == "fright"
    assert (at_twelve.state, at_twelve.initiative_penalty, at_twelve.bane) == (
        "fight-or-flight",
        -3,
        True,
    )
    below = cuf.lasting(ruleset, 11, cuf=4, passed="fight-or-flight")
    assert (below.state, below.initiative_penalty, below.bane, below.effects) == (
        "calm",
        0,
        False,
        None,
    )


def test_penalties_followed_round_by_round_end_once_for_good(ruleset):
    """ "until their TCs are reduced to their CUF score": 6, 5, then 4 TCs end the Fear
    penalty; when the TCs rise to 5 again it does not come back (ruling
    `penalties-end-for-good`)."""
    assert cuf.initiative(ruleset, [6, 5], cuf=4, rating=3, passed="fear").penalty == -1
    assert cuf.initiative(ruleset, [6, 5, 4], cuf=4, rating=3, passed="fear").penalty == 0
    assert cuf.initiative(ruleset, [6, 4, 5], cuf=4, rating=3, passed="fear").penalty == 0


def test_no_passed_check_leaves_no_penalty(ruleset):
    result = cuf.initiative(ruleset, 20, cuf=4, rating=3, passed=None)
    assert (result.penalty, result.initiative, result.state) == (0, 3, "calm")


def test_the_initiative_is_not_floored(ruleset):
    """Ruling `initiative-not-floored`: Initiative 2 under -3 is -1."""
    assert cuf.initiative(ruleset, 13, cuf=4, rating=2, passed="fight-or-flight").initiative == -1


def test_the_lasting_penalties_refuse_what_is_not_a_threshold_or_a_count(ruleset):
    with pytest.raises(ValueError, match="no threat threshold"):
        cuf.lasting(ruleset, 5, cuf=4, passed="being-attacked")
    with pytest.raises(ValueError, match="counts"):
        cuf.lasting(ruleset, [], cuf=4, passed="fear")
    with pytest.raises(ValueError, match="counts"):
        cuf.lasting(ruleset, [5, -1], cuf=4, passed="fear")


# --- flee or surrender ------------------------------------------------------------------------


def test_a_failed_flight_check_flees_or_surrenders_based_on_the_situation(ruleset, text):
    """ "... or either flee or surrender based on the situation": with a way out the
    character flees, cornered they surrender (ruling `flee-unless-cornered`), and no round
    of suppression follows (ruling `failed-flight-no-suppression`)."""
    in_source(text, "or either flee or surrender based on the situation")
    fled = cuf.flee_or_surrender(ruleset, 13, cuf=4, passed=False)
    assert (fled.outcome, fled.state.id, fled.suppression_rounds, fled.bane) == (
        "flee",
        "fight-or-flight",
        0,
        False,
    )
    cornered = cuf.flee_or_surrender(ruleset, 13, cuf=4, passed=False, can_flee=False)
    assert cornered.outcome == "surrender"


def test_a_passed_flight_check_stays_suppressed_with_a_bane(ruleset, text):
    in_source(
        text,
        "Even IF the check is successful, you are Suppressed for a number of rounds equal to "
        'the number of TCs that have exceeded your [CUF X 3], and will suffer a "BANE"',
    )
    stays = cuf.flee_or_surrender(ruleset, 15, cuf=4, passed=True)
    assert (stays.outcome, stays.suppression_rounds, stays.bane, stays.passed) == (
        "stays",
        3,
        True,
        True,
    )


def test_lower_states_never_flee(ruleset):
    for tcs in (3, 5, 9):
        for passed in (False, True):
            assert cuf.flee_or_surrender(ruleset, tcs, cuf=4, passed=passed).outcome == "stays"
    assert cuf.flee_or_surrender(ruleset, 3, cuf=4, passed=False).state.id == "calm"


# --- Check.resolve under a passed check's skill penalty ---------------------------------------


def test_check_resolve_adds_a_passed_fear_checks_one_to_the_dice_roll(ruleset, text):
    """'IF you succeed, you still suffer a "+1" (added to the dice roll) penalty to all
    Skill rolls': the Leadership test (a skill roll) against 11 fails on 11 and passes on
    10 while the penalty lasts."""
    in_source(text, 'IF you succeed, you still suffer a "+1" (added to the dice roll) penalty')
    leadership = SkillCheck(difficulty="Average", asset=["leadership", "charisma"])
    ratings = {"leadership": 6, "charisma": 5}
    effects = cuf.lasting(ruleset, 5, cuf=4, passed="fear").effects
    assert leadership.resolve([11], ratings).passed
    roll = leadership.resolve([11], ratings, effects=effects)
    assert (roll.kept, roll.penalty, roll.total, roll.target, roll.passed) == (11, 1, 12, 11, False)
    assert leadership.resolve([10], ratings, effects=effects).passed
    assert leadership.chance(ratings, effects=effects) == Fraction(10, 20)
    ended = cuf.lasting(ruleset, 4, cuf=4, passed="fear").effects
    assert leadership.resolve([11], ratings, effects=ended).passed


def test_check_resolve_rolls_a_bane_under_a_passed_flight_check(ruleset, text):
    in_source(text, 'and will suffer a "BANE" as described above')
    leadership = SkillCheck(difficulty="Average", asset=["leadership", "charisma"])
    ratings = {"leadership": 6, "charisma": 5}
    effects = cuf.lasting(ruleset, 13, cuf=4, passed="fight-or-flight").effects
    roll = leadership.resolve([3, 12], ratings, effects=effects)
    assert (roll.bane, roll.kept, roll.passed) == (True, 12, False)
    assert leadership.chance(ratings, effects=effects) == Fraction(11, 20) ** 2
    rolled = leadership.roll(ratings, random.Random(3), effects=effects)
    assert len(rolled.faces) == 2


def test_a_threat_check_is_not_a_skill_roll(ruleset):
    """Ruling `skill-rolls-name-a-skill`: CUF + WILL names no skill, so a later threat
    check takes no skill penalty."""
    fear = ruleset.get("fear")
    effects = fear.result(passed=True)
    assert not fear.check.skill_roll
    ratings = {"cuf": 4, "willpower": 6}
    roll = fear.check.resolve([10], ratings, effects=effects)
    assert (roll.penalty, roll.passed) == (0, True)


# --- the Inspirational Leadership test ----------------------------------------------------------

LEADERSHIP = (
    "Inspirational LEADERSHIP! Your side makes an AVERAGE:[LEADERSHIP+ CHA] or a "
    "DIFFICULT:[PERSUASION+CHA] test. = -1TC or -2TC (outstanding success)"
)


def test_the_leadership_test_has_both_forms_with_the_ratings_it_names(ruleset, text):
    in_source(text, LEADERSHIP)
    source = ruleset.get("inspirational-leadership")
    assert [(c.difficulty, c.asset) for c in source.tests] == [
        ("Average", ["leadership", "charisma"]),
        ("Difficult", ["persuasion", "charisma"]),
    ]
    assert all(c.skill_roll for c in source.tests)


def test_a_passed_leadership_test_reduces_one_tc_and_an_outstanding_one_two(ruleset, text):
    in_source(text, LEADERSHIP)
    ratings = {"leadership": 6, "charisma": 5}  # Average: 11
    passed = cuf.leadership_test(ruleset, [11], ratings)
    assert (passed.passed, passed.check.difficulty, passed.tcs) == (True, "Average", -1)
    assert passed.event == TcEvent("inspirational-leadership")
    outstanding = cuf.leadership_test(ruleset, [2], ratings, outstanding=True)
    assert (outstanding.tcs, outstanding.event.outstanding) == (-2, True)
    failed = cuf.leadership_test(ruleset, [12], ratings, outstanding=True)
    assert (failed.passed, failed.outstanding, failed.tcs, failed.event) == (False, False, 0, None)


def test_passing_the_leadership_test_reduces_the_tcs_at_the_rounds_end(ruleset, text):
    """ "These TC reductions are subtracted from the TC total at the end of each round":
    9 TCs against CUF 4 (Fright) less the outstanding test's 2 is 7, Fear."""
    in_source(text, "These TC reductions are subtracted from the TC total at the end of each round")
    test = cuf.leadership_test(ruleset, [1], {"leadership": 6, "charisma": 5}, outstanding=True)
    end = cuf.end_of_round(ruleset, 9, [test.event], cuf=4)
    assert (end.tcs, end.state.id) == (7, "fear")


def test_the_persuasion_form_is_a_difficult_test(ruleset):
    """DIFFICULT:[PERSUASION+CHA]: Persuasion 8 and Charisma 5 halve to 6; with no
    Leadership given, that form is rolled; named by `form`, it is rolled whatever the
    ratings."""
    ratings = {"persuasion": 8, "charisma": 5}
    test = cuf.leadership_test(ruleset, [6], ratings)
    assert (test.check.difficulty, test.roll.target, test.passed) == ("Difficult", 6, True)
    assert not cuf.leadership_test(ruleset, [7], ratings).passed
    both = {"leadership": 2, "persuasion": 8, "charisma": 5}
    assert cuf.leadership_test(ruleset, [7], both, form=1).roll.target == 6


def test_by_default_the_better_form_is_rolled_leadership_on_a_tie(ruleset):
    """Ruling `leadership-better-form`: Leadership 1 + CHA 5 (6) against Persuasion 20 +
    CHA 5 halved (12) rolls Persuasion; 1 + 5 against 7 + 5 halved (6 each) rolls
    Leadership."""
    better = cuf.leadership_test(ruleset, [10], {"leadership": 1, "persuasion": 20, "charisma": 5})
    assert better.check.asset == ["persuasion", "charisma"]
    tie = cuf.leadership_test(ruleset, [10], {"leadership": 1, "persuasion": 7, "charisma": 5})
    assert tie.check.asset == ["leadership", "charisma"]


def test_the_leaders_own_penalty_applies_to_the_leadership_test(ruleset):
    """A skill roll: a leader under a passed Fear check's +1 fails on their target."""
    effects = cuf.lasting(ruleset, 5, cuf=4, passed="fear").effects
    test = cuf.leadership_test(ruleset, [11], {"leadership": 6, "charisma": 5}, effects=effects)
    assert (test.roll.total, test.passed) == (12, False)


def test_the_leadership_test_refuses_what_it_cannot_roll(ruleset):
    with pytest.raises(ValueError, match="needs"):
        cuf.leadership_test(ruleset, [5], {"charisma": 5})
    with pytest.raises(ValueError, match="forms"):
        cuf.leadership_test(ruleset, [5], {"leadership": 1, "charisma": 5}, form=2)
    with pytest.raises(ValueError, match="with a test"):
        cuf.leadership_test(ruleset, [5], {"leadership": 1, "charisma": 5}, source="morphine")


# --- the sides' numbers -------------------------------------------------------------------------


def test_opponents_outnumbered_reduce_one_tc_per_surplus_ally(ruleset, text):
    """ "Opponents outnumbered = -1TC per surplus ally": a side of 5 against 3 has 2 surplus
    allies (ruling `surplus-is-side-minus-opponents`)."""
    in_source(text, "Opponents outnumbered = -1TC per surplus ally (stacks with above)")
    assert cuf.surplus_allies(5, 3) == 2
    assert cuf.surplus_allies(3, 3) == cuf.surplus_allies(2, 7) == 0
    events = cuf.numbers_events(ruleset, 5, 3)
    assert events == (TcEvent("opponents-outnumbered", count=2),)
    assert cuf.total(ruleset, events) == -2


def test_being_outnumbered_counts_the_highest_ratio_reached(ruleset, text):
    """ "You are outnumbered = 1TC", "5 to 1 = 2TC", "10 to 1 = 3TC": exactly five against
    one is 5 to 1 (ruling `outnumbered-ratio-at-least`)."""
    for line in (
        "You are outnumbered = 1TC",
        "You are outnumbered 5 to 1 = 2TC",
        "You are outnumbered 10 to 1 = 3TC",
    ):
        in_source(text, line)
    cases = {(2, 3): 1, (1, 4): 1, (1, 5): 2, (2, 19): 2, (2, 20): 3, (1, 40): 3}
    for (side, opponents), tcs in cases.items():
        assert cuf.total(ruleset, cuf.numbers_events(ruleset, side, opponents)) == tcs
    assert cuf.numbers_events(ruleset, 1, 5) == (TcEvent("outnumbered-5-to-1"),)


def test_even_sides_or_no_opponents_bring_nothing(ruleset):
    assert cuf.numbers_events(ruleset, 3, 3) == ()
    assert cuf.numbers_events(ruleset, 3, 0) == ()
    with pytest.raises(ValueError):
        cuf.numbers_events(ruleset, 0, 3)


def test_the_outnumbered_ratios_are_data(ruleset):
    ratios = {s.id: s.outnumbered for s in ruleset.all(TcSource) if s.outnumbered}
    assert ratios == {"outnumbered": 1, "outnumbered-5-to-1": 5, "outnumbered-10-to-1": 10}


# --- which enemies count -------------------------------------------------------------------------


def test_enemies_dead_or_wounded_count_as_down_and_those_who_flee_as_skipped(ruleset, text):
    in_source(text, "Tango Down! = -1TC per enemy taken down (dead or wounded)")
    in_source(text, "Tango Skips = -1TC per enemy who flees")
    assert ruleset.get("tango-down").counts == ["dead", "wounded"]
    assert ruleset.get("tango-skips").counts == ["fled"]
    counted = cuf.enemy_events(ruleset, {"a": "dead", "b": "wounded", "c": "fled"})
    assert counted.events == (TcEvent("tango-down", count=2), TcEvent("tango-skips"))
    assert counted.counted == {"a", "b", "c"}
    assert cuf.total(ruleset, counted.events) == -3


def test_an_enemy_counts_once(ruleset):
    """Ruling `enemy-counts-once`: wounded in round one, killed in round two, one TC."""
    first = cuf.enemy_events(ruleset, {"sniper": "wounded"})
    second = cuf.enemy_events(
        ruleset, {"sniper": "dead", "rifleman": "fled"}, counted=first.counted
    )
    assert second.events == (TcEvent("tango-skips"),)
    assert second.counted == {"sniper", "rifleman"}


def test_an_enemy_in_no_counted_condition_is_refused(ruleset):
    with pytest.raises(ValueError, match="surrendered"):
        cuf.enemy_events(ruleset, {"a": "surrendered"})


# --- the CUF rating's Initiative modifiers -------------------------------------------------------


def test_all_the_initiative_modifiers_are_added_before_the_average(ruleset, text):
    """ "I roll a 1D10 and add all of the modifiers for Initiative in V2/V2.2 to that roll
    (ie Special Forces, Airborne, etc...)": roll 3, +2 and +1, averaged with Willpower 6,
    is 6 (ruling `initiative-modifiers-add`)."""
    in_source(text, "add all of the modifiers for Initiative in V2/V2.2 to that roll")
    rating = ruleset.one(CufRating)
    assert rating.rating(3, [2, 1], 6) == rating.rating(3, 3, 6) == 6
    assert rating.distribution([2, 1], 6) == rating.distribution(3, 6)


def test_a_cuf_below_zero_is_zero(ruleset):
    """Ruling `cuf-not-below-zero`: roll 1, -6, Willpower 1 would be -2."""
    assert ruleset.one(CufRating).rating(1, -6, 1) == 0


# --- the round's end ------------------------------------------------------------------------------


def test_a_rounds_gains_and_reductions_are_netted_before_the_floor(ruleset, text):
    """ "These TC reductions are subtracted from the TC total at the end of each round":
    2 TCs, 3 gained and 5 reduced is 0, not 3 (ruling `gains-and-reductions-net`)."""
    in_source(text, "These TC reductions are subtracted from the TC total at the end of each round")
    assert cuf.end_of_round(ruleset, 2, cuf=4, gained=3, lost=5).tcs == 0


def test_the_referees_amount_for_a_monster_adds_tcs(ruleset, text):
    """ "the TC varies by the monster", among the things that generate TCs (ruling
    `referee-amount-follows-effect`)."""
    in_source(
        text, "You encounter a supernatural monster or magic (Dark Conspiracy) = the TC varies"
    )
    assert cuf.total(ruleset, [TcEvent("supernatural-monster-or-magic", amount=0)]) == 0
    with pytest.raises(ValueError, match="wrong sign"):
        cuf.total(ruleset, [TcEvent("supernatural-monster-or-magic", amount=-2)])


def test_a_failed_fright_checks_bane_lasts_until_tcs_are_reduced_to_twice_cuf(ruleset, text):
    """ "or suffer from a 1 round suppression per point of TCs ... and then a "BANE"":
    the BANE lasts until the TCs are reduced to 2 x CUF (ruling `bane-duration`); a failed
    Fear check (suppression only) leaves nothing lasting."""
    in_source(text, 'and then a "BANE"')
    bane = cuf.lasting(ruleset, 10, cuf=4, passed=None, failed="fright")
    assert (bane.state, bane.bane, bane.initiative_penalty, bane.skill_penalty) == (
        "fright",
        True,
        0,
        0,
    )
    roll = cuf.resolve_skill_roll([3, 15], 12, bane.effects)
    assert (roll.kept, roll.passed) == (15, False)
    assert cuf.lasting(ruleset, [10, 8], cuf=4, passed=None, failed="fright").effects is None
    assert cuf.lasting(ruleset, 5, cuf=4, passed=None, failed="fear").state == "calm"
    with pytest.raises(ValueError, match="not both"):
        cuf.lasting(ruleset, 10, cuf=4, passed="fear", failed="fright")


def test_a_check_is_rolled_on_entering_a_higher_state_not_every_round(ruleset, text):
    in_source(text, "the new TC total is then enacted the next round")
    assert cuf.check_due(ruleset, 4, cuf=4) is None  # calm: no check
    assert cuf.check_due(ruleset, 5, cuf=4).id == "fear"  # entering Fear
    assert cuf.check_due(ruleset, 6, cuf=4, last="fear") is None  # still Fear
    assert cuf.check_due(ruleset, 9, cuf=4, last="fear").id == "fright"  # a higher state
    assert cuf.check_due(ruleset, 6, cuf=4, last="fright") is None  # falling rolls nothing
    assert cuf.check_due(ruleset, 13, cuf=4).id == "fight-or-flight"
