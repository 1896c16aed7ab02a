"""IRIS resolution rules (seed 003), one test per rule, named as an example of it.

Figures the wiki page prints (the truck-repair example, the Salvaged Pistol table, the
corruption and CP figures) are read out of tests/fixtures/seeds/iris-wiki.txt.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from rulepress.games.iris import rules as iris_rules
from rulepress.games.iris.models.character_points import (
    CpAward,
    CpCost,
    CpEarned,
    CpEarning,
    CpSpending,
)
from rulepress.games.iris.models.corruption import (
    CharacterState,
    CorruptionRules,
    CorruptionTriggers,
    ObedienceConsequences,
)
from rulepress.games.iris.models.weapon import WeaponProfile
from rulepress.rules.examples import replay


@pytest.fixture(scope="module")
def corruption(iris) -> CorruptionRules:
    return iris.one(CorruptionRules)


@pytest.fixture(scope="module")
def triggers(iris) -> CorruptionTriggers:
    return iris.one(CorruptionTriggers)


@pytest.fixture(scope="module")
def consequences(iris) -> ObedienceConsequences:
    return iris.one(ObedienceConsequences)


@pytest.fixture(scope="module")
def spending(iris) -> CpSpending:
    return iris.one(CpSpending)


@pytest.fixture(scope="module")
def earning(iris) -> CpEarning:
    return iris.one(CpEarning)


@pytest.fixture(scope="module")
def pistol(iris) -> WeaponProfile:
    return iris.get("salvaged-pistol")


# --- the skill test ---------------------------------------------------------------------------


def test_steve_repairs_his_truck_for_nine_ap(skill_test, iris_page):
    faces = [
        int(f) for f in re.search(r"gets the results: ([\d, ]+)\.", iris_page).group(1).split(",")
    ]
    dice_ap = int(re.search(r"for a total of \+(\d+)AP", iris_page).group(1))
    acuity = int(re.search(r"Acuity Trait is higher at rank (\d+)", iris_page).group(1))
    total = int(re.search(r"final total of (\d+)AP", iris_page).group(1))
    resolve_rank = acuity - 2  # the page only says Acuity is the higher of the two
    result = skill_test.resolve(faces, [acuity, resolve_rank])
    assert (result.dice_ap, result.trait_bonus, result.total) == (dice_ap, acuity, total)


def test_the_truck_repair_example_replays_through_the_rule(skill_test, iris):
    example = next(e for e in skill_test.examples if e.id == "truck-repair")
    assert replay(skill_test, example, iris) == example.expect


def test_steve_rolls_one_die_per_rank_of_mech_lore(skill_test, iris_page):
    rank, rolled = map(
        int, re.search(r"rank in Mech Lore is (\d+), so he rolls (\d+) dice", iris_page).groups()
    )
    assert skill_test.dice_for(rank) == rolled


@pytest.mark.parametrize("face", [1, 2, 3])
def test_a_one_to_three_earns_nothing(skill_test, face):
    assert skill_test.face_ap(face) == 0


@pytest.mark.parametrize("face", [4, 5])
def test_a_four_or_five_earns_one_ap(skill_test, face):
    assert skill_test.face_ap(face) == 1


def test_a_six_earns_two_ap(skill_test):
    assert skill_test.face_ap(6) == 2


@pytest.mark.parametrize("face", [0, 7, 20])
def test_a_d6_cannot_show_a_zero_or_a_seven(skill_test, face):
    with pytest.raises(ValueError):
        skill_test.face_ap(face)


def test_a_negative_rank_rolls_no_dice_but_is_refused(skill_test):
    with pytest.raises(ValueError):
        skill_test.dice_for(-1)


def test_the_higher_of_the_two_traits_is_added(skill_test):
    assert skill_test.resolve([6], [2, 4]).trait_bonus == 4
    assert skill_test.resolve([6], [4, 2]).total == 6


def test_no_trait_ranks_add_nothing(skill_test):
    assert skill_test.resolve([4, 6]).trait_bonus == 0
    assert skill_test.resolve([4, 6]).total == 3


def test_rank_zero_scores_only_the_trait_bonus(skill_test):
    assert skill_test.distribution(0, trait_bonus=3) == {3: Fraction(1)}
    assert skill_test.chance(0, 3, trait_bonus=3) == 1
    assert skill_test.chance(0, 4, trait_bonus=3) == 0


def test_one_die_earns_nothing_half_the_time_one_ap_a_third_two_ap_a_sixth(skill_test):
    assert skill_test.distribution(1) == {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}


def test_two_dice_reach_four_ap_only_on_double_six(skill_test):
    assert skill_test.chance(2, 4) == Fraction(1, 36)
    assert skill_test.chance(2, 5) == 0


def test_a_trait_bonus_shifts_the_whole_distribution(skill_test):
    plain = skill_test.distribution(3)
    assert skill_test.distribution(3, trait_bonus=5) == {ap + 5: p for ap, p in plain.items()}


def test_a_rolled_test_rolls_rank_dice_and_resolves_them(skill_test):
    result = skill_test.roll(4, [1, 3], random.Random(2024))
    faces = result.faces
    assert len(faces) == 4
    assert all(1 <= f <= 6 for f in faces)
    assert result == skill_test.resolve(faces, [1, 3])


# --- weapon tables: which row a score uses ----------------------------------------------------


def printed_rows(iris_page: str, name: str) -> dict[int, tuple[int, int, int | str, int]]:
    after = iris_page.split(f"\n{name}\n", 1)[1]
    block = after.split("AP\tDamage\tDefense\tMove\tRange\n", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in block.splitlines():
        ap, damage, defense, move, rng = line.split("\t")
        rows[int(ap)] = (int(damage), int(defense), move if move == "Base" else int(move), int(rng))
    return rows


def as_printed(row) -> tuple:
    return (row.damage, row.defense, row.move, row.range)


def test_the_salvaged_pistol_rows_are_the_printed_rows(pistol, iris_page):
    rows = printed_rows(iris_page, "Salvaged Pistol")
    assert sorted(rows) == list(range(1, 31))
    for ap, printed in rows.items():
        assert as_printed(pistol.row_at(ap)) == printed


def test_one_ap_uses_the_first_row(pistol, iris_page):
    assert as_printed(pistol.row_for(1)) == printed_rows(iris_page, "Salvaged Pistol")[1]


@pytest.mark.parametrize("ap", [0, -1, -30])
def test_below_one_ap_the_weapon_does_nothing(pistol, ap):
    assert pistol.row_for(ap) is None


@pytest.mark.parametrize("ap", [31, 45, 200])
def test_above_thirty_ap_the_thirtieth_row_applies(pistol, iris_page, ap):
    assert as_printed(pistol.row_for(ap)) == printed_rows(iris_page, "Salvaged Pistol")[30]


def test_within_the_table_a_score_uses_its_own_row(pistol):
    for ap in range(1, 31):
        assert pistol.row_for(ap) is pistol.row_at(ap)


def test_row_at_has_no_row_beyond_the_table(pistol):
    assert pistol.row_at(31) is None
    assert pistol.row_at(0) is None


def test_a_draft_profile_without_a_table_has_no_row(iris):
    draft = next(w for w in iris.all(WeaponProfile, drafts=True) if not w.table)
    assert draft.row_for(10) is None
    assert draft.row_at(10) is None


def test_a_base_move_is_no_change(pistol):
    assert pistol.row_at(1).move_value == -5
    assert pistol.row_at(6).move == "Base"
    assert pistol.row_at(6).move_value == 0


def test_every_published_weapon_scores_its_last_row_above_thirty(iris):
    weapons = [w for w in iris.all(WeaponProfile) if w.table]
    assert weapons
    for weapon in weapons:
        assert weapon.row_for(31) == weapon.row_at(30)
        assert weapon.row_for(0) is None


# --- corruption -------------------------------------------------------------------------------


def printed_per_aug_and_rank(iris_page: str) -> tuple[int, int]:
    per_aug = int(re.search(r"Each Aug increases Corruption by \+(\d+)", iris_page).group(1))
    per_rank = int(
        re.search(r"Each Trait rank increases Corruption by \+(\d+)", iris_page).group(1)
    )
    return per_aug, per_rank


def test_three_augs_and_two_trait_ranks_are_eight_corruption(corruption, iris_page):
    per_aug, per_rank = printed_per_aug_and_rank(iris_page)
    assert (per_aug, per_rank) == (2, 1)
    assert corruption.level(3, 2) == 3 * per_aug + 2 * per_rank == 8


def test_director_given_ranks_are_not_counted_so_a_new_character_has_none(corruption):
    assert corruption.level(0, 0) == 0


def test_the_cp_tables_figures_can_be_passed_to_the_level(corruption, spending, iris_page):
    row = {r.buys: r for r in spending.rows}
    aug_corr = int(re.search(r"Unlock new Aug\t\d+ CP\t\+(\d+) Corruption", iris_page).group(1))
    rank_corr = int(re.search(r"\+1 Trait rank\t\d+ CP\t\+(\d+) Corruption", iris_page).group(1))
    assert (row["new-aug"].corruption, row["trait-rank"].corruption) == (aug_corr, rank_corr)
    assert corruption.level(3, 2, per_aug=aug_corr, per_trait_rank=rank_corr) == 13


@pytest.mark.parametrize(("augs", "ranks"), [(-1, 0), (0, -1)])
def test_negative_counts_are_refused(corruption, augs, ranks):
    with pytest.raises(ValueError):
        corruption.level(augs, ranks)


def test_the_willpower_target_is_the_corruption_level(corruption):
    assert corruption.target(12) == 12


@pytest.mark.parametrize(
    "circumstance",
    ["exhausted", "corruption-above-max-stamina", "entering-death-coma", "iris-extraction"],
)
def test_each_circumstance_raises_the_target_to_corruption_plus_five(
    corruption, iris_page, circumstance
):
    plus = set(
        map(int, re.findall(r"increase the target number to \(Corruption\)\+(\d+)", iris_page))
    )
    assert plus == {5}
    assert corruption.target(12, {circumstance}) == 17


def test_exhausted_while_entering_death_coma_is_still_corruption_plus_five(corruption):
    assert corruption.target(12, {"exhausted", "entering-death-coma"}) == 17


def test_every_raise_at_once_does_not_stack(corruption):
    every = {r.id for r in corruption.target_raises}
    assert len(every) == 4
    assert corruption.target(12, every) == 17


def test_an_unknown_circumstance_is_refused(corruption):
    with pytest.raises(ValueError, match="tired"):
        corruption.target(12, {"tired"})


def test_reaching_the_target_resists_and_drains_two_stamina(corruption):
    outcome = corruption.resist(12, 12)
    assert outcome.stamina == -2
    assert outcome.dispels_for_session
    assert not outcome.must_obey


def test_one_ap_short_fails_adds_one_corruption_and_must_obey(corruption):
    outcome = corruption.resist(11, 12)
    assert outcome.corruption == 1
    assert outcome.must_obey
    assert outcome.stamina == 0


def test_obeying_gains_five_stamina_and_one_corruption(corruption, iris_page):
    stamina, corr = map(
        int,
        re.search(
            r"If obeying, the Character immediately gains (\d+) Stamina, but Corruption increases "
            r"by \+(\d+)",
            iris_page,
        ).groups(),
    )
    assert (corruption.obey.stamina, corruption.obey.corruption) == (stamina, corr)


def test_a_torture_level_event_triggers_the_presence_at_corruption_ten(triggers):
    assert triggers.triggers(10, 10)


def test_an_event_above_the_corruption_level_does_not_trigger(triggers):
    assert not triggers.triggers(12, 11)


def test_at_corruption_thirteen_the_ten_and_twelve_rows_trigger(triggers):
    assert [row.level for row in triggers.rows_triggering(13)] == [10, 12]


def test_below_ten_no_event_triggers(triggers):
    assert triggers.rows_triggering(9) == []


def test_at_corruption_twenty_even_rudeness_triggers(triggers):
    rows = triggers.rows_triggering(20)
    assert len(rows) == len(triggers.rows) == 6
    assert "Rudeness" in rows[-1].events


def test_corruption_ten_obeys_by_the_ten_row(consequences):
    row = consequences.row_for(10)
    assert row.level == 10
    assert "5AP Willpower test" in row.options[0]


def test_corruption_thirteen_obeys_by_the_twelve_row(consequences):
    row = consequences.row_for(13)
    assert row.level == 12
    assert "10AP Willpower test" in row.options[0]


def test_below_ten_there_is_no_consequence_row(consequences):
    assert consequences.row_for(9) is None
    assert consequences.row_for(0) is None


def test_corruption_twenty_five_obeys_by_the_twenty_row(consequences):
    row = consequences.row_for(25)
    assert row.level == 20
    assert row.options[0] == "Collapse in terror"


# --- the Presence: triggers, the once-a-day test, the Willpower target ----------------------


def steady(**changes) -> CharacterState:
    """A Character at Corruption 12 with Stamina 20 of 20 and Health 10: nothing fires."""
    fields = {"corruption": 12, "stamina": 20, "maximum_stamina": 20, "health": 10}
    return CharacterState(**{**fields, **changes})


def fired(presence) -> list[str]:
    return [trigger.id for trigger in presence.triggers]


def test_a_steady_character_witnessing_nothing_feels_no_presence(corruption):
    presence = corruption.presence(steady())
    assert not presence.manifests
    assert (presence.once_a_day, presence.target, presence.raises) == (False, 12, ())
    assert presence.tested is None


def test_experiencing_an_event_at_the_corruption_level_triggers_it(corruption, iris_page):
    # "Experiencing events equal-to or less-than the Character's Corruption level"
    assert "Experiencing events equal-to or less-than the Character's Corruption level" in (
        iris_page
    )
    assert fired(corruption.presence(steady(), event_level=12)) == ["witnessed-event"]
    assert fired(corruption.presence(steady(), event_level=10)) == ["witnessed-event"]


def test_an_event_above_the_corruption_level_triggers_nothing(corruption):
    assert not corruption.presence(steady(), event_level=14).manifests


def test_stamina_dropping_below_corruption_triggers_it(corruption, iris_page):
    assert "- Stamina dropping below Corruption level" in iris_page
    assert fired(corruption.presence(steady(stamina=11))) == ["stamina-below-corruption"]
    assert not corruption.presence(steady(stamina=12)).manifests


def test_stamina_dropping_below_zero_triggers_it_and_raises_the_target(corruption, iris_page):
    # "Stamina dropping below 0"; "If making the test while Exhausted (your current
    # Stamina is 0 or less), increase the target number to (Corruption)+5."
    assert "- Stamina dropping below 0" in iris_page
    presence = corruption.presence(steady(stamina=-1))
    assert fired(presence) == ["stamina-below-corruption", "stamina-below-zero"]
    assert [r.id for r in presence.raises] == ["exhausted"]
    assert presence.target == 17


def test_at_exactly_zero_stamina_the_character_is_exhausted_but_not_below_zero(corruption):
    # the source's "below 0" trigger and "0 or less" raise, both kept as printed
    presence = corruption.presence(steady(stamina=0))
    assert fired(presence) == ["stamina-below-corruption"]
    assert [r.id for r in presence.raises] == ["exhausted"]


def test_death_coma_triggers_it_and_entering_it_raises_the_target(corruption, iris_page):
    # "Death Coma (Health dropping below 0)"; "If making the test when entering Death Coma
    # (0 or less HP), increase the target number to (Corruption)+5."
    assert "- Death Coma (Health dropping below 0)" in iris_page
    presence = corruption.presence(steady(health=-1))
    assert fired(presence) == ["death-coma"]
    assert [r.id for r in presence.raises] == ["entering-death-coma"]
    assert presence.target == 17


def test_blacking_out_for_any_reason_triggers_it_without_a_raise(corruption, iris_page):
    assert "- Blacking Out (for any reason)" in iris_page
    presence = corruption.presence(steady(blacked_out=True))
    assert fired(presence) == ["black-out"]
    assert presence.target == 12


def test_having_iris_extracted_triggers_it_at_corruption_plus_five(corruption, iris_page):
    # "Attempting to extract IRIS or have it extracted by someone else"; "If making the test
    # to have IRIS extracted for any reason, increase the target number to (Corruption)+5."
    assert "to have IRIS extracted for any reason, increase the target number" in iris_page
    presence = corruption.presence(steady(extracting_iris=True))
    assert fired(presence) == ["iris-extraction"]
    assert presence.target == 17


def test_corruption_above_maximum_stamina_is_tested_once_a_day(corruption, iris_page):
    # "Having a Corruption level greater than your MAXIMUM Stamina. For as long as this is
    # the case, your Character takes the test once per day at midnight."
    assert "your Character takes the test once per day at midnight" in iris_page
    presence = corruption.presence(steady(corruption=21, stamina=25, maximum_stamina=20))
    assert fired(presence) == ["corruption-above-max-stamina"]
    assert presence.once_a_day
    assert presence.target == 26


def test_corruption_equal_to_maximum_stamina_is_not_greater(corruption):
    presence = corruption.presence(steady(corruption=20, maximum_stamina=20))
    assert not presence.once_a_day
    assert presence.target == 20


TIMING = (
    "Characters must test immediately when out of combat. During combat the test should be "
    "delayed until the end of the current turn."
)


def test_out_of_combat_the_test_is_taken_at_once_in_combat_at_the_end_of_the_turn(
    corruption, iris_page
):
    assert TIMING in iris_page
    blacked_out = steady(blacked_out=True)
    assert corruption.presence(blacked_out).tested == "now"
    assert corruption.presence(blacked_out, in_combat=True).tested == "end-of-turn"
    assert corruption.presence(steady(), in_combat=True).tested is None


def test_corruption_above_maximum_stamina_alone_is_tested_at_midnight(corruption):
    # ruling above-max-stamina-at-midnight; with another trigger, the test is at once
    above = steady(corruption=21, stamina=25, maximum_stamina=20)
    assert corruption.presence(above, in_combat=True).tested == "midnight"
    assert corruption.presence(above, event_level=10).tested == "now"


def test_the_raises_do_not_stack_when_all_four_apply(corruption):
    # "increase the target number to (Corruption)+5": to, not by (target-raises-do-not-stack)
    state = steady(corruption=21, stamina=0, maximum_stamina=20, health=0, extracting_iris=True)
    presence = corruption.presence(state, event_level=10)
    assert len(presence.raises) == 4
    assert presence.target == 26
    assert presence.once_a_day


def test_a_negative_corruption_or_event_level_is_refused(corruption):
    with pytest.raises(ValueError, match="Corruption cannot be negative"):
        corruption.presence(steady(corruption=-1))
    with pytest.raises(ValueError, match="event's level"):
        corruption.presence(steady(), event_level=-2)


def test_the_willpower_test_rolls_endurance_the_skill_that_resists_corruption(iris, iris_page):
    # "It can also be used to resist Physical or Mental Conditions, including ... Corruption
    # attacks." (ruling willpower-test-is-a-skill-test)
    assert "Black Out, Death Coma and Corruption attacks" in iris_page
    skill = iris_rules.willpower_skill(iris)
    assert skill.id == "endurance"
    assert "Corruption attacks" in skill.combat_note
    assert skill.traits == ["vigor", "resolve"]


def test_a_willpower_test_reaching_the_corruption_level_resists(iris, corruption, iris_page):
    # "When making the Willpower test to resist, the target AP is equal to your total
    # Corruption": Endurance 6 rolling 1-6 earns 4 AP, plus Resolve 5, is 9 AP
    assert "the target AP is equal to your total Corruption" in iris_page
    ranks = {"vigor": 3, "resolve": 5}
    faces = [1, 2, 3, 4, 5, 6]
    passed = iris_rules.resolve_willpower(iris, faces, ranks, corruption.target(9))
    assert (passed.result.total, passed.target, passed.passed) == (9, 9, True)
    failed = iris_rules.resolve_willpower(iris, faces, ranks, corruption.target(10))
    assert (failed.result.total, failed.passed) == (9, False)


def test_the_willpower_chance_is_the_endurance_tests_chance(iris, skill_test):
    ranks = {"vigor": 4, "resolve": 2}
    for target in (4, 8, 12, 17):
        expected = skill_test.chance(5, target, trait_bonus=4)
        assert iris_rules.willpower_chance(iris, 5, ranks, target) == expected
    assert iris_rules.willpower_chance(iris, 0, ranks, 4) == 1
    assert iris_rules.willpower_chance(iris, 0, ranks, 5) == 0


def test_a_willpower_test_without_the_skills_trait_ranks_is_refused(iris):
    with pytest.raises(ValueError, match="resolve"):
        iris_rules.willpower_chance(iris, 3, {"vigor": 2}, 10)


# --- obedience consequences -------------------------------------------------------------------


def test_each_row_carries_the_willpower_ap_its_options_print(consequences):
    # "requires a 5AP Willpower test", "requires a 10AP Willpower test"
    for row in consequences.rows:
        printed = {int(ap) for o in row.options for ap in re.findall(r"(\d+)AP Willpower", o)}
        if printed:
            assert printed == {row.willpower_ap}
            assert row.no_willpower_ap is None
        else:
            assert row.willpower_ap is None
            assert row.no_willpower_ap


def test_corruption_ten_offers_three_options_each_requiring_five_ap(consequences, iris_page):
    assert "Resisting the urge to join in requires a 5AP Willpower test" in iris_page
    found = consequences.consequences(10)
    assert found.level == 10
    assert [option.willpower_ap for option in found.options] == [5, 5, 5]
    assert found.options[2].text == "Resisting the urge to join in requires a 5AP Willpower test"


def test_corruption_thirteen_requires_ten_ap(consequences):
    found = consequences.consequences(13)
    assert found.level == 12
    assert {option.willpower_ap for option in found.options} == {10}


def test_corruption_sixteen_states_no_ap_and_says_why(consequences, iris_page):
    assert "Flee the scene, putting escape before seeking help" in iris_page
    found = consequences.consequences(16)
    assert found.options[0].text == "Flee the scene, putting escape before seeking help"
    assert all(option.willpower_ap is None for option in found.options)
    assert all("no Willpower test" in option.no_ap_reason for option in found.options)


def test_below_ten_obeying_has_no_listed_consequence(consequences):
    found = consequences.consequences(9)
    assert (found.level, found.options) == (None, ())


def test_a_negative_corruption_has_no_consequences(consequences):
    with pytest.raises(ValueError, match="cannot be negative"):
        consequences.consequences(-1)


# --- character points -------------------------------------------------------------------------


def printed_spending(iris_page: str) -> dict[str, CpCost]:
    table = iris_page.split("Spending CP\n")[1].split("\n\n")[0]
    found = {}
    for benefit, cp, extra in re.findall(r"^(.+?)\t(\d+) CP\t(.+)$", table, flags=re.M):
        corr = re.match(r"\+(\d+) Corruption", extra)
        found[benefit] = CpCost(int(cp), int(corr.group(1)) if corr else 0)
    return found


@pytest.mark.parametrize(
    ("benefit", "buys"),
    [
        ("+1 Skill rank", "skill-rank"),
        ("+1 Trait rank", "trait-rank"),
        ("Unlock new Skill", "new-skill"),
        ("Unlock new Aug", "new-aug"),
    ],
)
def test_each_benefit_costs_its_printed_cp_and_corruption(spending, iris_page, benefit, buys):
    assert spending.cost({buys: 1}) == printed_spending(iris_page)[benefit]


def test_a_trait_rank_costs_two_cp_and_two_corruption(spending):
    assert spending.cost({"trait-rank": 1}) == CpCost(2, 2)


def test_two_skill_ranks_and_a_new_aug_cost_six_cp_and_three_corruption(spending):
    assert spending.cost({"skill-rank": 2, "new-aug": 1}) == CpCost(6, 3)


def test_buying_nothing_costs_nothing(spending):
    assert spending.cost({}) == CpCost(0, 0)
    assert spending.cost({"new-skill": 0}) == CpCost(0, 0)


def test_buying_something_the_table_lacks_is_refused(spending):
    with pytest.raises(ValueError, match="new-specialty"):
        spending.cost({"new-specialty": 1})


def test_buying_a_negative_number_of_ranks_is_refused(spending):
    with pytest.raises(ValueError):
        spending.cost({"skill-rank": -2})


def printed_earning(iris_page: str) -> dict[str, tuple[int, int]]:
    table = iris_page.split("Earning CP\n")[1].split("\n\n")[0]
    found = {}
    for low, high, source in re.findall(r"^(\d+)(?:-(\d+))?CP\t(.+)$", table, flags=re.M):
        found[source] = (int(low), int(high or low))
    return found


def test_each_source_earns_its_printed_cp(earning, iris_page):
    """ "1CP Participation", "1CP Side Objective", "2CP Main Objective", "1-2CP Director's
    Blessing" (Earning CP): each source alone earns its printed figure, the blessing either
    end of its range."""
    printed = printed_earning(iris_page)
    assert set(printed) == {
        "Participation",
        "Side Objective",
        "Main Objective",
        "Director's Blessing",
    }
    for source, (low, high) in printed.items():
        if low == high:
            assert earning.earned([source]).total == low
        else:
            assert earning.earned([source], {source: low}).total == low
            assert earning.earned([source], {source: high}).total == high


def test_a_game_with_every_source_and_a_two_cp_blessing_earns_six(earning):
    """ "Character Points (or CP) are awarded to your Character as you play games": one
    game's rewards add up, 1 + 1 + 2 + 2."""
    result = earning.earned(
        ["Participation", "Side Objective", "Main Objective", "Director's Blessing"],
        {"Director's Blessing": 2},
    )
    assert result.total == 6
    assert result.awards[-1] == CpAward("Director's Blessing", 2)
    assert [a.source for a in result.awards][:3] == [
        "Participation",
        "Side Objective",
        "Main Objective",
    ]


def test_a_game_of_mere_participation_earns_one_cp(earning):
    """ "1CP Participation": names match in any case."""
    assert earning.earned(["participation"]) == CpEarned(1, (CpAward("Participation", 1),))
    assert earning.earned([]).total == 0


def test_a_source_the_table_lacks_is_refused_naming_the_known_ones(earning):
    """ "Below is a a full list of spending options, along with general guidelines for
    awarding CP": a source outside the guidelines is refused."""
    with pytest.raises(ValueError, match=r"'Heroic Death'.*Participation, Side Objective"):
        earning.earned(["Participation", "Heroic Death"])
    with pytest.raises(ValueError, match="no CP source"):
        earning.earned(["Participation"], {"Bonus": 1})


def test_the_directors_blessing_must_be_chosen_within_one_to_two(earning):
    """ "1-2CP Director's Blessing": the Director chooses 1 or 2, nothing else."""
    with pytest.raises(ValueError, match="choose the amount"):
        earning.earned(["Director's Blessing"])
    for wrong in (0, 3):
        with pytest.raises(ValueError, match="1-2 CP, not"):
            earning.earned(["Director's Blessing"], {"Director's Blessing": wrong})


def test_a_fixed_reward_takes_no_other_amount_and_counts_once(earning):
    """ "2CP Main Objective": a fixed reward, once a game."""
    assert earning.earned(["Main Objective"], {"Main Objective": 2}).total == 2
    with pytest.raises(ValueError, match="awards 2 CP, not 3"):
        earning.earned(["Main Objective"], {"Main Objective": 3})
    with pytest.raises(ValueError, match="counts once"):
        earning.earned(["Participation", "participation"])
    with pytest.raises(ValueError, match="not among the sources"):
        earning.earned(["Participation"], {"Director's Blessing": 1})
