"""The helpers of the name, ladder and text-quality checks (RP231's dictionaries, RP234,
RP235), beyond the cases of tests/check_cases_text.py."""

from __future__ import annotations

import pytest

from rulepress.games.cuf.models.threat import TcLadder
from rulepress.models.common import says_includes_below
from rulepress.validators import prose
from rulepress.validators.name_spellings import name_words


@pytest.mark.parametrize(
    "words",
    [
        "You see an ally incapacitated = 2TC (includes above)",
        "Being threatened or attacked with a lethal weapon (knife or a gun) = 2TC (including "
        "the 1TC for above).",
        "Being attacked with automatic fire = 3TC (includes lethal weapons above)",
        "Being attacked with explosives or poison gas = 4TC (includes above TCs)",
    ],
)
def test_the_sources_ways_of_saying_a_step_includes_those_below(words):
    assert says_includes_below(words)


@pytest.mark.parametrize(
    "words",
    [
        "You see an Ally killed = 4TC",
        "You are outnumbered 10 to 1 = 3TC",
        "It includes a knife. Above all, run.",  # a sentence ends between the two words
    ],
)
def test_words_that_do_not_say_it(words):
    assert not says_includes_below(words)


def _ladder(text: str | None, stated: bool = False) -> TcLadder:
    return TcLadder(
        kind="tc-ladder",
        id="l",
        name="L",
        steps=["a", "b", "c"],
        stated_in_source=stated,
        text=text,
    )


def test_a_ladder_reads_one_line_of_its_text_per_step():
    steps = _ladder("A = 1TC\nB = 2TC (includes above)\nC = 4TC\n").ladder_steps()
    assert [(s.step, s.includes_below, s.path) for s in steps] == [
        ("b", True, ("steps", 1)),
        ("c", False, ("steps", 2)),
    ]
    assert steps[0].words == "B = 2TC (includes above)"


def test_a_ladder_without_a_line_per_step_takes_its_whole_statement():
    assert [s.includes_below for s in _ladder(None, stated=True).ladder_steps()] == [True, True]
    assert [s.includes_below for s in _ladder("A to C, rising").ladder_steps()] == [False, False]


def test_name_words_ignore_case_joins_and_a_plural_of_a_long_word():
    assert (
        name_words("Fight-or-Flight") == name_words("FIGHT OR FLIGHT") == ("fight", "or", "flight")
    )
    assert name_words("Semi-Auto Shotguns") == ("semi", "auto", "shotgun")
    assert name_words("TCs") == ("tcs",)


def test_the_code_dictionary_gives_only_run_together_words():
    known = prose.misspellings()
    assert known["dont"] == "don't"
    assert known["upto"] == "up to"
    for word in ("crate", "lite", "hist", "uint"):  # words of prose, or code only
        assert word not in known


def test_the_variant_dictionary_maps_british_to_american():
    assert prose.spelling_variants()["armour"] == "armor"
