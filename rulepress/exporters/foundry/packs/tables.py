"""Table packs: each kind whose registry entry maps it to RollTables (the corruption
tables) becomes a RollTable per document, with a result per row."""

from __future__ import annotations

from collections.abc import Iterator

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.exporters.foundry.ids import document_slug
from rulepress.exporters.foundry.pack import Pack
from rulepress.exporters.foundry.packs.common import (
    SORT_STEP,
    Module,
    Stats,
    document_id,
    foundry_text,
    key,
)


def table_packs(module: Module) -> Iterator[Pack]:
    """A pack per pack name the kinds map RollTables to, in the registry's order."""
    ruleset = module.ruleset
    by_pack: dict[str, list[kinds.Kind]] = {}
    for kind in kinds.registry().values():
        if isinstance(kind.foundry, kinds.FoundryTable):
            by_pack.setdefault(kind.foundry.pack, []).append(kind)
    for name, members in by_pack.items():
        pack = module.open_pack(
            name, f"{ruleset.info.title}: {members[0].foundry.label}", "RollTable"
        )
        documents = [(kind, doc) for kind in members for doc in ruleset.all(kind.model)]
        stats = module.options.stats()
        for position, (kind, document) in enumerate(documents, 1):
            pack.add(roll_table(ruleset, kind.foundry, document, position, stats))
        yield pack


def roll_table(
    ruleset: Ruleset, mapping: kinds.FoundryTable, document, position: int, stats: Stats
) -> dict:
    """A RollTable of one document, a result per row of its kind's mapping."""
    table_id = document_id(ruleset, "roll-table", document_slug(document))
    rows = mapping.rows(document)
    results = [
        table_result(
            table_id,
            document_id(ruleset, "table-result", f"{document.id}-{row.low}"),
            row,
            stats,
        )
        for row in rows
    ]
    return {
        "_id": table_id,
        "_key": key("tables", table_id),
        "name": document.display_name,
        "img": mapping.icon,
        "description": foundry_text(mapping.description(document)),
        "results": results,
        "formula": table_formula(mapping, rows),
        "replacement": True,
        "displayRoll": True,
        "folder": None,
        "sort": position * SORT_STEP,
        "ownership": {"default": 0},
        "flags": {},
        "_stats": stats.field(),
    }


def table_formula(mapping: kinds.FoundryTable, rows: list[kinds.TableRow]) -> str:
    """A looked-up table's formula is the roll-data value it is looked up by (`@level`),
    never dice: its macro draws it with `RollTable#draw({roll})` for the value given.
    Any other table rolls evenly over its range."""
    if mapping.lookup is not None:
        return f"@{mapping.lookup}"
    low, high = rows[0].low, rows[-1].high
    return f"1d{high - low + 1}+{low - 1}"


def table_result(table_id: str, result_id: str, row: kinds.TableRow, stats: Stats) -> dict:
    """A TableResult in the shape of the target version (v13 split `text` into `name` and
    `description`, foundryvtt#12049, and gave results `_stats`)."""
    common = {
        "_id": result_id,
        "_key": key("tables.results", table_id, result_id),
        "type": "text",
        "img": "icons/svg/d20-black.svg",
        "weight": row.high - row.low + 1,
        "range": [row.low, row.high],
        "drawn": False,
        "flags": {},
    }
    if stats.foundry_version >= 13:
        text = foundry_text(row.text)
        return {
            **common,
            "name": row.name,
            "description": text,
            "documentUuid": None,
            "_stats": stats.field(),
        }
    return {**common, "text": foundry_text(row.text), "documentCollection": "", "documentId": None}
