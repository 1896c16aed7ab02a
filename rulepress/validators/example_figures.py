"""The check that a worked example's words agree with its rule's data (RP305)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction

from pydantic import BaseModel

from rulepress.compendium.model import Ruleset
from rulepress.errors import Level, data_path_text
from rulepress.models.common import StatesBoundaries
from rulepress.validators.plugin_calls import stated as stated_by
from rulepress.validators.registry import Report, check

NOT_DATA = frozenset({"examples", "rulings", "acknowledged", "boundaries"})
"""A document's fields that are not its rule's figures."""
FRACTION_WORDS = {
    "half": Fraction(1, 2),
    "third": Fraction(1, 3),
    "quarter": Fraction(1, 4),
    "fourth": Fraction(1, 4),
    "fifth": Fraction(1, 5),
    "tenth": Fraction(1, 10),
}
"""The fractions words name (`two thirds` is 2/3)."""
COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4}
_SPOKEN = re.compile(
    rf"\b(?:({'|'.join(COUNTS)})[\s-]+)?({'|'.join(FRACTION_WORDS)})s?\s+(?:of|the)\b",
    re.IGNORECASE,
)
_WRITTEN = re.compile(r"(?<![0-9/])([0-9]{1,3})/([0-9]{1,3})(?![0-9/])")


def fractions_in(text: str) -> Iterator[tuple[Fraction, str]]:
    """Each fraction a text states, with its words: "a quarter of" (1/4), "1/2", "two
    thirds of" (2/3)."""
    for match in _SPOKEN.finditer(text):
        count = COUNTS[match.group(1).lower()] if match.group(1) else 1
        yield count * FRACTION_WORDS[match.group(2).lower()], match.group(0)
    for match in _WRITTEN.finditer(text):
        if int(match.group(2)) and 0 < int(match.group(1)) < int(match.group(2)):
            yield Fraction(int(match.group(1)), int(match.group(2))), match.group(0)


def _data_fractions(value: object, top: bool = True) -> Iterator[Fraction]:
    """Every fraction a rule's data holds: a number between 0 and 1 that is not whole, or
    a named value (a slug) whose words name one (`quarter-hp`)."""
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            if not (top and name in NOT_DATA):
                yield from _data_fractions(getattr(value, name), False)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _data_fractions(item, False)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _data_fractions(item, False)
    elif isinstance(value, float | Fraction) and 0 < value < 1:
        yield Fraction(value).limit_denominator(100)


def _stated_in(text: str, words: str) -> bool:
    return " ".join(words.lower().split()) in " ".join(text.lower().split())


def _boundary_reports(entry) -> Iterator[Report]:
    """A boundary the example's text states, against the rule's own of the same quantity
    that the example does not state, where none of those has its value and side."""
    document = entry.document
    if not isinstance(document, StatesBoundaries):
        return
    stated, failed = stated_by(entry, "stated_boundaries")
    if failed is not None:
        yield failed
    for number, example in enumerate(document.examples):
        ours = [(b, p) for b, p in stated if _stated_in(example.text, b.text)]
        for boundary, _ in ours:
            rule = [
                (b, p)
                for b, p in stated
                if b.quantity == boundary.quantity and not _stated_in(example.text, b.text)
            ]
            if not rule or any((b.value, b.cut) == (boundary.value, boundary.cut) for b, _ in rule):
                continue
            yield Report(
                entry,
                f"example '{example.id}' says {boundary} ({boundary.text!r}), but the rule states "
                + ", ".join(f"{b} ({b.text!r}) at {data_path_text(p)}" for b, p in rule),
                ("examples", number, "text"),
            )


def _fraction_reports(entry) -> Iterator[Report]:
    """A fraction the example's text states that the rule's data, which holds fractions,
    does not."""
    document = entry.document
    held = set(_data_fractions(document))
    if not held:
        return
    for number, example in enumerate(document.examples):
        for fraction, words in fractions_in(example.text):
            if fraction not in held:
                yield Report(
                    entry,
                    f"example '{example.id}' says {words!r} ({fraction}), but the rule's "
                    f"data holds only {', '.join(str(f) for f in sorted(held))}",
                    ("examples", number, "text"),
                )


@check("RP305", "example-contradicts-rule", Level.WARNING, reads="document")
def example_contradicts_rule(ruleset: Ruleset):
    """A worked example's words state a figure of its rule other than the rule's data: a
    boundary the example's text states (a `boundaries` entry whose words are the
    example's) where the rule's own boundaries of that quantity are at another value or
    on another side; or a fraction the example's text states ("a quarter of", "1/2")
    that none of the rule's figures holds, when the rule holds fractions at all. Worked
    examples replayed through the rule are the example-disagrees check's; this one reads
    what the example says in passing.

    Example: an example saying Ugg's wound "exceeds a quarter of total hit-points in a
    single wound" (`single-wound > quarter-hp`) when the rule asks for a roll when a
    single wound is at least half the hit-points (`single-wound >= half-hp`)."""
    for entry in ruleset.entries:
        if entry.document.is_draft or not getattr(entry.document, "examples", None):
            continue
        yield from _boundary_reports(entry)
        yield from _fraction_reports(entry)
