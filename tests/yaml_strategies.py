"""Hypothesis strategies of compendium YAML: real files with hurried edits, and random
data, for the fuzz tests (test_fuzz.py) and the loader's two roads (test_yaml_fast_path.py)."""

from __future__ import annotations

import yaml
from hypothesis import strategies as st

from tests.helpers import COMPENDIUM

SEED_FILES = sorted(COMPENDIUM.rglob("*.yaml"))
SEED_TEXTS = [
    path.read_text(encoding="utf-8") for path in SEED_FILES if path.name != "ruleset.yaml"
]


@st.composite
def mutated(draw) -> bytes:
    """A real compendium file with a few edits a hurried contributor might make."""
    lines = draw(st.sampled_from(SEED_TEXTS)).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        index = draw(st.integers(0, max(len(lines) - 1, 0)))
        edit = draw(st.sampled_from(["delete", "duplicate", "replace", "indent", "insert", "swap"]))
        if edit == "delete" and lines:
            del lines[index]
        elif edit == "duplicate" and lines:
            lines.insert(index, lines[index])
        elif edit == "replace" and lines and ":" in lines[index]:
            key = lines[index].split(":", 1)[0]
            lines[index] = f"{key}: {draw(st.text(max_size=20))}"
        elif edit == "indent" and lines:
            lines[index] = draw(st.sampled_from([" ", "\t", "    "])) + lines[index]
        elif edit == "insert":
            lines.insert(index, draw(st.text(max_size=40)))
        elif edit == "swap" and len(lines) > 1:
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
    return "\n".join(lines).encode("utf-8", errors="surrogatepass")


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=30)
)
trees = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)


@st.composite
def random_documents(draw) -> bytes:
    """Random YAML data, sometimes with a real `kind` so the models get to see it."""
    data = draw(trees)
    if isinstance(data, dict) and draw(st.booleans()):
        data["kind"] = draw(
            st.sampled_from(
                ["weapon", "skill", "tc-source", "odds-table", "threat-threshold", "shock-roll"]
            )
        )
        data["id"] = draw(st.sampled_from(["x", "Bad Id", "ok-id"]))
    return yaml.safe_dump(data, allow_unicode=True).encode("utf-8", errors="surrogatepass")
