"""The pieces of the careful reader's checks (issue 29) that read words: the fractions an
example's text states (RP305) and the units of durations (RP228). The checks themselves
are cases of tests/test_checks.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulepress.validators.durations import unit_name
from rulepress.validators.example_figures import fractions_in

FRACTIONS = [
    ("exceeds a quarter of total hit-points in a single wound", [Fraction(1, 4)]),
    ("equal to or greater than 1/2 of their total hit-points", [Fraction(1, 2)]),
    ("two thirds of the party", [Fraction(2, 3)]),
    ("half the damage, and three-quarters of the rest", [Fraction(1, 2), Fraction(3, 4)]),
    ("the third round", []),  # an ordinal, not a fraction
    ("a result of 3/2 or 12/31/2026", []),  # not a fraction under one, nor a date's part
    ("Ugg rolls a 90. He fails by 10", []),
]


@pytest.mark.parametrize(("text", "fractions"), FRACTIONS, ids=[t for t, _ in FRACTIONS])
def test_fractions_an_example_states(text, fractions):
    assert [fraction for fraction, _ in fractions_in(text)] == fractions


UNITS = [
    ("Rounds", "round"),
    ("turns", "turn"),
    ("seconds", "second"),
    ("minutes", "minute"),
    ("Stretches", "stretch"),
    ("Shift", "shift"),
    ("hours", "hour"),
]


@pytest.mark.parametrize(("word", "unit"), UNITS, ids=[w for w, _ in UNITS])
def test_a_unit_is_compared_lowercase_and_singular(word, unit):
    assert unit_name(word) == unit
