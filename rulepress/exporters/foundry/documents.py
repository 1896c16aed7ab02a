"""Build the Foundry documents of one ruleset's module, as data (never as text).

Each pack is a list of source documents in the official CLI's source shape: `_id`,
`_key`, embedded documents inline. The LevelDB writer and the JSON source files are both
made from these lists.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from rulepress.compendium.model import Ruleset
from rulepress.errors import RulepressError
from rulepress.exporters import templating
from rulepress.exporters.foundry.enrichers import inert
from rulepress.exporters.foundry.ids import document_slug, foundry_id
from rulepress.exporters.foundry.pack import Pack, Ready
from rulepress.exporters.foundry.systems import SYSTEMS, ItemSystem
from rulepress.exporters.guide import Chapter, Section, chapters, section_of, weapons_by_section
from rulepress.exporters.markdown_text import TEMPLATES, md, render_section, to_html
from rulepress.exporters.memo import RenderMemo, Written, reused, templates_key
from rulepress.models import (
    CorruptionTriggers,
    CufRating,
    GroupRoll,
    ModifierRule,
    ObedienceConsequences,
    PushRule,
    SkillTest,
    StepDice,
    ThreatThreshold,
    WeaponProfile,
    WeaponSection,
)
from rulepress.models.cuf import DIFFICULTY
from rulepress.models.step_dice import STEPS

SORT_STEP = 100_000  # Foundry's CONST.SORT_INTEGER_DENSITY


@dataclass(frozen=True)
class ModuleOptions:
    module_id: str
    foundry_version: int
    system: str


def _key(collection: str, *ids: str) -> str:
    return f"!{collection}!{'.'.join(ids)}"


OpenPack = Callable[..., Pack]
"""open_pack(name, label, type, system=None): a new, empty Pack."""


def build_packs(
    ruleset: Ruleset,
    options: ModuleOptions,
    env: jinja2.Environment,
    html: jinja2.Environment,
    memo: RenderMemo | None = None,
    open_pack: OpenPack = Pack,
) -> Iterator[Pack]:
    """The module's packs, one at a time (a large ruleset's packs need not all be held at
    once), empty ones left out. `env` renders the Markdown section templates, `html` the
    HTML ones; each weapon's tables are rendered once, for its item and its journal page.
    With a `memo`, weapon items and pages the previous export rendered from the same
    inputs are taken from it (its packs then need SourceFolders, from `open_pack`)."""
    tables = WeaponTables(html, ruleset.info.currency or "")
    packs = (
        lambda: _rules_pack(open_pack, ruleset, options, env, tables, memo),
        lambda: _weapons_pack(open_pack, ruleset, options, tables, memo),
        lambda: _tables_pack(open_pack, ruleset, options),
        lambda: _macros_pack(open_pack, ruleset, options),
    )
    for make in packs:
        pack = make()
        if pack.documents:
            yield pack


def html_environment(user_templates: Path | None = None) -> jinja2.Environment:
    """Templates that write HTML directly (autoescaped). Weapons are rendered this way,
    not through Markdown: converting their tables was nearly all of a large export's time.
    A user folder, if given, overrides shipped templates by name. Every text a template
    writes is made inert for Foundry's enrichers before it is escaped; markup made by the
    exporter (a weapon's tables, its skill's link) is written as it is."""
    return templating.environment(
        TEMPLATES / "foundry",
        user_templates,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_inert_text,
    )


def _inert_text(value: object) -> object:
    return inert(value) if isinstance(value, str) and not isinstance(value, Markup) else value


class WeaponTables:
    """Each weapon's stats and AP tables as HTML, rendered on first use (for its item or
    its journal page) and then shared by both."""

    def __init__(self, html: jinja2.Environment, currency: str) -> None:
        self.html, self.currency = html, currency
        self.template = html.get_template("weapon-tables.html.j2")
        self.rendered: dict[int, Markup] = {}

    def __getitem__(self, weapon: WeaponProfile) -> Markup:
        found = self.rendered.get(id(weapon))
        if found is None:
            found = Markup(self.template.render(weapon=weapon, currency=self.currency))
            self.rendered[id(weapon)] = found
        return found

    def memo_key(self) -> str:
        """What the HTML depends on besides the weapon (the templates' bytes are in the
        memo's salt)."""
        return templates_key(self.html, self.currency)


def _add_reused(
    pack: Pack, memo: RenderMemo | None, render: Callable[..., dict], *inputs: object
) -> None:
    """Add render(*inputs) to the pack; or, when the previous export rendered the same
    inputs into a file that its output still holds as written, that file and the
    entries stored with it."""
    if memo is None or pack.sources is None:
        pack.add(render(*inputs))
        return
    key = memo.key(render, *inputs)
    piece = memo.recall(key)
    if isinstance(piece, Written):
        name = piece.file.rsplit("/", 1)[-1]
        pack.add_ready(Ready(name, piece.value, linked=os.path.join(memo.previous, piece.file)))
        return
    ready = pack.add(render(*inputs))
    memo.keep(key, Written(f"{pack.sources.place}/{ready.file_name}", ready.entries))


def _id(ruleset: Ruleset, kind: str, slug: str) -> str:
    return foundry_id(ruleset.id, kind, slug)


def journal_pages(
    ruleset: Ruleset, options: ModuleOptions, parts: list[Chapter]
) -> Callable[[str], str | None]:
    """uuid(document id): the `@UUID[...]` of the journal page showing that document."""
    where = section_of(parts)

    def uuid(document_id: str) -> str | None:
        found = where.get(document_id)
        if found is None:
            return None
        chapter, section = found
        entry, page = _id(ruleset, "journal", chapter.id), _id(ruleset, "journal-page", section.id)
        return (
            f"@UUID[Compendium.{options.module_id}.rules.JournalEntry.{entry}"
            f".JournalEntryPage.{page}]"
        )

    return uuid


def _link_label(label: str) -> str:
    """A content link's label ends at `}`; `]` would end the link early in some parsers."""
    return label.replace("]", "").replace("}", "")


def _journal_page(entry_id: str, page_id: str, name: str, html: str, number: int) -> dict:
    return {
        "_id": page_id,
        "_key": _key("journal.pages", entry_id, page_id),
        "name": name,
        "type": "text",
        "title": {"show": True, "level": 1},
        "text": {"content": html, "format": 1},
        "sort": number * SORT_STEP,
        "ownership": {"default": -1},
        "flags": {},
    }


def _journal_entry(entry_id: str, name: str, pages: list[dict], position: int) -> dict:
    return {
        "_id": entry_id,
        "_key": _key("journal", entry_id),
        "name": name,
        "pages": pages,
        "categories": [],
        "folder": None,
        "sort": position * SORT_STEP,
        "ownership": {"default": 0},
        "flags": {},
    }


def _rules_pack(
    open_pack: OpenPack,
    ruleset: Ruleset,
    options: ModuleOptions,
    env: jinja2.Environment,
    tables: WeaponTables,
    memo: RenderMemo | None,
) -> Pack:
    pack = open_pack("rules", f"{ruleset.info.title}: Rules", "JournalEntry")
    parts = chapters(ruleset)
    uuid = journal_pages(ruleset, options, parts)

    # Our own links are written around the label, which is data, so inert.
    def markdown_link(document_id: str, label: str) -> str:
        target = uuid(document_id)
        text = inert(label if target is None else _link_label(label))
        return md(text) if target is None else f"{target}{{{md(text)}}}"

    def html_link(document_id: str, label: str) -> Markup:
        target = uuid(document_id)
        if target is None:
            return escape(inert(label))
        return Markup("{}{{{}}}").format(Markup(target), inert(_link_label(label)))

    def page_html(section: Section) -> str:
        if section.template != "weapon-section":
            return to_html(render_section(env, section, ruleset, markdown_link))
        skill = ruleset.get(section.document.skill)
        link = html_link(section.document.skill, skill.name)
        return reused(memo, weapon_section_page, tuple(section.documents[1:]), link, tables)

    for position, chapter in enumerate(parts, 1):
        entry_id = _id(ruleset, "journal", chapter.id)
        pages = [
            _journal_page(
                entry_id,
                _id(ruleset, "journal-page", section.id),
                section.title,
                page_html(section),
                number,
            )
            for number, section in enumerate(chapter.sections, 1)
        ]
        pack.add(_journal_entry(entry_id, chapter.title, pages, position))
    pack.add(_credits_entry(ruleset, tables.html, len(pack.documents) + 1))
    return pack


def weapon_section_page(
    weapons: tuple[WeaponProfile, ...], skill_link: Markup, tables: WeaponTables
) -> str:
    """The journal page of a weapon section: its skill, then each weapon's tables."""
    page = tables.html.get_template("weapon-section.html.j2").render(
        skill_link=skill_link, weapons=[(weapon, tables[weapon]) for weapon in weapons]
    )
    return page.strip()


def _credits_entry(ruleset: Ruleset, env: jinja2.Environment, position: int) -> dict:
    """A last journal entry: the sources' credits and every ruling taken."""
    entry_id = _id(ruleset, "journal", "about-these-rules")
    parts = (
        ("sources", "Sources", "credits.html.j2", {"info": ruleset.info}),
        ("rulings", "Rulings", "rulings.html.j2", {"rulings": ruleset.rulings()}),
    )
    pages = [
        _journal_page(
            entry_id,
            _id(ruleset, "journal-page", f"about-{slug}"),
            name,
            env.get_template(template).render(**context).strip(),
            number,
        )
        for number, (slug, name, template, context) in enumerate(parts, 1)
    ]
    return _journal_entry(entry_id, "About These Rules", pages, position)


def _weapons_pack(
    open_pack: OpenPack,
    ruleset: Ruleset,
    options: ModuleOptions,
    tables: WeaponTables,
    memo: RenderMemo | None,
) -> Pack:
    system = SYSTEMS.get(options.system)
    if system is None:
        raise RulepressError(
            f"unknown Foundry system {options.system!r}; known: {', '.join(SYSTEMS)}"
        )
    pack = open_pack("weapons", f"{ruleset.info.title}: Weapons", "Item", system=system.id)
    for position, (section, weapons) in enumerate(weapons_by_section(ruleset), 1):
        folder_id = _id(ruleset, "folder", document_slug(section))
        _add_reused(pack, memo, section_folder, section, folder_id, position * SORT_STEP)
        skill = ruleset.get(section.skill)
        skill_name = skill.display_name if skill else section.skill
        for number, weapon in enumerate(weapons, 1):
            item_id = _id(ruleset, "weapon", document_slug(weapon))
            where = (ruleset.id, folder_id, item_id, number * SORT_STEP)
            _add_reused(pack, memo, weapon_item, weapon, skill_name, where, system, tables)
    return pack


def section_folder(section: WeaponSection, folder_id: str, sort: int) -> dict:
    """The Item folder holding a weapon section's items."""
    return {
        "_id": folder_id,
        "_key": _key("folders", folder_id),
        "name": section.name,
        "type": "Item",
        "folder": None,
        "description": "",
        "sorting": "m",
        "sort": sort,
        "color": None,
        "flags": {},
    }


def weapon_item(
    weapon: WeaponProfile,
    skill_name: str,
    where: tuple[str, str, str, int],
    system: ItemSystem,
    tables: WeaponTables,
) -> dict:
    """A weapon's Item; `where` is (ruleset id, folder id, item id, sort)."""
    ruleset_id, folder_id, item_id, sort = where
    description = tables.html.get_template("weapon-item.html.j2").render(
        weapon=weapon, tables=tables[weapon]
    )
    item_type, data = system.weapon(weapon, skill_name, tables.currency, description.strip())
    return {
        "_id": item_id,
        "_key": _key("items", item_id),
        "name": weapon.name,
        "type": item_type,
        "img": "icons/svg/sword.svg",
        "system": data,
        "effects": [],
        "folder": folder_id,
        "sort": sort,
        "ownership": {"default": 0},
        "flags": {
            "rulepress": {
                "ruleset": ruleset_id,
                "id": weapon.id,
                "profile": weapon.model_dump(mode="json"),
            }
        },
    }


def _tables_pack(open_pack: OpenPack, ruleset: Ruleset, options: ModuleOptions) -> Pack:
    pack = open_pack("tables", f"{ruleset.info.title}: Tables", "RollTable")
    tables = [*ruleset.all(CorruptionTriggers), *ruleset.all(ObedienceConsequences)]
    for position, table in enumerate(tables, 1):
        table_id = _id(ruleset, "roll-table", document_slug(table))
        rows = table.rows
        results = []
        for index, row in enumerate(rows):
            low = row.level
            high = rows[index + 1].level - 1 if index + 1 < len(rows) else row.level
            text = (
                row.events if isinstance(table, CorruptionTriggers) else " -or- ".join(row.options)
            )
            result_id = _id(ruleset, "table-result", f"{table.id}-{row.level}")
            results.append(
                _table_result(
                    table_id,
                    result_id,
                    f"Corruption {low}",
                    text,
                    [low, high],
                    options.foundry_version,
                )
            )
        low, high = rows[0].level, rows[-1].level
        pack.add(
            {
                "_id": table_id,
                "_key": _key("tables", table_id),
                "name": table.name,
                "img": "icons/svg/d20-grey.svg",
                "description": f"{_escape(table.headers[0])} / {_escape(table.headers[1])}",
                "results": results,
                "formula": f"1d{high - low + 1}+{low - 1}",
                "replacement": True,
                "displayRoll": True,
                "folder": None,
                "sort": position * SORT_STEP,
                "ownership": {"default": 0},
                "flags": {},
            }
        )
    return pack


def _table_result(
    table_id: str, result_id: str, name: str, text: str, span: list[int], version: int
) -> dict:
    """A TableResult in the shape of the target version (v13 split `text` into `name` and
    `description`, foundryvtt#12049)."""
    common = {
        "_id": result_id,
        "_key": _key("tables.results", table_id, result_id),
        "type": "text",
        "img": "icons/svg/d20-black.svg",
        "weight": span[1] - span[0] + 1,
        "range": span,
        "drawn": False,
        "flags": {},
    }
    if version >= 13:
        return {**common, "name": name, "description": _escape(text), "documentUuid": None}
    return {**common, "text": _escape(text), "documentCollection": "", "documentId": None}


def _escape(text: str) -> str:
    """Data text as Foundry HTML: inert for the enrichers, escaped."""
    return str(escape(inert(text)))


MACROS = (
    (SkillTest, "iris-skill-test", "Skill Test"),
    (StepDice, "t2k4e-roll", "Roll with Modifiers and Push"),
    (CufRating, "cuf-threat-check", "Threat Check"),
)


class JsLiteral(str):
    """A value written as a JavaScript literal by js_literal: the only thing a macro
    template may write."""


# JSON is JavaScript, but for these: U+2028 and U+2029 end a line (so a `//` comment) in
# a script, and `<`, `>`, `&` can close a <script> or open an HTML comment around it.
_JS_UNSAFE = {ord(ch): f"\\u{ord(ch):04x}" for ch in "\u2028\u2029<>&"}


def js_literal(value: object) -> JsLiteral:
    """`value` as JSON that is the same value in any JavaScript or HTML script context."""
    return JsLiteral(json.dumps(value, sort_keys=True, ensure_ascii=False).translate(_JS_UNSAFE))


def _only_literals(value: object) -> JsLiteral:
    """A macro template's every `{{ ... }}` is data: data reaches a script only as a
    literal, never as its source text or inside a comment."""
    if not isinstance(value, JsLiteral):
        raise TypeError(f"a macro template wrote {value!r}, not a js_literal()")
    return value


def macro_environment() -> jinja2.Environment:
    """The shipped macro templates (never overridden: they are code), writing literals only."""
    return templating.environment(
        TEMPLATES / "foundry" / "macros",
        autoescape=False,
        keep_trailing_newline=True,
        finalize=_only_literals,
    )


def _macros_pack(open_pack: OpenPack, ruleset: Ruleset, options: ModuleOptions) -> Pack:
    pack = open_pack("macros", f"{ruleset.info.title}: Macros", "Macro")
    env = macro_environment()
    for position, (kind, template, name) in enumerate(MACROS, 1):
        if ruleset.one(kind) is None:
            continue
        macro_id = _id(ruleset, "macro", template)
        command = env.get_template(f"{template}.js.j2").render(
            rules=js_literal(macro_rules(ruleset, template)),
            title=js_literal(f"{ruleset.info.title}: {name}"),
        )
        pack.add(
            {
                "_id": macro_id,
                "_key": _key("macros", macro_id),
                "name": name,
                "type": "script",
                "author": None,
                "img": "icons/svg/dice-target.svg",
                "scope": "global",
                "command": command,
                "folder": None,
                "sort": position * SORT_STEP,
                "ownership": {"default": 0},
                "flags": {},
            }
        )
    return pack


def macro_rules(ruleset: Ruleset, template: str) -> dict:
    """The rule data a macro script needs, taken from the compendium."""
    if template == "iris-skill-test":
        rule = ruleset.one(SkillTest)
        return {
            "die": rule.die,
            "dicePerRank": rule.dice_per_rank,
            "apByFace": {str(face): ap for face, ap in sorted(rule.ap_by_face.items())},
        }
    if template == "t2k4e-roll":
        step_dice, push, modifiers = (
            ruleset.one(StepDice),
            ruleset.one(PushRule),
            ruleset.one(ModifierRule),
        )
        group = ruleset.one(GroupRoll)
        return {
            "successes": [s.model_dump() for s in step_dice.successes],
            "steps": list(STEPS),
            "groupBonusPerHelper": group.bonus_per_helper if group else 0,
            "groupMaxBonus": group.max_bonus if group else 0,
            "rerolls": push.rerolls if push else "neither-one-nor-success",
            "highest": modifiers.highest_pool[0],
            "lowest": modifiers.lowest_pool[0],
        }
    thresholds = sorted(ruleset.all(ThreatThreshold), key=lambda t: t.exceeds)
    return {
        "multipliers": {name: float(value) for name, value in DIFFICULTY.items()},
        "thresholds": [
            {
                "id": t.id,
                "name": t.name,
                "exceeds": t.exceeds,
                "difficulty": t.check.difficulty,
                "asset": t.check.asset,
                "onFailure": t.on_failure.model_dump(),
                "onSuccess": t.on_success.model_dump(),
            }
            for t in thresholds
        ],
    }
