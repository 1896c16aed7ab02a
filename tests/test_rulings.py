"""Every ruling the code names exists in the bundled compendium's data, on the document it
concerns, so a docstring cannot cite a ruling that was renamed or never written.

The code names rulings in one fixed form: "ruling `id`", or "rulings `a`, `b`" for
several, optionally followed by "on the <kind>" ("ruling `ap-outside-table` on the skill
test"). Inside a document class the ruling must be on a document of that class's kind,
unless "on the <kind>" names another; elsewhere it may be on any document.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

import rulepress

PACKAGE = Path(rulepress.__file__).parent

NAMED = re.compile(
    r"\brulings?\s+((?:`[a-z0-9][a-z0-9-]*`(?:[\s#]*(?:,|and)[\s#]*)?)+)(?:\s*on\s+the\s+([a-z\s-]+))?",
    re.IGNORECASE,
)
"""A mention: the ids in backticks, separated by commas or "and" (across comment lines),
and what follows "on the", up to the first character that is not a letter or space."""


def mentions() -> list[tuple[str, int, str, str | None, str | None]]:
    """(file, line, ruling id, kind of the enclosing document class, qualifier words) for
    every ruling the package's code names."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        classes = _document_classes(source)
        for match in NAMED.finditer(source):
            line = source.count("\n", 0, match.start()) + 1
            kind = next((k for first, last, k in classes if first <= line <= last), None)
            for ruling_id in re.findall(r"`([a-z0-9-]+)`", match.group(1)):
                found.append(
                    (str(path.relative_to(PACKAGE)), line, ruling_id, kind, match.group(2))
                )
    return found


def _document_classes(source: str) -> list[tuple[int, int, str]]:
    """(first line, last line, KIND) of each class that declares a document kind."""
    classes = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        for statement in node.body:
            if (
                isinstance(statement, ast.Assign)
                and [getattr(t, "id", None) for t in statement.targets] == ["KIND"]
                and isinstance(statement.value, ast.Constant)
            ):
                classes.append((node.lineno, node.end_lineno, statement.value.value))
    return classes


@pytest.fixture(scope="module")
def rulings_by_kind(bundled) -> dict[str, set[str]]:
    """The ids of the bundled compendium's rulings, by the kind of the document holding them."""
    by_kind: dict[str, set[str]] = defaultdict(set)
    for ruleset in bundled.compendium.rulesets.values():
        for entry in ruleset.entries:
            by_kind[entry.document.KIND].update(r.id for r in entry.document.rulings)
    return by_kind


def _qualified_kind(words: str, kinds: set[str]) -> str | None:
    """The kind "on the skill test and ..." names: the longest run of leading words that,
    joined by hyphens, is a kind."""
    split = words.split()
    for count in range(len(split), 0, -1):
        candidate = "-".join(split[:count]).lower()
        if candidate in kinds:
            return candidate
    return None


def test_the_code_names_rulings_in_the_fixed_form():
    named = {ruling_id for _, _, ruling_id, _, _ in mentions()}
    # a sample the scan must find, so a broken pattern cannot pass by finding nothing
    assert {"tc-total-floor", "target-raises-do-not-stack", "d20-difficulty-multipliers"} <= named


def test_every_ruling_named_in_code_is_on_the_document_it_concerns(rulings_by_kind):
    every = set().union(*rulings_by_kind.values())
    problems = []
    for file, line, ruling_id, enclosing, qualifier in mentions():
        kind = enclosing
        if qualifier and (named := _qualified_kind(qualifier, set(rulings_by_kind))):
            kind = named
        wanted = rulings_by_kind.get(kind, set()) if kind else every
        if ruling_id not in wanted:
            where = f"a {kind} document" if kind else "any document"
            problems.append(f"{file}:{line}: ruling `{ruling_id}` is not on {where}")
    assert problems == []


def test_a_misnamed_ruling_would_be_caught(rulings_by_kind):
    every = set().union(*rulings_by_kind.values())
    assert "tc-total-flor" not in every
    assert "target-raises-do-not-stack" not in rulings_by_kind["threat-threshold"]
