"""Fuzzing the loader and validator: whatever the YAML, the only outcomes are a validated
compendium or findings with a place; never an exception, never a traceback.

The fast profile runs with the suite; `make fuzz` runs the long one (10,000 examples per
strategy): RULEPRESS_FUZZ=long.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepress.validation import validate
from tests.helpers import RULESET
from tests.yaml_strategies import mutated, random_documents

settings.register_profile(
    "fast", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("RULEPRESS_FUZZ", "fast"))


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


@given(mutated())
def test_mutated_compendium_files_give_findings_not_crashes(document):
    check(document)


@given(random_documents())
def test_random_yaml_documents_give_findings_not_crashes(document):
    check(document)


@given(st.binary(max_size=400))
def test_random_bytes_give_findings_not_crashes(document):
    check(document)
