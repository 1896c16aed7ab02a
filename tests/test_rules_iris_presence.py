"""IRIS rules from the page's prose (seed 003), one test per rule, named as an example of
it: the session a passed resist dispels the Presence for, what follows a resist or the
choice to obey, which ranks count toward Corruption, the skills' combat uses, and what
unlocking a skill costs. Each test quotes the page's sentence it executes
(tests/fixtures/seeds/iris-wiki.txt)."""

from __future__ import annotations

import pytest

from rulepress.games.iris import rules as iris_rules
from rulepress.games.iris.models import (
    CharacterState,
    CorruptionRules,
    CpCost,
    CpSpending,
    ObedienceConsequences,
    PresenceSession,
)
from rulepress.games.iris.models.combat import CombatSituation

ENDURANCE_RANKS = {"vigor": 3, "resolve": 5}
"""Trait ranks for a Willpower (Endurance) test: a bonus of 5 AP."""


def quoted(page: str, sentence: str) -> str:
    """The sentence, after checking the page prints it (so a test cannot quote a rule the
    source does not state)."""
    assert sentence in page, sentence
    return sentence


def character(**changes) -> CharacterState:
    """A Character at Corruption 12, Stamina 0 of 20 (Exhausted) and Health 5: the
    Presence manifests (Stamina below Corruption), with a target of 17."""
    fields = {"corruption": 12, "stamina": 0, "maximum_stamina": 20, "health": 5}
    return CharacterState(**{**fields, **changes})


@pytest.fixture(scope="module")
def corruption(iris) -> CorruptionRules:
    return iris.one(CorruptionRules)


# --- the dispel lasts the session -------------------------------------------------------------


def test_passing_the_test_dispels_the_presence_for_the_rest_of_the_session(iris, iris_page):
    quoted(
        iris_page,
        "Passing the test drains 2 Stamina, but successfully resists the Presence and "
        "dispells it for the rest of the game session.",
    )
    rules = iris.one(CorruptionRules)
    presence = rules.presence(character())
    after = iris_rules.resist_presence(iris, presence, [6] * 6, ENDURANCE_RANKS, character())
    assert after.outcome == "resisted"
    assert after.session == PresenceSession(dispelled=True)
    again = rules.presence(after.character, event_level=10, session=after.session)
    assert [t.id for t in again.triggers]  # the triggers still hold...
    assert (again.manifests, again.tested, again.dispelled) == (False, None, True)  # ...no test


def test_the_dispel_expires_with_the_session(corruption):
    session = PresenceSession().apply(corruption.resist_pass)
    assert session.dispelled
    next_session = session.expire()
    assert not next_session.dispelled
    assert corruption.presence(character(), session=next_session).manifests


def test_failing_or_obeying_dispels_nothing(corruption):
    session = PresenceSession()
    assert session.apply(corruption.resist_fail) == session
    assert session.apply(corruption.obey) == session


def test_a_presence_that_does_not_manifest_has_nothing_to_resist(iris, corruption):
    dispelled = PresenceSession(dispelled=True)
    presence = corruption.presence(character(), session=dispelled)
    with pytest.raises(ValueError, match="nothing to resist"):
        iris_rules.resist_presence(iris, presence, [6] * 6, ENDURANCE_RANKS, character())


# --- what follows the resist --------------------------------------------------------------------


def test_a_passed_resist_drains_two_stamina_even_below_zero(iris, corruption):
    test = iris_rules.resolve_willpower(iris, [6] * 6, ENDURANCE_RANKS, 17)
    after = iris_rules.follow_resist(iris, test, character())
    assert test.passed
    assert after.character.stamina == -2  # no floor: "Stamina dropping below 0" can happen
    assert after.character.corruption == 12
    assert after.effects == (corruption.resist_pass,)
    assert after.consequences is None


def test_a_failed_resist_adds_one_corruption_and_the_character_must_obey(iris, iris_page):
    quoted(
        iris_page,
        "Failing the test increases Corruption by +1 and the Character must obey the urge.",
    )
    test = iris_rules.resolve_willpower(iris, [1] * 6, ENDURANCE_RANKS, 17)
    after = iris_rules.follow_resist(iris, test, character())
    assert not test.passed
    assert after.outcome == "obeys"
    # ruling failed-resist-obeys: no +5 Stamina, no second +1 Corruption
    assert (after.character.corruption, after.character.stamina) == (13, 0)
    assert not after.session.dispelled
    assert after.consequences.level == 12
    assert after.consequences.options[0].willpower_ap == 10


def test_the_obedience_row_is_read_after_the_failures_increase(iris):
    # at Corruption 11 the 10 row would apply; the failure's +1 takes it to the 12 row
    # (ruling consequence-row-after-change)
    test = iris_rules.resolve_willpower(iris, [1], ENDURANCE_RANKS, 11)
    after = iris_rules.follow_resist(iris, test, character(corruption=11))
    assert after.character.corruption == 12
    assert after.consequences.level == 12


def test_the_rulings_alternative_adds_the_obey_effect_to_a_failure(iris, corruption):
    test = iris_rules.resolve_willpower(iris, [1], ENDURANCE_RANKS, 17)
    after = iris_rules.follow_resist(iris, test, character(), with_obey_effect=True)
    assert after.effects == (corruption.resist_fail, corruption.obey)
    assert (after.character.corruption, after.character.stamina) == (14, 5)


def test_obeying_gains_five_stamina_and_one_corruption_then_the_table_applies(iris, iris_page):
    quoted(
        iris_page,
        "If obeying, the Character immediately gains 5 Stamina, but Corruption increases by +1.",
    )
    after = iris_rules.obey(iris, character(corruption=13, stamina=2))
    assert after.outcome == "obeys"
    assert (after.character.corruption, after.character.stamina) == (14, 7)
    assert after.consequences.level == 14
    assert after.consequences.options[0].text == (
        "Find help, but fear prevents taking direct action"
    )


def test_a_stamina_gain_stops_at_the_maximum(iris):
    after = iris_rules.obey(iris, character(stamina=18))
    assert after.character.stamina == 20  # ruling stamina-gain-up-to-maximum


def test_a_failed_direct_action_prevents_further_attempts_only_at_it(iris, iris_page):
    quoted(
        iris_page,
        "Taking direct action to resolve the situation requires a 5AP Willpower test. "
        "Failure prevents further attempts at direct action.",
    )
    table = iris.one(ObedienceConsequences)
    for level in (10, 12):
        options = table.consequences(level).options
        assert [o.failure_ends_attempts for o in options] == [True, False, False]
    assert not any(o.failure_ends_attempts for o in table.consequences(14).options)


# --- which ranks count toward Corruption ----------------------------------------------------------


def test_trait_ranks_the_director_gave_a_new_character_do_not_count(corruption, iris_page):
    quoted(iris_page, "- Trait ranks given by the Director for a new Character don't count.")
    natural = {"acuity": 3, "vigor": 4}
    assert corruption.level_of(natural, natural, 0).level == 0
    assert corruption.counted_trait_ranks == "above-natural"


def test_each_trait_counts_its_ranks_above_its_natural_number(corruption, iris_page):
    quoted(iris_page, "Each Trait rank increases Corruption by +1")
    quoted(iris_page, "Each Aug increases Corruption by +2")
    # Acuity 5 over a natural 3 counts 2; Vigor 3 under a natural 4 counts none
    level = corruption.level_of({"acuity": 5, "vigor": 3}, {"acuity": 3, "vigor": 4}, augs=1)
    assert (level.trait_ranks_counted, level.augs, level.level) == (2, 1, 4)


def test_a_trait_the_director_gave_no_ranks_counts_them_all(corruption):
    assert corruption.level_of({"strength": 2}, {}, 0).level == 2


def test_the_presences_corruption_is_added_to_the_ranks(corruption):
    level = corruption.level_of({"acuity": 4}, {"acuity": 3}, 0, from_presence=2)
    assert (level.level, level.from_presence) == (3, 2)


def test_counting_every_trait_rank_is_the_datas_to_choose(corruption):
    every = corruption.model_copy(update={"counted_trait_ranks": "all"})
    assert every.level_of({"acuity": 4}, {"acuity": 3}, 0).level == 4


@pytest.mark.parametrize("ranks", [{"acuity": -1}, {}])
def test_negative_ranks_or_presence_corruption_are_refused(corruption, ranks):
    with pytest.raises(ValueError):
        corruption.level_of(ranks, {}, 0, from_presence=-1 if not ranks else 0)


# --- the skills' combat notes --------------------------------------------------------------------


def test_stealth_needs_one_full_round_out_of_sight(iris, iris_page):
    quoted(
        iris_page,
        "the Character must remain out of sight of the enemy for one full round before "
        "Stealth is possible.",
    )
    stealth = iris.get("stealth")
    hidden_for = {rounds: CombatSituation("in-combat", rounds) for rounds in (0, 1, 2)}
    refused = stealth.combat_use("flank-or-escape", hidden_for[0])
    assert not refused.allowed
    assert "1 full round" in refused.reasons[0]
    assert stealth.combat_use("flank-or-escape", hidden_for[1]).allowed
    assert stealth.combat_use("flank-or-escape", hidden_for[2]).allowed


def test_expertise_sets_initiative_at_the_beginning_of_every_combat(iris, iris_page):
    quoted(iris_page, "This Skill is used at the beginning of every combat to determine acting")
    expertise = iris.get("expertise")
    assert expertise.combat_use("initiative", CombatSituation("combat-start")).allowed
    assert not expertise.combat_use("initiative", CombatSituation("in-combat")).allowed


def test_forming_strategy_cannot_be_performed_during_combat(iris, iris_page):
    quoted(iris_page, "forming strategy before combat begins.")
    quoted(iris_page, "but this cannot be performed during combat.")
    expertise = iris.get("expertise")
    assert expertise.combat_use("form-strategy", CombatSituation("before-combat")).allowed
    for phase in ("combat-start", "in-combat"):
        assert not expertise.combat_use("form-strategy", CombatSituation(phase)).allowed


def test_expertise_can_detect_enemies_attempting_stealth_during_combat(iris, iris_page):
    quoted(iris_page, "Can be used to detect enemies, particularly those attempting Stealth")
    expertise = iris.get("expertise")  # ruling expertise-in-combat
    assert expertise.combat_use("detect-enemies", CombatSituation("in-combat")).allowed


def test_endurance_resists_the_conditions_it_names(iris, iris_page):
    sentence = quoted(
        iris_page,
        "It can also be used to resist Physical or Mental Conditions, including Disarm, "
        "Knockdown, Panic, Stun, Black Out, Death Coma and Corruption attacks.",
    )
    endurance = iris.get("endurance")
    named = ["Disarm", "Knockdown", "Panic", "Stun", "Black Out", "Death Coma"]
    assert all(name in sentence and endurance.resists(name) for name in named)
    assert endurance.resists("corruption attacks")
    assert not endurance.resists("Bleeding")  # ruling endurance-resists-named-conditions
    assert not iris.get("stealth").resists("Panic")


def test_each_combat_use_is_read_from_its_skills_note(iris):
    for skill_id in ("stealth", "expertise", "endurance"):
        skill = iris.get(skill_id)
        assert skill.combat_uses
        assert all(use.text in skill.combat_note for use in skill.combat_uses)


def test_an_unknown_combat_use_is_refused_naming_the_skills_uses(iris):
    with pytest.raises(KeyError, match="flank-or-escape"):
        iris.get("stealth").combat_use("initiative", CombatSituation("in-combat"))


# --- unlocking a skill ---------------------------------------------------------------------------


def test_an_unlocked_skill_starts_at_rank_one(iris, iris_page):
    quoted(iris_page, "Unlock new Skill\t3 CP")
    quoted(iris_page, "+1 Skill rank\t1 CP")
    spending = iris.one(CpSpending)
    assert spending.skill_cost(0, 1) == CpCost(3, 0)  # ruling unlocked-skill-starts-at-rank-one
    assert spending.skill_cost(0, 3) == CpCost(5, 0)
    assert spending.skill_cost(2, 4) == CpCost(2, 0)
    assert spending.skill_cost(0, 1, unlocked_rank=0) == CpCost(4, 0)  # the alternative


def test_a_skill_is_not_lowered_by_spending(iris):
    with pytest.raises(ValueError):
        iris.one(CpSpending).skill_cost(3, 2)


def test_the_spending_table_is_the_full_list(iris, iris_page):
    quoted(iris_page, "Below is a a full list of spending options")
    with pytest.raises(ValueError, match="nothing to buy"):
        iris.one(CpSpending).cost({"new-weapon": 1})
