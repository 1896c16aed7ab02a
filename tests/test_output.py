"""The indented JSON files are written by orjson: they read back as the value written, and
apart from float spelling (`1e-08` vs `1e-8`) they are the bytes `json.dumps` writes. The two slugs outputs and importers name things
with agree but on letters and digits outside ASCII."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from rulepress.exporters.output import pretty_json
from rulepress.output_names import ascii_slug, slug

exact_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)  # the reader allows 30 digits
    | st.text()
)


def tree(scalars):
    return st.recursive(
        scalars, lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=30
    )


@given(tree(exact_scalars))
def test_pretty_json_writes_what_json_dumps_writes(value):
    expected = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert pretty_json(value) == expected.encode("utf-8")


@given(tree(exact_scalars | st.floats(allow_nan=False, allow_infinity=False)))
def test_pretty_json_reads_back_as_the_value(value):
    text = pretty_json(value)
    assert text.endswith(b"\n") and json.loads(text) == value


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_the_two_slugs_agree_on_ascii_text(text):
    assert slug(text) == ascii_slug(text)


def test_only_slug_keeps_letters_of_other_scripts():
    assert (slug("Café Noir (Tier 2)"), ascii_slug("Café Noir (Tier 2)")) == (
        "café-noir-tier-2",
        "caf-noir-tier-2",
    )
