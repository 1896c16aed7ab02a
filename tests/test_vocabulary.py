"""One vocabulary across the four games' rules API (issue 18, part 3): the same word means
the same thing in every game, results are typed objects exported from the public
modules, and documents are found by what a user knows."""

from __future__ import annotations

import dataclasses
import inspect
import random
import typing
from fractions import Fraction

import pytest

import rulepress.games.cool.models
import rulepress.games.cool.rules
import rulepress.games.cuf.lasting
import rulepress.games.cuf.models.cuf
import rulepress.games.cuf.rules
import rulepress.games.cuf.sides
import rulepress.games.cuf.threat_state
import rulepress.games.iris.models.character_points
import rulepress.games.iris.models.corruption
import rulepress.games.iris.models.skill_test
import rulepress.games.t2k4e.models.step_dice
import rulepress.games.t2k4e.odds
from rulepress.games.cool.models import CriticalFailure, ShockRoll
from rulepress.games.cuf import rules as cuf_rules
from rulepress.games.cuf.models.cuf import CheckRoll
from rulepress.games.iris.models.character_points import CpSpending
from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.games.iris.models.weapon import WeaponProfile, WeaponSection
from rulepress.games.t2k4e.models.step_dice import OpposedRoll
from rulepress.models import Document

RULE_MODULES = [
    rulepress.games.cool.models,
    rulepress.games.cuf.models.cuf,
    rulepress.games.iris.models.character_points,
    rulepress.games.iris.models.corruption,
    rulepress.games.iris.models.skill_test,
    rulepress.games.t2k4e.models.step_dice,
    rulepress.games.cuf.rules,
    rulepress.games.cuf.lasting,
    rulepress.games.cuf.sides,
    rulepress.games.cuf.threat_state,
    rulepress.games.cool.rules,
    rulepress.games.t2k4e.odds,
]

PUBLIC_PACKAGES = [
    rulepress.games.cool.models,
    rulepress.games.cool.rules,
    rulepress.games.cuf.models,
    rulepress.games.cuf.rules,
    rulepress.games.iris.models,
    rulepress.games.t2k4e.models,
    rulepress.games.t2k4e.odds,
]
"""Where each game exports the typed results its rules return."""


def _methods(name: str):
    """Every method or function called `name` in the rule modules, with where it is."""
    for module in RULE_MODULES:
        for owner_name, owner in vars(module).items():
            if inspect.isclass(owner) and owner.__module__ == module.__name__:
                if name in vars(owner):
                    yield f"{owner_name}.{name}", getattr(owner, name)
            elif owner_name == name and inspect.isfunction(owner):
                yield f"{module.__name__}.{name}", owner


def _returns(function) -> object:
    return typing.get_type_hints(function, vars(inspect.getmodule(function))).get("return")


# --- the five words ----------------------------------------------------------------------


def test_every_chance_is_an_exact_fraction_of_success():
    """`chance`: the probability that one roll or test succeeds, a Fraction."""
    found = dict(_methods("chance"))
    assert set(found) == {"StepDice.chance", "Check.chance", "SkillTest.chance"}
    for name, method in found.items():
        assert _returns(method) is Fraction, name


def test_every_distribution_maps_each_result_to_its_exact_chance():
    """`distribution`: the full distribution of a roll's result, one shape everywhere: the
    roll's inputs positional, options keyword-only, a {result: Fraction} back."""
    found = dict(_methods("distribution"))
    assert set(found) == {
        "Duration.distribution",
        "CufRating.distribution",
        "StepDice.distribution",
        "SkillTest.distribution",
    }
    for name, method in found.items():
        assert _returns(method) == dict[int, Fraction], name
        for parameter in list(inspect.signature(method).parameters.values())[1:]:
            if parameter.default is not inspect.Parameter.empty:
                assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, (name, parameter)


def test_every_resolve_takes_the_faces_first_and_returns_a_typed_result():
    """`resolve`: the rule applied to dice faces given, a result with named fields."""
    found = dict(_methods("resolve"))
    assert set(found) == {
        "SkillTest.resolve",
        "Check.resolve",
        "ShockRoll.resolve",
        "FearRoll.resolve",
    }
    for name, method in found.items():
        first = list(inspect.signature(method).parameters)[1]
        assert first in {"faces", "roll"}, name
        assert dataclasses.is_dataclass(_returns(method)), name


def test_every_outcome_is_a_named_result_category():
    """`outcome`: the named category of a resolved roll, a field of its result."""
    assert not dict(_methods("outcome"))  # no method is called outcome any more
    for result in (
        rulepress.games.cool.models.ShockResult,
        rulepress.games.cool.models.FearResult,
        rulepress.games.t2k4e.models.step_dice.OpposedResult,
    ):
        hint = typing.get_type_hints(result, vars(inspect.getmodule(result)))["outcome"]
        assert typing.get_origin(hint) is typing.Literal, result


def test_every_target_is_the_number_one_roll_must_reach_or_stay_under(iris, cool, cuf):
    """`target`: the number a single roll must reach (an IRIS AP total) or stay at or
    under (a d20, a percentile roll) to succeed."""
    assert set(dict(_methods("target"))) == {
        "ShockRoll.target",
        "FearRoll.target",
        "Check.target",
        "CorruptionRules.target",
    }
    critical = cool.require(CriticalFailure)
    shock = cool.require(ShockRoll)
    target = shock.target(80, 10)
    assert shock.resolve(target, target, critical).outcome == "steady"
    assert shock.resolve(target + 1, target, critical).outcome == "shock"
    check = cuf.find("Fear").check
    ratings = {"cuf": 4, "willpower": 6}
    assert check.resolve([check.target(ratings)], ratings).passed
    assert not check.resolve([check.target(ratings) + 1], ratings).passed


# --- typed results, exported -------------------------------------------------------------


def test_results_are_frozen_dataclasses_never_tuples(t2k, iris):
    spent = iris.require(CpSpending).cost({"skill-rank": 2, "new-aug": 1})
    assert (spent.cp, spent.corruption) == (6, 3)
    opposed = t2k.require(OpposedRoll).compare(1, 3)
    assert (opposed.outcome, opposed.successes) == ("opposing-wins", 2)
    for result in (spent, opposed):
        assert dataclasses.is_dataclass(result) and not isinstance(result, tuple)
        with pytest.raises(dataclasses.FrozenInstanceError):
            result.cp = 0  # type: ignore[misc]


def test_every_result_type_a_rule_returns_is_exported():
    public = set()
    for package in PUBLIC_PACKAGES:
        public |= {getattr(package, n) for n in package.__all__}
    for module in RULE_MODULES:
        for name, owner in vars(module).items():
            if not (inspect.isclass(owner) and owner.__module__ == module.__name__):
                continue
            for method_name, method in vars(owner).items():
                if method_name.startswith("_") or not inspect.isfunction(method):
                    continue
                returned = _returns(method)
                if dataclasses.is_dataclass(returned):
                    assert returned in public, f"{name}.{method_name} -> {returned.__name__}"
    assert {CheckRoll, cuf_rules.ThreatState, cuf_rules.RoundEnd} <= public


def test_a_rolled_skill_test_keeps_its_faces(iris):
    result = iris.require(SkillTest).roll(3, [2], random.Random(1))
    assert len(result.faces) == 3
    assert result == iris.require(SkillTest).resolve(result.faces, [2])


# --- look-ups by what a user knows -------------------------------------------------------


def test_a_document_is_found_by_its_printed_name_in_any_case(iris):
    pistol = iris.find("Light Combat Pistol")
    assert pistol is iris.get("light-combat-pistol")
    assert iris.find("light COMBAT pistol", WeaponProfile) is pistol


def test_an_unknown_name_is_a_key_error_naming_close_matches(iris):
    with pytest.raises(KeyError, match="Light Combat Pistol"):
        iris.find("Light Combat Pistl")
    with pytest.raises(KeyError, match="no weapon-section named 'Light Combat Pistol'"):
        iris.find("Light Combat Pistol", WeaponSection)


def test_find_skips_drafts_unless_asked(iris):
    draft = iris.get("smgs")  # a placeholder section
    assert draft.is_draft
    with pytest.raises(KeyError):
        iris.find(draft.display_name, WeaponSection)
    assert iris.find(draft.display_name, WeaponSection, drafts=True) is draft


def test_a_skill_picks_its_own_traits_from_a_characters_ranks(iris):
    """ "add the higher of the skill's two traits": the skill names them, the caller gives
    every trait rank the character has."""
    actor = iris.find("Actor", Skill)
    character = {"Acuity": 1, "Agility": 2, "Resolve": 5, "Strength": 4, "Vigor": 3}
    assert actor.traits == ["resolve", "vigor"]
    assert actor.trait_ranks(character) == [5, 3]
    result = iris.require(SkillTest).resolve([6, 1], actor.trait_ranks(character))
    assert (result.dice_ap, result.trait_bonus, result.total) == (2, 5, 7)
    with pytest.raises(KeyError, match="vigor"):
        actor.trait_ranks({"resolve": 5})


# --- one and all agree on drafts ---------------------------------------------------------


@pytest.mark.parametrize("drafts", [False, True])
def test_one_and_all_see_the_same_documents(iris, drafts):
    for kind in (WeaponSection, WeaponProfile, SkillTest, Document):
        every = iris.all(kind, drafts=drafts)
        assert iris.one(kind, drafts=drafts) == (every[0] if every else None)


def test_one_leaves_drafts_out_by_default_as_all_does(iris):
    drafts_first = iris.all(WeaponSection, drafts=True)
    published = iris.all(WeaponSection)
    assert any(s.is_draft for s in drafts_first)
    assert not iris.one(WeaponSection).is_draft
    assert iris.one(WeaponSection) == published[0]


# --- CUF: a state for every total, one argument order -----------------------------------


def test_the_cuf_functions_take_their_arguments_in_one_order():
    """`ruleset`, then the TC total, then the events, and `cuf` by name."""

    def parameters(function):
        return inspect.signature(function).parameters

    assert list(parameters(cuf_rules.state))[:2] == ["ruleset", "tcs"]
    assert list(parameters(cuf_rules.end_of_round))[:3] == ["ruleset", "tcs", "events"]
    assert list(parameters(cuf_rules.total)) == ["ruleset", "events"]
    for function in (
        cuf_rules.state,
        cuf_rules.end_of_round,
        cuf_rules.lasting,
        cuf_rules.initiative,
        cuf_rules.flee_or_surrender,
    ):
        assert list(parameters(function))[:2] == ["ruleset", "tcs"]
        assert parameters(function)["cuf"].kind is inspect.Parameter.KEYWORD_ONLY


def test_every_tc_total_has_a_state(cuf):
    for tcs in range(0, 20):
        reached = cuf_rules.state(cuf, tcs, cuf=4)
        assert reached.id in {"calm", "fear", "fright", "fight-or-flight"}
        assert isinstance(reached.name, str) and reached.name
        assert reached.exceeded == (tcs > 4)
        assert cuf_rules.end_of_round(cuf, tcs, cuf=4).state == reached
