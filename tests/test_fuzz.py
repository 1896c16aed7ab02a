"""Fuzzing the loader and validator: whatever the YAML, the only outcomes are a validated
compendium or findings with a place; never an exception, never a traceback.

The fast profile runs with the suite; `make fuzz` runs the long one (10,000 examples per
strategy): RULEPRESS_FUZZ=long.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepress.validation import validate
from tests.helpers import COMPENDIUM, RULESET

settings.register_profile(
    "fast", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("RULEPRESS_FUZZ", "fast"))

SEED_FILES = sorted(COMPENDIUM.rglob("*.yaml"))
SEED_TEXTS = [
    path.read_text(encoding="utf-8") for path in SEED_FILES if path.name != "ruleset.yaml"
]


def check(document: bytes) -> None:
    """Validate a ruleset holding `document`; only findings may come out."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "demo").mkdir()
        (root / "demo" / "ruleset.yaml").write_text(RULESET, encoding="utf-8")
        (root / "demo" / "doc.yaml").write_bytes(document)
        result = validate(root)
        for finding in result.findings:
            assert finding.file is not None and finding.line and finding.col, finding
            assert finding.code.startswith("RP") and finding.message


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


@given(mutated())
def test_mutated_compendium_files_give_findings_not_crashes(document):
    check(document)


@given(random_documents())
def test_random_yaml_documents_give_findings_not_crashes(document):
    check(document)


@given(st.binary(max_size=400))
def test_random_bytes_give_findings_not_crashes(document):
    check(document)
