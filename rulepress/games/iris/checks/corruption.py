"""IRIS's check on the corruption tables: their rows, by level, in order."""

from __future__ import annotations

from rulepress.games.iris.models.corruption import CorruptionTriggers, ObedienceConsequences
from rulepress.plugin import Level, Report, Ruleset, check


@check("RP218", "level-order", Level.ERROR, reads="document")
def level_order(ruleset: Ruleset):
    """A table keyed by level (the corruption tables) repeats a level or lists levels
    out of order, so the row that applies at a level is ambiguous.

    Example: rows for corruption 10, 14, 12."""
    for entry in ruleset.entries:
        if not isinstance(entry.document, CorruptionTriggers | ObedienceConsequences):
            continue
        rows = entry.document.rows
        for index in range(1, len(rows)):
            if rows[index].level <= rows[index - 1].level:
                yield Report(
                    entry,
                    f"level {rows[index].level} follows level {rows[index - 1].level}",
                    ("rows", index, "level"),
                )
