"""Checks on the shape of tables: a draft said so, an odds table's rows as long as its columns."""

from __future__ import annotations

from rulepress.compendium.model import Ruleset
from rulepress.errors import Level
from rulepress.games.t2k4e.models.odds_table import OddsTable
from rulepress.validators.registry import Report, check


@check("RP211", "draft", Level.WARNING, reads="document")
def draft(ruleset: Ruleset):
    """A document is a draft: the source printed a placeholder with no figures. Drafts
    are kept so the data stays faithful, and left out of every export.

    Example: "Weapon Profile - Tactical Railgun (Tier 1)" with an empty table."""
    for entry in ruleset.entries:
        if entry.document.is_draft:
            yield Report(
                entry,
                f"{entry.document.kind} '{entry.document.display_name}' is a "
                f"draft (placeholder in the source); exports leave it out",
                ("status",),
            )


@check("RP222", "odds-row-length", Level.ERROR, reads="document")
def odds_row_length(ruleset: Ruleset):
    """An odds table row has more or fewer cells than the table has columns, so a cell
    would be read under the wrong die (or not at all).

    Example: `columns: [d6, d8]` and a row `percent: [31, 48, 99]`."""
    for entry in ruleset.entries:
        table = entry.document
        if not isinstance(table, OddsTable):
            continue
        for index, row in enumerate(table.rows):
            if len(row.percent) != len(table.columns):
                yield Report(
                    entry,
                    f"row has {len(row.percent)} cells for {len(table.columns)} columns",
                    ("rows", index, "percent"),
                )
