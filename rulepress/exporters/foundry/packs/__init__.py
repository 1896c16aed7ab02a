"""Build the Foundry documents of one ruleset's module, as data (never as text).

Each pack is a list of source documents in the official CLI's source shape: `_id`,
`_key`, embedded documents inline. The LevelDB writer and the JSON source files are both
made from these lists. One module per pack: the rules journal (`journal`), the Items of
kinds mapped to Items (`items`), the RollTables (`tables`) and the macros (`macros`).
"""

from __future__ import annotations

from collections.abc import Iterator

import jinja2

from rulepress.compendium.model import Ruleset
from rulepress.exporters.foundry.pack import Pack
from rulepress.exporters.foundry.packs.common import Module, ModuleOptions, OpenPack, Shared
from rulepress.exporters.foundry.packs.items import item_packs
from rulepress.exporters.foundry.packs.journal import rules_pack
from rulepress.exporters.foundry.packs.macros import macros_pack
from rulepress.exporters.foundry.packs.tables import table_packs
from rulepress.exporters.pieces import Pieces

__all__ = ["ModuleOptions", "OpenPack", "build_packs"]


def build_packs(
    ruleset: Ruleset,
    options: ModuleOptions,
    env: jinja2.Environment,
    html: jinja2.Environment,
    open_pack: OpenPack = Pack,
    pieces: Pieces | None = None,
) -> Iterator[Pack]:
    """The module's packs, one at a time (a large ruleset's packs need not all be held at
    once), empty ones left out. `env` renders the Markdown section templates, `html` the
    HTML ones; what an Item and a journal page both show is rendered once (`Shared`).
    `open_pack` makes each empty pack (one with a SourceFolder writes its documents'
    source files as they come). A watch run's `pieces` keep what an unchanged document
    renders to from one render to the next (rulepress.exporters.pieces)."""
    # a new Shared per render: a watch run keeps the Items and pages, and keeping the
    # tables they share as well would be 23 MB more at 10,000 weapons
    module = Module(ruleset, options, env, Shared(html), open_pack, pieces)

    def every_pack() -> Iterator[Pack]:
        # the Items first (the manifest lists the journal first: manifest.PACK_ORDER): a
        # forked writer takes their thousands of source files as they come, and writes
        # their pack while the journal renders (exporters.foundry.module_writer)
        yield from item_packs(module)
        yield rules_pack(module)
        yield from table_packs(module)
        yield macros_pack(module)

    for pack in every_pack():
        if pack.documents:
            yield pack
