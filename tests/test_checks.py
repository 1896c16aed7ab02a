"""Every registered check (RP2xx cross-document, RP3xx computed, RP4xx translations), as a
table of examples.

For each registered check there is at least one failing input, which must produce exactly
the findings listed for it (code, level, file, line and column), and one passing input,
which must not produce it. A check registered without a failing and a passing case here
fails `test_every_check_has_a_failing_and_a_passing_case`.

Each input is a small compendium: the valid tree of `helpers.base_tree()` with
some files added, replaced or removed. Cases that show a bug in a check are marked
`xfail(strict=True)` with the bug in the reason, so they stay visible until it is fixed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulepress.errors import Finding, Level
from rulepress.games.iris.checks.weapon_tables import ap_spans
from rulepress.validation import validate
from rulepress.validators import registered_checks
from tests.check_cases import (
    FAILING,
    INFO,
    PASSING,
    RULE,
    RULE_FILE,
    Fails,
    Files,
    Passes,
    draft,
    profile,
    second_weapon,
    table,
    tc_source,
)
from tests.check_cases_careful import FAILING as CAREFUL_FAILING
from tests.check_cases_careful import PASSING as CAREFUL_PASSING
from tests.helpers import (
    WEAPON_FILE,
    base_tree,
    build_tree,
    weapon,
)

FAILING = [*FAILING, *CAREFUL_FAILING]
PASSING = [*PASSING, *CAREFUL_PASSING]
CHECKS = registered_checks()
"""Every check the registry runs: rulepress's own and its games' (not only those imported so far)."""


def _params(cases):
    return [
        pytest.param(
            case,
            id=case.example,
            marks=[pytest.mark.xfail(strict=True, reason=case.bug)] if case.bug else [],
        )
        for case in cases
    ]


def _findings(tmp_path: Path, files: Files) -> tuple[Finding, ...]:
    tree = {**base_tree(), **files}
    build_tree(tmp_path, {path: text for path, text in tree.items() if text is not None})
    return validate(tmp_path).findings


def _shown(findings) -> list[str]:
    return [f"{f.code} {f.file.name}:{f.line}:{f.col} {f.message}" for f in findings]


@pytest.mark.parametrize("case", _params(FAILING))
def test_failing_input_gives_exactly_its_finding(tmp_path, case: Fails):
    findings = _findings(tmp_path, case.files)
    wanted = [f for f in findings if f.code == case.code]
    places = sorted(
        (tmp_path / file, line, col)
        for file, line, col in ((case.file, case.line, case.col), *case.more)
    )
    assert sorted((f.file, f.line, f.col) for f in wanted) == places, _shown(findings)
    finding = next(
        f for f in wanted if (f.file, f.line, f.col) == (tmp_path / case.file, case.line, case.col)
    )
    assert finding.level == case.level
    assert finding.name == next(c.name for c in CHECKS if c.code == case.code)
    assert finding.message
    assert {f.code for f in findings} - {case.code} == set(case.also), _shown(findings)


@pytest.mark.parametrize("case", _params(PASSING))
def test_passing_input_does_not_give_the_finding(tmp_path, case: Passes):
    findings = _findings(tmp_path, case.files)
    assert case.code not in {f.code for f in findings}, _shown(findings)
    assert {f.code for f in findings} == set(case.also), _shown(findings)


def test_every_check_has_a_failing_and_a_passing_case():
    registered = {c.code for c in CHECKS}
    failing = {c.code for c in FAILING if c.bug is None}
    passing = {c.code for c in PASSING if c.bug is None}
    assert sorted(registered - failing) == [], "checks without a failing case"
    assert sorted(registered - passing) == [], "checks without a passing case"
    assert {c.code for c in [*FAILING, *PASSING]} <= registered, "cases of unknown codes"


def test_failing_cases_use_the_registered_level():
    """A finding has its check's level, except the reports a check lowers to INFO: a header
    only longer than the name (RP213), an example that cannot be replayed (RP302); and the
    one it raises to an error: a translation its field's type refuses (RP404)."""
    levels = {c.code: c.level for c in CHECKS}
    changed = {("RP213", INFO), ("RP302", INFO), ("RP404", Level.ERROR)}
    for case in FAILING:
        assert case.level == levels[case.code] or (case.code, case.level) in changed


def test_examples_are_unique():
    names = [c.example for c in [*FAILING, *PASSING]]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("registered", CHECKS, ids=lambda c: f"{c.code} {c.name}")
def test_check_is_documented(registered):
    assert re.fullmatch(r"RP[234]\d\d", registered.code)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", registered.name)
    assert isinstance(registered.level, Level)
    assert "Example:" in registered.doc


def test_check_codes_and_names_are_unique():
    assert len({c.code for c in CHECKS}) == len(CHECKS)
    assert len({c.name for c in CHECKS}) == len(CHECKS)


# -- weapon_tables.ap_spans ---------------------------------------------------------------

SPANS = [
    ([], ""),
    ([7], "7"),
    ([1, 2], "1-2"),
    ([1, 2, 3, 7], "1-3, 7"),
    ([1, 3, 5], "1, 3, 5"),
    ([6, 11, 16, 21, 26], "6, 11, 16, 21, 26"),
    ([1, 2, 4, 5, 6, 30], "1-2, 4-6, 30"),
    (list(range(1, 31)), "1-30"),
]


@pytest.mark.parametrize(("values", "text"), SPANS, ids=[t or "nothing" for _, t in SPANS])
def test_spans(values, text):
    assert ap_spans(values) == text


def test_spans_keeps_the_given_order():
    """Callers sort first; unsorted input is written run by run as given."""
    assert ap_spans([3, 2, 1]) == "3, 2, 1"
    assert ap_spans([5, 6, 1, 2]) == "5-6, 1-2"


# -- Level and Finding.sort_key ----------------------------------------------------------


def test_levels_order_errors_first():
    assert Level.ERROR < Level.WARNING < Level.INFO
    assert list(Level) == [Level.ERROR, Level.WARNING, Level.INFO]
    assert [str(level) for level in Level] == ["error", "warning", "info"]


def test_sort_key_puts_errors_first_then_file_line_col_code():
    a, b = Path("a.yaml"), Path("b.yaml")
    info = Finding(Level.INFO, "RP213", "m", a, 1, 1)
    warning = Finding(Level.WARNING, "RP209", "m", a, 1, 1)
    late_error = Finding(Level.ERROR, "RP212", "m", b, 9, 9)
    error_b_line_2 = Finding(Level.ERROR, "RP201", "m", b, 2, 5)
    error_b_line_2_col_1 = Finding(Level.ERROR, "RP203", "m", b, 2, 1)
    error_a = Finding(Level.ERROR, "RP207", "m", a, 40, 10)
    error_a_same_place = Finding(Level.ERROR, "RP206", "m", a, 40, 10)
    nowhere = Finding(Level.ERROR, "RP009", "m")
    shuffled = [
        info,
        late_error,
        warning,
        error_b_line_2,
        error_a,
        nowhere,
        error_b_line_2_col_1,
        error_a_same_place,
    ]
    assert sorted(shuffled, key=Finding.sort_key) == [
        nowhere,
        error_a_same_place,
        error_a,
        error_b_line_2_col_1,
        error_b_line_2,
        late_error,
        warning,
        info,
    ]


def test_a_placeholder_gives_one_finding_that_names_everything_wrong_with_it(tmp_path):
    """A draft's header copied from a published weapon (RP213, RP214) and its tier already
    taken (RP221) are the placeholder's symptoms: one RP211 finding names them all."""
    placeholder = second_weapon(name=None, header="Test Pistol", tier=1, status="draft")
    findings = _findings(tmp_path, placeholder)
    (finding,) = findings
    assert (finding.code, finding.file.name) == ("RP211", "zip-gun.yaml")
    for part in (
        "is a draft",
        "header 'Test Pistol' is the name of 'test-pistol' (a copied placeholder?) (RP213",
        "also used by 'test-pistol' (RP214 duplicate-name)",
        "tier 1 is already 'Test Pistol' in section 'pistols' (RP221 tier-repeated)",
    ):
        assert part in finding.message


def test_an_error_of_a_draft_is_not_folded_into_its_draft_finding(tmp_path):
    files = {WEAPON_FILE: draft(weapon(table(range(1, 11)) + table([10])))}
    assert {f.code for f in _findings(tmp_path, files)} == {"RP207", "RP211"}


def test_validate_reports_errors_before_warnings(tmp_path):
    findings = _findings(
        tmp_path,
        {
            "demo/tc/attacked.yaml": tc_source("attacked", -1),
            RULE_FILE: draft(RULE),
            WEAPON_FILE: profile(header="Test Pistol Mk II"),
        },
    )
    assert [(f.level, f.code) for f in findings] == [
        (Level.ERROR, "RP220"),
        (Level.WARNING, "RP211"),
        (Level.INFO, "RP213"),
    ]
    assert list(findings) == sorted(findings, key=Finding.sort_key)
