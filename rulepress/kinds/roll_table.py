"""The `roll-table` kind's registry entry: a section of the guide (and the site) with each
row's exact chance, and a Foundry RollTable rolled by the table's own formula, whose
results carry their images and link the documents the rows name."""

from __future__ import annotations

from rulepress.kinds import FoundryTable, Guide, Kind, TableRow
from rulepress.models.roll_table import RollTable


def roll_table_rows(table: RollTable) -> list[TableRow]:
    """One result per row: its range, its text (also its name), its link and image."""
    rows = []
    for row in table.rows:
        span, name = row.span, " ".join(row.text.split())  # a result's name is one line
        image = {} if row.img is None else {"img": row.img}
        rows.append(TableRow(span.low, span.high, name, row.text, link=row.link, **image))
    return rows


ROLL_TABLE = Kind(
    RollTable,
    guide=Guide("Tables", "roll-table", 300),
    foundry=FoundryTable(
        "tables",
        "Tables",
        roll_table_rows,
        lambda table: table.text or "",
        formula=lambda table: table.dice.foundry,
    ),
)
"""A table rolled with dice: in the chapter "Tables" unless the ruleset places it."""
