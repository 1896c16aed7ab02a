"""The LevelDB encoder's two roads give the same bytes: orjson where the value is plain
(`leveldb._plain`), json's compact, sorted encoding otherwise. Foundry reads the values
back, and a build must give byte-identical packs whichever road a value took."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from rulepress.exporters.foundry import leveldb


def json_road(value: object) -> bytes:
    """What `encode` wrote before orjson: the reference."""
    return json.dumps(
        value, separators=(",", ":"), sort_keys=True, ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


# every character but lone surrogates (no UTF-8 text holds one): controls, quotes,
# backslashes, U+2028, astral characters, all of which the two must escape alike
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
    | TEXT.map(Markup)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=5).map(tuple)
        | st.dictionaries(TEXT, inner, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(TEXT, VALUES, max_size=8))
def test_encode_gives_json_bytes(value: dict) -> None:
    assert leveldb.encode(value) == json_road(value)


@pytest.mark.parametrize(
    ("value", "plain"),
    [
        ({"name": "Pistol", "system": {"damage": 3, "tags": ["a", None, True]}}, True),
        ({"weight": 1.5}, False),  # json writes floats its own way
        ({"big": 2**64}, True),  # beyond what orjson writes: it refuses, json writes it
        ({"big": 2**64 - 1, "small": -(2**63)}, True),
        ({1: "a"}, True),  # json turns the key into text; orjson refuses it, so json writes it
        ({"html": Markup("<p>x</p>")}, True),
        ({"list": [[{"weight": 0.5}]]}, False),  # found however deep
    ],
)
def test_plain_values(value: dict, plain: bool) -> None:
    assert leveldb._plain(value) is plain
    assert leveldb.encode(value) == json_road(value)


def test_nan_and_surrogates_are_refused_as_before() -> None:
    with pytest.raises(ValueError):
        leveldb.encode({"weight": float("nan")})
    with pytest.raises(UnicodeEncodeError):
        leveldb.encode({"name": "\ud800"})
