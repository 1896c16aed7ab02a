"""The loader's fast road through YAML (`yaml_source._plain_data`, taken for a file read
without positions whose text has no anchor) gives what the careful one (`_Builder`, which
keeps every position) gives: the same data, or the same problem at the same place.

Whatever the text: hurried edits of the bundled files, random data, and the cases the
fast road hands back to the careful one (tags, merge keys, aliases, odd keys, depth)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepress.compendium import yaml_source
from rulepress.compendium.yaml_source import YamlProblem, parse_yaml
from tests.yaml_strategies import mutated, random_documents

FILE = Path("doc.yaml")


def outcome(text: str, positions: bool) -> tuple:
    """What parsing gives: its data (as repr: types, order and NaN compared too), or its
    problem's code, message and place."""
    try:
        data, _ = parse_yaml(text, FILE, positions=positions)
    except YamlProblem as problem:
        return ("problem", problem.code, problem.message, problem.position)
    return ("data", repr(data))


def same_either_road(text: str) -> None:
    assert outcome(text, positions=False) == outcome(text, positions=True)


CASES = [
    "kind: weapon\nid: x\ntable:\n  - {ap: 1, damage: 2}\n",
    "a: !!str 5\nb: !!int '7'\nc: !!float 1\nd: !!bool true\ne: !!null ''\n",
    "a: !!int abc\n",
    "a: !!binary aGk=\n",
    "a: !!set {x}\n",
    "a: !!omap [b: 1]\n",
    "<<: {a: 1}\nb: 2\n",
    "a: &x 1\nb: *x\n",
    "1: one\n2.5: two\ntrue: three\n~: four\n0x1F: five\n",
    "a: 1\na: 2\n",
    "? [a, b]\n: 1\n",
    "? {a: 1}\n: 1\n",
    "a: 0o17\nb: 0x1f\nc: .inf\nd: -.INF\ne: .nan\nf: 1e3\ng: yes\nh: 2001-01-01\n",
    "a: " + "9" * 40 + "\n",
    "- " * 70 + "x\n",
    "[" * 70 + "]" * 70 + "\n",
    "a: 'quoted: 1'\nb: \"2\"\nc: !x 3\n",
    "a: ! 5\n",
]


@pytest.mark.parametrize("text", CASES)
def test_each_case_gives_the_same_either_road(text: str) -> None:
    same_either_road(text)


def test_the_fast_road_is_taken_only_without_anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = []
    real = yaml_source._plain_data
    monkeypatch.setattr(
        yaml_source, "_plain_data", lambda node, depth: taken.append(depth) or real(node, depth)
    )
    parse_yaml("a: 1\n", FILE, positions=False)
    parse_yaml("a: &x 1\n", FILE, positions=False)
    parse_yaml("a: 1\n", FILE, positions=True)
    assert taken.count(0) == 1  # the first file's document only


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(mutated())
def test_mutated_files_give_the_same_either_road(document: bytes) -> None:
    text = document.decode("utf-8", errors="replace")
    same_either_road(text)


@PROPERTY
@given(random_documents())
def test_random_documents_give_the_same_either_road(document: bytes) -> None:
    same_either_road(document.decode("utf-8", errors="replace"))


@PROPERTY
@given(st.text(alphabet="ab:-[]{}&*!<>?,'\"# \n01.", max_size=60))
def test_random_yaml_text_gives_the_same_either_road(text: str) -> None:
    same_either_road(text)
