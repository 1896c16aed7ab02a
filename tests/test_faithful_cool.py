"""The Cool ruleset (seed 002) says what the source says.

Every expectation here is read out of the source text (tests/fixtures/seeds/cool.txt),
never typed in: the test finds the figure in the printed rules and checks that the
compendium holds the same figure.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from rulepress.errors import Level
from rulepress.games.cool.models import CriticalFailure, FearRoll, ShockRoll
from rulepress.models import RuleText
from rulepress.validation import validate

COOL_FOLDER = Path(__file__).resolve().parents[1] / "compendium" / "cool"


def normalised(text: str) -> str:
    """Collapse runs of whitespace (line breaks included) to one space."""
    return " ".join(text.split())


def paragraphs(text: str) -> list[str]:
    """A field's paragraphs: text the YAML joins with a blank line may stand apart in
    the source, but each paragraph must be printed there as one run."""
    return [part for part in re.split(r"\n\s*\n", text) if part.strip()]


def printed(source: str, pattern: str) -> re.Match:
    """The one place the source prints `pattern` (a regex over the normalised text)."""
    found = list(re.finditer(pattern, source))
    assert len(found) == 1, f"expected the source to print {pattern!r} once, found {len(found)}"
    return found[0]


@pytest.fixture(scope="module")
def source(seed_text) -> str:
    return normalised(seed_text("cool.txt"))


@pytest.fixture(scope="module")
def shock(cool) -> ShockRoll:
    found = cool.one(ShockRoll)
    assert found is not None
    return found


@pytest.fixture(scope="module")
def fear(cool) -> FearRoll:
    found = cool.one(FearRoll)
    assert found is not None
    return found


def assert_verbatim(text: str, source: str) -> None:
    for paragraph in paragraphs(text):
        assert normalised(paragraph) in source, f"not in the source as printed: {paragraph!r}"


def as_fraction(printed_fraction: str) -> float:
    return float(Fraction(printed_fraction))


# --- the compendium loads -------------------------------------------------------------------


def test_the_cool_folder_validates_without_errors():
    errors = [f for f in validate(COOL_FOLDER).findings if f.level == Level.ERROR]
    assert errors == []


@pytest.mark.parametrize("name", sorted(p.name for p in COOL_FOLDER.glob("*.yaml")))
def test_each_file_starts_with_kind_then_id(name):
    lines = [
        line
        for line in (COOL_FOLDER / name).read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert lines[0].startswith("kind: ")
    assert lines[1].startswith("id: ")


def test_the_ruleset_credits_seed_002(cool):
    assert cool.info.system == "percentile-cool"
    assert [s.document for s in cool.info.sources] == ["seed 002"]


# --- wording is the source's ------------------------------------------------------------------


def test_the_opening_sentence_about_cool_is_verbatim(cool, source):
    rule = cool.get("cool-stat")
    assert isinstance(rule, RuleText)
    assert normalised(rule.text) in source
    assert normalised(rule.text).startswith("Cool is the characters natural ability")


@pytest.mark.parametrize("field", ["text", "on_failure", "recovery", "critical_failure"])
def test_shock_roll_wording_is_verbatim(shock, source, field):
    assert_verbatim(getattr(shock, field), source)


def test_shock_roll_trigger_clauses_are_verbatim(shock, source):
    for trigger in shock.triggers:
        assert_verbatim(trigger.text, source)


def test_shock_roll_text_includes_the_wound_penalty_sentence(shock, source):
    sentence = printed(source, r"Remember any wounds act as a minus penalty[^.]*\.").group(0)
    assert sentence in normalised(shock.text)


@pytest.mark.parametrize(
    "field", ["text", "on_failure", "critical_failure", "recovery", "ends", "acting_order"]
)
def test_fear_roll_wording_is_verbatim(fear, source, field):
    assert_verbatim(getattr(fear, field), source)


def test_fear_roll_triggers_are_the_printed_clauses(fear, source):
    for clause in fear.triggers:
        assert_verbatim(clause, source)
    required = printed(source, r"A fear roll is required (if .*?)\. The player").group(1)
    assert " or ".join(normalised(c) for c in fear.triggers) == required


@pytest.mark.parametrize("kind", [ShockRoll, FearRoll])
def test_every_worked_example_is_printed_in_the_source(cool, source, kind):
    document = cool.one(kind)
    assert document.examples
    for example in document.examples:
        assert_verbatim(example.text, source)


def test_the_fear_ending_advice_after_the_example_is_kept(fear, source):
    advice = printed(source, r"The referee should carry the fear[^.]*\.").group(0)
    assert advice in normalised(fear.ends)


# --- figures are the source's -----------------------------------------------------------------


def test_unconsciousness_from_shock_lasts_the_printed_dice_in_rounds(shock, source):
    match = printed(source, r"loss of consciousness for (\d+d\d+[+-]\d+) (\w+)\.")
    assert (shock.unconscious.dice, shock.unconscious.unit) == match.groups()


def test_a_panicked_character_is_frozen_for_the_printed_dice_in_turns(fear, source):
    match = printed(source, r"cannot act for (\d+d\d+[+-]\d+) (\w+)\.")
    assert (fear.frozen.dice, fear.frozen.unit) == match.groups()


def test_a_single_wound_of_half_the_hit_points_calls_for_a_shock_roll(shock, source):
    match = printed(source, r"equal to or greater than (\d+/\d+) of their total hit-points")
    trigger = next(t for t in shock.triggers if t.when == "single-wound-at-least")
    assert trigger.fractions_of_hp == [as_fraction(match.group(1))]


def test_total_damage_passing_the_half_and_quarter_marks_calls_for_a_shock_roll(shock, source):
    match = printed(source, r"total damage exceeds the (\d+/\d+) and (\d+/\d+) H\.P\. damage marks")
    trigger = next(t for t in shock.triggers if t.when == "total-damage-passes")
    assert sorted(trigger.fractions_of_hp) == sorted(map(as_fraction, match.groups()))


def test_ugg_with_cool_80_taking_10_damage_needs_70_or_less(shock, source):
    cool_, damage = map(
        int,
        printed(source, r"has a cool of (\d+), he takes (\d+) hit-points worth of damage").groups(),
    )
    penalty = int(printed(source, r"roll his cool with a (-\d+) penalty").group(1))
    target = int(printed(source, r"requires (\d+) or less to save against shock").group(1))
    example = shock.examples[0]
    assert example.given == {"cool": cool_, "damage": damage}
    assert example.expect == {"penalty": penalty, "target": target}


def test_the_wound_penalty_is_the_damage_taken_as_the_example_shows(shock):
    example = shock.examples[0]
    assert shock.wound_penalty == "damage-taken"
    assert example.expect["penalty"] == -example.given["damage"]
    assert example.expect["target"] == example.given["cool"] - example.given["damage"]


def test_ugg_rolling_90_against_cool_80_fails_by_10_and_is_frightened(fear, source):
    cool_ = int(printed(source, r"has a cool of (\d+)\. He encounters").group(1))
    roll, margin, result = printed(
        source, r"Ugg rolls a (\d+)\. He fails by (\d+) and he is (\w+)\."
    ).groups()
    penalty = int(printed(source, r"actions are at (-\d+) until he recovers").group(1))
    example = next(e for e in fear.examples if e.given.get("roll") is not None)
    assert example.given == {"cool": cool_, "roll": int(roll)}
    assert example.expect == {"result": result, "margin": int(margin), "penalty": penalty}


def test_the_fear_penalty_is_the_failure_margin_as_the_example_shows(fear):
    example = next(e for e in fear.examples if e.given.get("roll") is not None)
    assert fear.penalty == "failure-margin"
    assert example.expect["margin"] == example.given["roll"] - example.given["cool"]
    assert example.expect["penalty"] == -example.expect["margin"]


def test_the_vampire_example_ends_ugg_s_fear_once_he_is_out_of_danger(fear, source):
    example = next(e for e in fear.examples if "vampire" in e.text)
    assert "no longer in danger" in normalised(example.text)
    assert example.given["in-danger"] is False
    # "he cannot flee" (frozen), "he is no longer scared or frightened" (not afraid)
    assert "he cannot flee" in normalised(example.text)
    assert example.expect == {"fear-ends": True, "state": "not-afraid", "panic": "frozen"}


# --- where the source is silent or self-contradictory, a ruling says so ----------------------


def test_the_source_uses_critical_failures_without_a_range_so_a_ruling_sets_one(cool, source):
    assert len(re.findall(r"critical failure", source, re.IGNORECASE)) >= 2
    assert not re.search(r"critical failure (is|means) a roll", source, re.IGNORECASE)
    critical = cool.one(CriticalFailure)
    assert critical.lowest_roll == 96
    assert [r.id for r in critical.rulings] == ["critical-failure-range"]


def test_the_example_s_quarter_in_a_single_wound_is_ruled_against_the_rule(shock, source):
    printed(source, r"exceeds a quarter of total hit-points in a single wound")
    single = next(t for t in shock.triggers if t.when == "single-wound-at-least")
    assert 0.25 not in single.fractions_of_hp
    assert "example-quarter-single-wound" in {r.id for r in shock.rulings}


def test_scared_is_undefined_in_the_source_so_a_ruling_defines_it(fear, source):
    assert "scared" in source
    assert not re.search(r"scared (means|is when)", source)
    assert "scared-means-panicked" in {r.id for r in fear.rulings}


def test_rounds_for_shock_and_turns_for_panic_are_kept_as_printed_with_a_ruling(shock, fear):
    assert (shock.unconscious.unit, fear.frozen.unit) == ("rounds", "turns")
    assert "turns-and-rounds" in {r.id for r in fear.rulings}


def test_the_order_of_shocked_and_scared_characters_is_ruled(source, fear):
    assert "those in shock act last" in source and "scared act last" in source
    assert "shocked-and-scared-acting-order" in {r.id for r in fear.rulings}


def test_the_unstated_wound_penalty_amount_is_ruled(shock, source):
    printed(source, r"wounds act as a minus penalty for")
    assert "wound-penalty-amount" in {r.id for r in shock.rulings}
