"""Item packs: each kind whose registry entry maps it to Foundry Items (the weapons)
becomes Items with the kind's attributes, in folders where the entry names one, each
described by the kind's HTML template or its guide section."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cached_property, partial

import jinja2

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.errors import PluginError, RulepressError
from rulepress.exporters.escaping import markdown_text
from rulepress.exporters.foundry.ids import document_slug
from rulepress.exporters.foundry.pack import Pack, Ready, ready_document
from rulepress.exporters.foundry.packs.common import (
    SORT_STEP,
    Module,
    Stats,
    document_id,
    foundry_text,
    key,
)
from rulepress.exporters.foundry.packs.journal import Links
from rulepress.exporters.guide import Section
from rulepress.exporters.markdown_text import render_section, to_html
from rulepress.kinds.systems import ItemSystem, item_system
from rulepress.models import Document

RESERVED_PACKS = ("rules", "macros")


def item_packs(module: Module) -> Iterator[Pack]:
    """A pack per pack name the kinds map Items to, in the registry's order."""
    by_pack: dict[str, list[kinds.Kind]] = {}
    for kind in kinds.registry().values():
        if isinstance(kind.foundry, kinds.FoundryItems):
            by_pack.setdefault(kind.foundry.pack, []).append(kind)
    if not by_pack:
        return
    ruleset, system = module.ruleset, item_system(module.options.system)
    for name, members in by_pack.items():
        if name in RESERVED_PACKS:
            raise RulepressError(f"kind {members[0].name!r}: pack name {name!r} is rulepress's own")
        label = f"{ruleset.info.title}: {members[0].foundry.label}"
        pack = module.open_pack(name, label, "Item", system=system.id)
        for kind in members:
            _add_items(pack, kind, module, system, module.options.stats(system))
        yield pack


def _add_items(
    pack: Pack, kind: kinds.Kind, module: Module, system: ItemSystem, stats: Stats
) -> None:
    """The kind's Items, grouped by folder; folders in the order of their documents."""
    mapping: kinds.FoundryItems = kind.foundry
    ruleset = module.ruleset
    link, describe = roll_link(module, mapping), describer(module, kind)
    by_folder: dict[str | None, tuple[Document | None, list[Document]]] = {}
    for document in ruleset.all(kind.model):
        folder = mapping.folder(document, ruleset) if mapping.folder else None
        if folder is not None and folder.is_draft:
            continue  # a draft section is not published, nor are the Items in it
        by_folder.setdefault(folder.id if folder else None, (folder, []))[1].append(document)
    groups = sorted(by_folder.values(), key=_folder_order(ruleset))
    for position, (folder, documents) in enumerate(groups, 1):
        folder_id = None
        if folder is not None:
            made = partial(_ready_folder, ruleset, folder, position * SORT_STEP, stats)
            folder_id, ready = module.piece(("item-folder", kind.name, position), (folder,), made)
            pack.keep(ready)
        for number, document in enumerate(documents, 1):
            where = (ruleset.id, folder_id, number * SORT_STEP)
            pack.keep(
                module.piece(
                    ("item", kind.name, *where),
                    (document, folder),
                    partial(
                        _ready_item, module, kind, document, where, (link, describe, system, stats)
                    ),
                )
            )


def _ready_folder(ruleset: Ruleset, folder: Document, sort: int, stats: Stats) -> tuple:
    """(id, ready to write) of the Item folder of a group of Items."""
    folder_id = document_id(ruleset, "folder", document_slug(folder))
    return folder_id, ready_document(item_folder(folder.display_name, folder_id, sort, stats))


def _ready_item(module: Module, kind: kinds.Kind, document, where, made_by) -> Ready:
    """One document's Item, ready to write; `where` is (ruleset id, folder id, sort),
    `made_by` (the link to its macro, its description, the system, the _stats)."""
    link, describe, system, stats = made_by
    mapping: kinds.FoundryItems = kind.foundry
    ruleset = module.ruleset
    ruleset_id, folder_id, sort = where
    item_id = document_id(ruleset, kind.name, document_slug(document))
    attributes = tuple(tuple(a) for a in mapping.attributes(document, ruleset))
    weight = getattr(document, mapping.weight) if mapping.weight else None
    icon = mapping.icon(document, ruleset) if callable(mapping.icon) else mapping.icon
    look = (icon, weight, link(document))
    made = (system, stats)
    placed = (ruleset_id, folder_id, item_id, sort)
    return ready_document(item(kind, document, attributes, placed, look, made, describe(document)))


def describer(module: Module, kind: kinds.Kind) -> Callable[[Document], str]:
    """describe(document): the HTML description of the kind's Items: its `description`
    template rendered (`Description`), or else the document's guide section."""
    if kind.foundry.description:
        return Description(module, kind).render
    return lambda document: _section_html(module.env, kind, document, module.ruleset)


def roll_link(module: Module, mapping: kinds.FoundryItems) -> Callable[[Document], str]:
    """The paragraph that ends each of the kind's Items' descriptions: a link to the macro
    that rolls with it. Foundry runs a Macro whose content link is clicked
    (`Macro#_onClickDocumentLink` calls `execute({event})`); the macro reads the Item from
    the paragraph's `data-rulepress-item` and asks the rest. Simple Worldbuilding rolls
    only dice formulas from an Item's attributes, so a link is how its Items run a macro.
    "" for every Item when there is no such macro. The macro is found once per kind."""
    macro = next(
        (
            kind
            for kind in kinds.registry().values()
            if kind.macro is not None and kind.macro.template == mapping.macro
        ),
        None,
    )
    if macro is None or module.ruleset.one(macro.model) is None:
        return lambda document: ""
    macro_id = document_id(module.ruleset, "macro", macro.macro.template)
    uuid = f"Compendium.{module.options.module_id}.macros.Macro.{macro_id}"
    label = foundry_text(f"Roll: {macro.macro.title}")

    def link(document: Document) -> str:
        return f'<p data-rulepress-item="{foundry_text(document.id)}">@UUID[{uuid}]{{{label}}}</p>'

    return link


def _folder_order(ruleset: Ruleset):
    """Sort key of a (folder, documents) group: the folder's place among the ruleset's
    documents of its kind (by their `order`); Items without a folder first."""
    ranks: dict[type, dict[str, int]] = {}

    def rank(group: tuple[Document | None, list[Document]]) -> int:
        folder = group[0]
        if folder is None:
            return -1
        if type(folder) not in ranks:
            ranks[type(folder)] = {
                doc.id: number for number, doc in enumerate(ruleset.all(type(folder)))
            }
        return ranks[type(folder)][folder.id]

    return rank


class Description:
    """An Item's description from the kind's HTML template (`FoundryItems.description`).
    The template sees `document` (the Item's), `ruleset`, `links` (`links.html(id,
    label)`: a link to the journal page showing that document) and whatever the kind's
    `description_context` hook adds (the weapon kind's: `weapon` and its `tables`)."""

    def __init__(self, module: Module, kind: kinds.Kind) -> None:
        """The hook is found once per kind, the links on first use."""
        mapping: kinds.FoundryItems = kind.foundry
        self.module, self.kind = module, kind
        self.name = f"{mapping.description}.html.j2"
        self.context = kinds.kind_hook(kind, mapping.description_context, "description_context")
        self.links = ItemLinks(module)

    def render(self, document: Document) -> str:
        """The Item's description for `document`."""
        ruleset = self.module.ruleset
        added = self.context(document, ruleset, self.module.shared) if self.context else {}
        if not isinstance(added, Mapping):
            raise PluginError(
                f"description_context hook of kind {self.kind.name!r} from plugin "
                f"{self.kind.package} gave {type(added).__name__}, not a dict"
            )
        context = {**added, "document": document, "ruleset": ruleset, "links": self.links}
        return self.module.shared.html.get_template(self.name).render(context)


class ItemLinks:
    """The journal's links for an Item's description, worked out on its first link (the
    guide's chapters are read only when a template links)."""

    def __init__(self, module: Module) -> None:
        """Nothing is worked out yet."""
        self.module = module

    @cached_property
    def _links(self) -> Links:
        ruleset = self.module.ruleset
        return Links(ruleset, self.module.options)

    def html(self, target_id: str, label: str) -> str:
        """A link, in HTML, to the journal page that shows the document `target_id`."""
        return self._links.html(target_id, label)


def _section_html(env: jinja2.Environment, kind: kinds.Kind, document, ruleset) -> str:
    """A document's own guide section, as HTML: the description of a plugin's Item (none
    for a kind that has no section in the guide)."""
    if kind.guide is None:
        return ""
    section = Section.of(kind.guide, document.id, document.display_name, (document,))
    return to_html(
        render_section(env, section, ruleset, lambda _target, label: markdown_text(label))
    )


def item_folder(name: str, folder_id: str, sort: int, stats: Stats) -> dict:
    """The Item folder holding a group of Items (a weapon section's)."""
    return {
        "_id": folder_id,
        "_key": key("folders", folder_id),
        "name": name,
        "type": "Item",
        "folder": None,
        "description": "",
        "sorting": "m",
        "sort": sort,
        "color": None,
        "flags": {},
        "_stats": stats.field(),
    }


def item(
    kind: kinds.Kind,
    document: Document,
    attributes: tuple,
    where: tuple[str, str | None, str, int],
    look: tuple[str, object],
    made: tuple[ItemSystem, Stats],
    description: str,
) -> dict:
    """A document's Item; `where` is (ruleset id, folder id, item id, sort), `look` is
    (icon, weight, the link to the macro that rolls with it), `made` is (system, _stats),
    `description` its HTML."""
    ruleset_id, folder_id, item_id, sort = where
    icon, weight, link = look
    system, stats = made
    html = "\n".join(part for part in (description.strip(), link) if part)
    item_type, data = system.item(kind.name, attributes, weight, html)
    return {
        "_id": item_id,
        "_key": key("items", item_id),
        "name": document.display_name,
        "type": item_type,
        "img": icon,
        "system": data,
        "effects": [],
        "folder": folder_id,
        "sort": sort,
        "ownership": {"default": 0},
        "flags": {
            "rulepress": {
                "ruleset": ruleset_id,
                "id": document.id,
                "profile": document.model_dump(mode="json"),
            }
        },
        "_stats": stats.field(),
    }
