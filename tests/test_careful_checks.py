"""The pieces of the careful reader's checks (issue 29) that read words: the fractions an
example's text states (RP305) and the units of durations (RP228). The checks themselves
are cases of tests/test_checks.py; here, what they do with a plugin's code that fails."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulepress.errors import Level
from rulepress.validation import validate
from rulepress.validators.durations import unit_name
from rulepress.validators.example_figures import fractions_in
from tests.helpers import RULESET, RULESET_FILE, build_tree

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


# -- a plugin's methods and hooks that fail -------------------------------------------

RELICS = '''
from typing import Literal

from rulepress.plugin import Document, Game, Kind, Name


class Relic(Document):
    """A relic of one vault, by tier; its methods fail, as a plugin's may."""

    KIND = "relic"
    kind: Literal["relic"]
    name: Name
    vault: str
    tier: int
    charges: int

    def equal_cells(self):
        raise RuntimeError("no cells here")
        yield

    def stated_conversions(self):
        raise RuntimeError("no clock here")
        yield


def vault_of(relic):
    if relic.vault == "boom":
        raise KeyError("boom")
    return relic.vault


GAME = Game("relics", "Relics", kinds=(Kind(Relic, group=vault_of),))
'''


def test_a_plugins_method_or_hook_that_fails_is_an_error_naming_the_plugin(install, tmp_path):
    """RP228 (`stated_conversions`), RP229 (the group hook) and RP306 (`equal_cells`) read
    a plugin's documents through code of the plugin: when it raises, the finding is an
    error naming the kind and the plugin, and validating goes on."""
    install(
        "rulepress-relics", {"rulepress.games": {"relics": "relics:GAME"}}, {"relics.py": RELICS}
    )
    relic = "kind: relic\nid: {0}\nname: {0}\nvault: {1}\ntier: 1\ncharges: 2\n"
    root = build_tree(
        tmp_path / "c",
        {
            RULESET_FILE: RULESET,
            "demo/relics/urn.yaml": relic.format("urn", "boom"),
            "demo/relics/cup.yaml": relic.format("cup", "crypt"),
        },
    )
    errors = {
        (f.code, f.file.name)
        for f in validate(root).findings
        if f.level == Level.ERROR and "from plugin rulepress-relics failed" in f.message
    }
    assert errors == {
        ("RP228", "urn.yaml"),
        ("RP228", "cup.yaml"),
        ("RP229", "urn.yaml"),
        ("RP306", "urn.yaml"),
        ("RP306", "cup.yaml"),
    }
