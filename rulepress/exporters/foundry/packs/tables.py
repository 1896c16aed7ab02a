"""Table packs: each kind whose registry entry maps it to RollTables (the corruption
tables) becomes a RollTable per document, with a result per row."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.exporters.foundry.ids import document_slug
from rulepress.exporters.foundry.pack import Pack
from rulepress.exporters.foundry.packs import journal
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
        linked = links(module)
        for position, (kind, document) in enumerate(documents, 1):
            pack.add(roll_table(ruleset, kind.foundry, document, position, stats, linked))
        yield pack


def roll_table(
    ruleset: Ruleset,
    mapping: kinds.FoundryTable,
    document,
    position: int,
    stats: Stats,
    linked: Callable[[str | None], Linked | None] = lambda link: None,
) -> dict:
    """A RollTable of one document, a result per row of its kind's mapping; `linked`
    finds the Foundry document a row's link names."""
    table_id = document_id(ruleset, "roll-table", document_slug(document))
    rows = mapping.rows(document)
    results = [
        table_result(
            table_id,
            document_id(ruleset, "table-result", f"{document.id}-{row.low}"),
            row,
            stats,
            linked(row.link),
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
        "formula": table_formula(mapping, rows, document),
        "replacement": True,
        "displayRoll": True,
        "folder": None,
        "sort": position * SORT_STEP,
        "ownership": {"default": 0},
        "flags": {},
        "_stats": stats.field(),
    }


def table_formula(mapping: kinds.FoundryTable, rows: list[kinds.TableRow], document) -> str:
    """A looked-up table's formula is the roll-data value it is looked up by (`@level`),
    never dice: its macro draws it with `RollTable#draw({roll})` for the value given.
    A table with its own dice rolls them; any other rolls evenly over its range."""
    if mapping.lookup is not None:
        return f"@{mapping.lookup}"
    if mapping.formula is not None:
        return mapping.formula(document)
    low, high = rows[0].low, rows[-1].high
    return f"1d{high - low + 1}+{low - 1}"


@dataclass(frozen=True)
class Linked:
    """The Foundry document a result links: its UUID (v13), its pack and id (v12)."""

    uuid: str
    collection: str
    """The pack, `<module id>.<pack>`."""
    id: str


def links(module: Module) -> Callable[[str | None], Linked | None]:
    """linked(document id): the Foundry document showing that document of the ruleset: its
    Item, its RollTable, else its journal page (v12 links the page's entry, as a v12
    result cannot link a page). None for no id, or a document no pack shows."""
    ruleset, module_id = module.ruleset, module.options.module_id

    @functools.cache
    def pages() -> Callable[[str], str | None]:
        return journal.journal_pages(ruleset, module.options)

    def in_pack(pack: str, type_: str, found: str) -> Linked:
        return Linked(
            f"Compendium.{module_id}.{pack}.{type_}.{found}", f"{module_id}.{pack}", found
        )

    def linked(target_id: str | None) -> Linked | None:
        document = ruleset.get(target_id) if target_id else None
        if document is None or document.is_draft:
            return None
        foundry, slug = kinds.registry()[document.kind].foundry, document_slug(document)
        if isinstance(foundry, kinds.FoundryItems):
            return in_pack(foundry.pack, "Item", document_id(ruleset, document.kind, slug))
        if isinstance(foundry, kinds.FoundryTable):
            return in_pack(foundry.pack, "RollTable", document_id(ruleset, "roll-table", slug))
        page = pages()(document.id)
        if page is None:
            return None
        uuid = page.removeprefix("@UUID[").removesuffix("]")
        entry = uuid.removeprefix(f"Compendium.{module_id}.rules.JournalEntry.").split(".")[0]
        return Linked(uuid, f"{module_id}.rules", entry)

    return linked


def table_result(
    table_id: str, result_id: str, row: kinds.TableRow, stats: Stats, link: Linked | None = None
) -> dict:
    """A TableResult in the shape of the target version (v13 split `text` into `name` and
    `description`, foundryvtt#12049, and gave results `_stats`); with `link`, a document
    result linking it (v13 by `documentUuid`; v12 a compendium result, `documentCollection`
    the pack and `documentId` the id)."""
    common = {
        "_id": result_id,
        "_key": key("tables.results", table_id, result_id),
        "type": "text" if link is None else "document" if stats.foundry_version >= 13 else "pack",
        "img": row.img,
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
            "documentUuid": None if link is None else link.uuid,
            "_stats": stats.field(),
        }
    return {
        **common,
        "text": foundry_text(row.text),
        "documentCollection": "" if link is None else link.collection,
        "documentId": None if link is None else link.id,
    }
