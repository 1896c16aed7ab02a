"""Coolness Under Fire (seed 000), one test per rule, named as an example of it.

The source's own examples ("9 TCs against a CUF of 4", "10 Tcs would equal 2 rounds on a
CUF of 4", "13 TCs against a CUF of 4") are read from tests/fixtures/seeds/cuf.txt.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from rulepress.games.cuf import rules as cuf
from rulepress.games.cuf.models.cuf import Check, CufRating, ThreatThreshold
from rulepress.games.cuf.models.threat import TcLadder, TcSource
from rulepress.games.cuf.rules import TcEvent
from rulepress.rules.examples import replay


@pytest.fixture(scope="module")
def ruleset(bundled):
    return bundled.compendium.ruleset("t2k-cuf")


@pytest.fixture(scope="module")
def text(seed_text) -> str:
    return " ".join(seed_text("cuf.txt").split())


@pytest.fixture(scope="module")
def rating(ruleset) -> CufRating:
    return ruleset.one(CufRating)


@pytest.fixture(scope="module")
def fear(ruleset) -> ThreatThreshold:
    return ruleset.get("fear")


@pytest.fixture(scope="module")
def fright(ruleset) -> ThreatThreshold:
    return ruleset.get("fright")


@pytest.fixture(scope="module")
def flight(ruleset) -> ThreatThreshold:
    return ruleset.get("fight-or-flight")


def total(ruleset, *events: TcEvent | str) -> int:
    return cuf.total(ruleset, [e if isinstance(e, TcEvent) else TcEvent(e) for e in events])


# --- the CUF rating -------------------------------------------------------------------------


def test_a_roll_of_seven_averaged_with_willpower_four_rounds_down_to_five(rating):
    assert rating.rating(7, 0, 4) == 5


def test_an_even_sum_averages_exactly(rating):
    assert rating.rating(6, 0, 4) == 5


def test_initiative_modifiers_are_added_to_the_roll_before_averaging(rating):
    # 1D10 roll 3 + Special Forces +2 = 5, averaged with Willpower 6 = 5.5, rounded down
    assert rating.rating(3, 2, 6) == 5
    assert rating.rating(3, 3, 6) == 6


def test_cuf_rounding_is_down_as_ruled(rating):
    assert rating.rounding == "down"
    for roll in range(1, 11):
        assert rating.rating(roll, 0, 5) == (roll + 5) // 2


def test_cuf_with_willpower_five_is_three_to_seven(rating):
    distribution = rating.distribution(0, 5)
    # rolls 1..10 plus 5 are 6..15; halved and rounded down, two rolls give each of 3..7
    assert distribution == {cuf_: Fraction(1, 5) for cuf_ in range(3, 8)}


def test_cuf_is_rolled_on_one_d10(rating, text):
    assert "I roll a 1D10 and add all of the modifiers for Initiative" in text
    assert rating.die == "d10"
    assert len(rating.distribution(0, 0)) == 6  # 1..10 halved, rounded down: 0..5


# --- which state a TC total reaches ---------------------------------------------------------


def test_nine_tcs_against_cuf_four_is_fright(ruleset, text):
    tcs, rating_ = map(
        int,
        re.search(
            r"\(ie (\d+) TCs against a CUF of (\d+)\), the PC/NPC must "
            r"roll a FRIGHT",
            text,
        ).groups(),
    )
    assert cuf.state(ruleset, tcs, cuf=rating_).id == "fright"


def test_thirteen_tcs_against_cuf_four_is_fight_or_flight(ruleset, text):
    tcs, rating_ = map(
        int,
        re.search(
            r"\(ie (\d+) TCs against a CUF of (\d+)\), you must make "
            r"a FIGHT OR FLIGHT",
            text,
        ).groups(),
    )
    assert cuf.state(ruleset, tcs, cuf=rating_).id == "fight-or-flight"


def test_five_tcs_against_cuf_four_is_fear(ruleset):
    assert cuf.state(ruleset, 5, cuf=4).id == "fear"


def test_exactly_cuf_tcs_exceeds_no_threshold_and_is_the_calm_state(ruleset, text):
    """ "When the number of TCs you receive exceeds your CUF score, you must roll a FEAR
    check": at or under CUF no check is rolled, the named calm state (ruling `calm-state`)."""
    assert "When the number of TCs you receive exceeds your CUF score" in text
    for tcs in (4, 0):
        below = cuf.state(ruleset, tcs, cuf=4)
        assert below == cuf.ThreatState("calm", "Calm") == cuf.calm(ruleset)
        assert (below.id, below.name, below.exceeded, below.threshold) == (
            "calm",
            "Calm",
            False,
            None,
        )


def test_exactly_twice_cuf_is_still_fear_not_fright(ruleset):
    assert cuf.state(ruleset, 8, cuf=4).id == "fear"


def test_exactly_three_times_cuf_is_still_fright(ruleset):
    assert cuf.state(ruleset, 12, cuf=4).id == "fright"


def test_only_the_highest_threshold_is_checked(ruleset, fear, fright, flight):
    assert fear.reached(13, 4) and fright.reached(13, 4) and flight.reached(13, 4)
    assert cuf.state(ruleset, 13, cuf=4).threshold is flight
    assert cuf.state(ruleset, 13, cuf=4).exceeded


def test_threshold_is_the_multiple_of_cuf(fear, fright, flight):
    assert (fear.threshold(4), fright.threshold(4), flight.threshold(4)) == (4, 8, 12)


@pytest.mark.parametrize("doc", ["fear", "fright", "fight-or-flight"])
def test_each_printed_example_replays_through_the_rule(ruleset, doc):
    threshold = ruleset.get(doc)
    for example in threshold.examples:
        computed = replay(threshold, example, ruleset)
        assert {k: computed[k] for k in example.expect} == example.expect


# --- suppression and penalties --------------------------------------------------------------


def test_a_failed_fear_check_suppresses_the_next_round(fear):
    assert fear.suppression_rounds(5, 4, passed=False) == 1
    assert fear.suppression_rounds(8, 4, passed=False) == 1


def test_a_passed_fear_check_does_not_suppress(fear):
    assert fear.suppression_rounds(5, 4, passed=True) == 0


def test_ten_tcs_against_cuf_four_failing_fright_suppresses_two_rounds(fright, text):
    tcs, rounds, rating_ = map(
        int,
        re.search(r"\(ie (\d+) Tcs would equal (\d+) rounds on a CUF of (\d+)\)", text).groups(),
    )
    assert fright.suppression_rounds(tcs, rating_, passed=False) == rounds


def test_a_passed_fright_check_does_not_suppress(fright):
    assert fright.suppression_rounds(10, 4, passed=True) == 0


def test_even_a_passed_fight_or_flight_check_suppresses_a_round_per_tc_over_three_cuf(flight):
    assert flight.suppression_rounds(13, 4, passed=True) == 1
    assert flight.suppression_rounds(15, 4, passed=True) == 3


def test_a_failed_fight_or_flight_check_means_flee_or_surrender(flight):
    assert flight.result(False).flee_or_surrender
    assert flight.suppression_rounds(13, 4, passed=False) == 0


def test_suppression_over_the_threshold_is_never_negative(fright):
    assert fright.suppression_rounds(5, 4, passed=False) == 0


def test_fear_penalties_last_until_tcs_drop_to_cuf(fear):
    assert fear.penalties_last(5, 4)
    assert not fear.penalties_last(4, 4)


def test_fright_penalties_last_until_tcs_drop_to_twice_cuf(fright):
    assert fright.penalties_last(9, 4)
    assert not fright.penalties_last(8, 4)


def test_fight_or_flight_penalties_last_at_exactly_three_times_cuf(flight, text):
    assert "until their TCs drop below CUF x 3" in text
    assert flight.penalties_last(12, 4)
    assert not flight.penalties_last(11, 4)


def test_successful_checks_cost_one_two_and_three_initiative(fear, fright, flight):
    assert [t.on_success.initiative_penalty for t in (fear, fright, flight)] == [-1, -2, -3]


# --- the check itself -----------------------------------------------------------------------


def test_an_average_check_of_cuf_four_and_will_six_passes_on_ten_or_less(fear):
    ratings = {"cuf": 4, "willpower": 6}
    assert fear.check.target(ratings) == 10
    assert fear.check.passes(10, ratings)
    assert not fear.check.passes(11, ratings)


def test_an_average_check_of_ten_passes_half_the_time_and_a_quarter_with_bane(fear):
    ratings = {"cuf": 4, "willpower": 6}
    assert fear.check.chance(ratings) == Fraction(1, 2)
    assert fear.check.chance(ratings, bane=True) == Fraction(1, 4)


BANE = "where they MUST roll 2D20 for every skill test and take the higher die rolled"


def test_a_bane_test_keeps_the_higher_of_two_d20s(fear, text):
    """ "... a "BANE" ... where they MUST roll 2D20 for every skill test and take the higher
    die rolled." Against a target of 10 (CUF 4, Will 6), 3 and 14 keep the 14 and fail;
    9 and 10 keep the 10 and pass."""
    assert BANE in text
    ratings = {"cuf": 4, "willpower": 6}
    failed = fear.check.resolve([3, 14], ratings, bane=True)
    assert (failed.faces, failed.kept, failed.target, failed.passed) == ((3, 14), 14, 10, False)
    assert failed.bane
    passed = fear.check.resolve((9, 10), ratings, bane=True)
    assert (passed.kept, passed.passed) == (10, True)


def test_without_a_bane_one_d20_is_rolled(fear):
    """ "you must roll a FEAR check of AVERAGE:[CUF + WILL]": one d20, at or under the
    target."""
    result = fear.check.resolve([14], {"cuf": 4, "willpower": 6})
    assert (result.kept, result.passed, result.bane) == (14, False, False)


def test_bane_rolls_resolved_over_every_pair_give_the_bane_chance(fear):
    """ "take the higher die rolled": the 400 equally likely pairs, resolved one by one,
    pass as often as the BANE chance says."""
    ratings = {"cuf": 4, "willpower": 6}
    pairs = [(a, b) for a in range(1, 21) for b in range(1, 21)]
    passing = sum(fear.check.resolve(p, ratings, bane=True).passed for p in pairs)
    assert Fraction(passing, len(pairs)) == fear.check.chance(ratings, bane=True)


def test_a_rolled_bane_test_replays_from_its_seed_and_keeps_the_higher(fear):
    """ "MUST roll 2D20 ... and take the higher die rolled", rolled rather than given."""
    ratings = {"cuf": 4, "willpower": 6}
    first = fear.check.roll(ratings, random.Random(7), bane=True)
    assert first == fear.check.roll(ratings, random.Random(7), bane=True)
    assert len(first.faces) == 2 and first.kept == max(first.faces)
    assert len(fear.check.roll(ratings, random.Random(7)).faces) == 1


def test_a_bane_test_needs_exactly_two_d20_faces(fear):
    """ "roll 2D20": one face, three faces or a face off the d20 are refused."""
    ratings = {"cuf": 4, "willpower": 6}
    with pytest.raises(ValueError, match="two d20s"):
        fear.check.resolve([5], ratings, bane=True)
    with pytest.raises(ValueError, match="two d20s"):
        fear.check.resolve([5, 6, 7], ratings, bane=True)
    with pytest.raises(ValueError, match="one d20"):
        fear.check.resolve([5, 6], ratings)
    with pytest.raises(ValueError, match="cannot show 21"):
        fear.check.resolve([5, 21], ratings, bane=True)


def test_a_difficult_check_halves_the_asset_dropping_fractions():
    check = Check(difficulty="Difficult", asset=["cuf", "willpower"])
    assert check.target({"cuf": 4, "willpower": 5}) == 4


def test_each_difficulty_multiplies_the_asset_as_ruled(text):
    """ "an AVERAGE:[LEADERSHIP+ CHA] or a DIFFICULT:[PERSUASION+CHA] test": the source
    names v2.2 difficulties without their table (ruling `d20-difficulty-multipliers`); an
    asset of 11 is 22, 11, 5, 2 and 1, fractions dropped (`d20-target-rounds-down`)."""
    assert "AVERAGE:[LEADERSHIP+ CHA] or a DIFFICULT:[PERSUASION+CHA] test" in text
    ratings = {"leadership": 6, "charisma": 5}
    targets = [
        Check(difficulty=level, asset=["leadership", "charisma"]).target(ratings)
        for level in ("Easy", "Average", "Difficult", "Formidable", "Impossible")
    ]
    assert targets == [22, 11, 5, 2, 1]


def test_a_twenty_passes_a_target_of_twenty_and_a_one_fails_a_target_of_zero(fear):
    """No automatic result (ruling `d20-no-automatic-result`)."""
    assert fear.check.passes(20, {"cuf": 10, "willpower": 10})
    assert not fear.check.passes(1, {"cuf": 0, "willpower": 0})


def test_an_asset_above_twenty_always_passes(fear):
    assert fear.check.chance({"cuf": 15, "willpower": 10}) == 1


def test_a_check_without_willpower_is_refused(fear):
    with pytest.raises(ValueError, match="willpower"):
        fear.check.target({"cuf": 4})


# --- TC totals --------------------------------------------------------------------------------


def test_a_lethal_weapon_includes_the_weapons_one_tc(ruleset, text):
    assert "= 2TC (including the 1TC for above)" in text
    assert total(ruleset, "weapon-threat", "lethal-weapon-threat") == 2


def test_automatic_fire_includes_the_lethal_weapon(ruleset):
    assert total(ruleset, "weapon-threat", "lethal-weapon-threat", "automatic-fire") == 3


def test_explosives_include_every_weapon_step(ruleset):
    assert (
        total(
            ruleset,
            "weapon-threat",
            "lethal-weapon-threat",
            "automatic-fire",
            "explosives-or-poison-gas",
        )
        == 4
    )


def test_being_attacked_with_a_knife_is_one_plus_two(ruleset):
    assert total(ruleset, "being-attacked", "lethal-weapon-threat") == 3


def test_outnumbered_ten_to_one_is_three_not_six(ruleset):
    assert total(ruleset, "outnumbered", "outnumbered-5-to-1", "outnumbered-10-to-1") == 3


def test_seeing_an_ally_incapacitated_includes_seeing_them_wounded(ruleset):
    assert total(ruleset, "ally-wounded", "ally-incapacitated") == 2


def test_seeing_an_ally_killed_is_four_not_seven(ruleset):
    assert total(ruleset, "ally-wounded", "ally-incapacitated", "ally-killed") == 4


def test_a_critical_wound_is_three_not_six(ruleset):
    assert total(ruleset, "wounded", "seriously-wounded", "critically-wounded") == 3


def test_two_allies_seen_wounded_are_two_events_of_one_tc(ruleset):
    assert total(ruleset, "ally-wounded", "ally-wounded") == 2


def test_completely_outgunning_includes_superior_firepower(ruleset):
    assert total(ruleset, "superior-firepower", "completely-outgun") == -2


@pytest.mark.parametrize(
    "ladder_id",
    [
        "weapon-attack-ladder",
        "outnumbered-ladder",
        "ally-casualty-ladder",
        "own-wound-ladder",
        "firepower-ladder",
    ],
)
def test_every_ladder_counts_only_its_highest_step(ruleset, ladder_id):
    ladder = ruleset.get(ladder_id)
    assert isinstance(ladder, TcLadder)
    for top in range(1, len(ladder.steps) + 1):
        steps = ladder.steps[:top]
        assert total(ruleset, *steps) == ruleset.get(steps[-1]).tc


def test_the_order_of_events_does_not_change_the_total(ruleset):
    assert (
        total(ruleset, "automatic-fire", "being-attacked", "weapon-threat")
        == total(ruleset, "weapon-threat", "being-attacked", "automatic-fire")
        == 4
    )


def test_three_allies_arriving_remove_three_tcs(ruleset):
    assert total(ruleset, TcEvent("ally-arrives", count=3)) == -3


def test_surplus_allies_stack_with_arriving_allies(ruleset, text):
    assert "-1TC per surplus ally (stacks with above)" in text
    assert (
        total(ruleset, TcEvent("ally-arrives", count=3), TcEvent("opponents-outnumbered", count=2))
        == -5
    )


def test_two_tangos_down_and_one_fled_remove_three(ruleset):
    assert total(ruleset, TcEvent("tango-down", count=2), TcEvent("tango-skips")) == -3


def test_a_once_only_source_cannot_count_twice(ruleset):
    with pytest.raises(ValueError, match="counts once"):
        total(ruleset, TcEvent("being-attacked", count=2))


def test_a_count_below_one_is_refused(ruleset):
    with pytest.raises(ValueError):
        total(ruleset, TcEvent("ally-arrives", count=0))


def test_an_environmental_disadvantage_needs_the_referees_amount(ruleset):
    with pytest.raises(ValueError, match="referee must choose"):
        total(ruleset, "environmental-disadvantage")


def test_an_environmental_disadvantage_of_three(ruleset):
    assert total(ruleset, TcEvent("environmental-disadvantage", amount=3)) == 3


@pytest.mark.parametrize("amount", [0, 5, -1])
def test_an_environmental_disadvantage_outside_one_to_four_is_refused(ruleset, amount):
    with pytest.raises(ValueError, match="outside"):
        total(ruleset, TcEvent("environmental-disadvantage", amount=amount))


def test_an_environmental_advantage_of_two_removes_two(ruleset):
    assert total(ruleset, TcEvent("environmental-advantage", amount=-2)) == -2
    with pytest.raises(ValueError):
        total(ruleset, TcEvent("environmental-advantage", amount=-5))


def test_a_supernatural_monster_brings_what_the_referee_says(ruleset):
    assert total(ruleset, TcEvent("supernatural-monster-or-magic", amount=6)) == 6
    with pytest.raises(ValueError):
        total(ruleset, "supernatural-monster-or-magic")


def test_an_outstanding_intimidation_brings_two_tcs(ruleset, text):
    assert "A successful Intimidation check = 1TC (2TCs for Outstanding Success)" in text
    assert total(ruleset, "intimidation") == 1
    assert total(ruleset, TcEvent("intimidation", outstanding=True)) == 2


def test_outstanding_leadership_removes_two_tcs(ruleset):
    assert total(ruleset, "inspirational-leadership") == -1
    assert total(ruleset, TcEvent("inspirational-leadership", outstanding=True)) == -2


def test_only_sources_with_an_outstanding_amount_can_be_outstanding(ruleset):
    with pytest.raises(ValueError, match="Outstanding"):
        total(ruleset, TcEvent("surprised-or-startled", outstanding=True))


def test_an_unknown_source_is_refused(ruleset):
    with pytest.raises(ValueError, match="no TC source"):
        total(ruleset, "stubbed-toe")
    with pytest.raises(ValueError, match="no TC source"):
        total(ruleset, "fear")  # a document, but not a TC source


def test_every_fixed_source_brings_its_printed_amount(ruleset):
    sources = [s for s in ruleset.all(TcSource) if isinstance(s.tc, int)]
    assert len(sources) > 20
    for source in sources:
        assert total(ruleset, source.id) == source.tc
        assert (source.tc > 0) == (source.effect == "adds")


# --- the end of the round ---------------------------------------------------------------------


def test_a_rounds_tcs_are_added_at_its_end(ruleset):
    events = [TcEvent("surprised-or-startled"), TcEvent("being-attacked")]
    assert cuf.end_of_round(ruleset, 3, events, cuf=4).tcs == 5


def test_reductions_never_take_the_total_below_zero(ruleset):
    events = [TcEvent("good-cover"), TcEvent("completely-outgun")]
    assert cuf.end_of_round(ruleset, 2, events, cuf=4).tcs == 0
    assert cuf.end_of_round(ruleset, 0, [TcEvent("ally-arrives", count=4)], cuf=4).tcs == 0


def test_reductions_to_exactly_zero_leave_zero(ruleset):
    assert cuf.end_of_round(ruleset, 1, [TcEvent("morphine")], cuf=4).tcs == 0


def test_a_round_with_nothing_keeps_the_total(ruleset):
    assert cuf.end_of_round(ruleset, 7, [], cuf=4).tcs == 7


def test_a_round_under_automatic_fire_with_an_ally_killed_frightens_cuf_four(ruleset):
    events = [
        TcEvent("being-attacked"),
        TcEvent("weapon-threat"),
        TcEvent("lethal-weapon-threat"),
        TcEvent("automatic-fire"),
        TcEvent("ally-killed"),
        TcEvent("ally-arrives"),
    ]
    end = cuf.end_of_round(ruleset, 1, events, cuf=4)
    assert end.tcs == 1 + 1 + 3 + 4 - 1 == 8
    assert end.state.id == "fear"
    end = cuf.end_of_round(ruleset, end.tcs, [TcEvent("surprised-or-startled")], cuf=4)
    assert end.state.id == "fright"


def test_tcs_gained_as_an_amount_are_added_at_the_rounds_end(ruleset, text):
    """ "Each Tc which applies is added to the PC/NPC's total for the round and we apply
    those TCs at the end of the round in which they are accumulated." The source's own
    figures: "9 TCs against a CUF of 4" frightens, "13 TCs against a CUF of 4" brings
    Fight or Flight."""
    assert "we apply those TCs at the end of the round" in text
    assert "ie 9 TCs against a CUF of 4" in text and "ie 13 TCs against a CUF of 4" in text
    assert cuf.end_of_round(ruleset, 0, cuf=4, gained=9) == cuf.RoundEnd(
        9, cuf.ThreatState.of(ruleset.get("fright"))
    )
    assert cuf.end_of_round(ruleset, 5, cuf=4, gained=8).state.id == "fight-or-flight"
    assert cuf.end_of_round(ruleset, 0, cuf=4, gained=4).state.id == "calm"


def test_tcs_lost_as_an_amount_are_subtracted_at_the_rounds_end(ruleset, text):
    """ "These TC reductions are subtracted from the TC total at the end of each round and
    the new TC total is then enacted the next round." 13 TCs at CUF 4, less 5, is 8: Fear
    only."""
    assert "subtracted from the TC total at the end of each round" in text
    end = cuf.end_of_round(ruleset, 13, cuf=4, lost=5)
    assert (end.tcs, end.state.id) == (8, "fear")
    assert cuf.end_of_round(ruleset, 2, cuf=4, lost=5).tcs == 0  # ruling tc-total-floor


def test_amounts_and_named_sources_count_together(ruleset):
    """ "We denote TCs using Poker chips since they fluctuate so much": chips the referee
    moves and named sources are one round's bookkeeping. 3 + being attacked (1) + 2 gained
    - 1 lost is 5, over CUF 4: Fear."""
    end = cuf.end_of_round(ruleset, 3, [TcEvent("being-attacked")], cuf=4, gained=2, lost=1)
    assert (end.tcs, end.state.id) == (5, "fear")


def test_negative_amounts_are_refused(ruleset):
    """TCs gained and lost are counts of chips, never negative: a loss is `lost`."""
    for bad in ({"gained": -1}, {"lost": -2}):
        with pytest.raises(ValueError, match="cannot be negative"):
            cuf.end_of_round(ruleset, 3, cuf=4, **bad)
    with pytest.raises(ValueError, match="current TCs cannot be negative"):
        cuf.end_of_round(ruleset, -1, cuf=4)


def test_an_outranked_event_is_still_checked(ruleset):
    with pytest.raises(ValueError, match="counts once"):
        cuf.total(ruleset, [TcEvent("weapon-threat", count=2), TcEvent("lethal-weapon-threat")])


# --- A skill roll under a threshold's effects -------------------------------------------------

FEAR_PENALTY = (
    'IF you succeed, you still suffer a "+1" (added to the dice roll) penalty to all Skill '
    "rolls (including attack and defense rolls)"
)
FRIGHT_BANE = "where they MUST roll 2D20 for every skill test and take the higher die rolled"


def test_after_a_passed_fear_check_one_is_added_to_every_skill_roll(fear, text):
    assert FEAR_PENALTY in text
    effects = fear.result(passed=True)
    assert cuf.resolve_skill_roll([12], 12).passed
    roll = cuf.resolve_skill_roll([12], 12, effects)
    assert (roll.kept, roll.penalty, roll.total, roll.passed) == (12, 1, 13, False)
    assert cuf.resolve_skill_roll([11], 12, effects).passed
    assert cuf.skill_roll_chance(12, effects) == Fraction(11, 20)
    assert cuf.skill_roll_chance(12) == Fraction(12, 20)


def test_after_a_failed_fright_check_every_skill_test_rolls_two_d20_keeping_the_higher(
    fright, text
):
    assert FRIGHT_BANE in text.replace("\n", " ")
    effects = fright.result(passed=False)
    roll = cuf.resolve_skill_roll([3, 15], 12, effects)
    assert (roll.kept, roll.passed) == (15, False)
    assert cuf.resolve_skill_roll([12, 3], 12, effects).passed
    assert cuf.skill_roll_chance(12, effects) == Fraction(12, 20) ** 2
    with pytest.raises(ValueError, match="two d20s"):
        cuf.resolve_skill_roll([3], 12, effects)


def test_the_skill_roll_chance_is_the_share_of_faces_that_pass(fear, fright, flight):
    for effects in (None, fear.result(True), fright.result(False), flight.result(True)):
        bane = effects is not None and effects.bane
        pairs = (
            [(a, b) for a in range(1, 21) for b in range(1, 21)]
            if bane
            else [(a,) for a in range(1, 21)]
        )
        for target in (1, 7, 12, 20, 21):
            passed = sum(cuf.resolve_skill_roll(p, target, effects).passed for p in pairs)
            assert Fraction(passed, len(pairs)) == cuf.skill_roll_chance(target, effects)
