"""The `rules` pack: a JournalEntry per chapter of the guide, a page per section, and a
last entry with the sources' credits and every ruling taken."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import jinja2
from markupsafe import Markup

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.exporters.escaping import html_attribute, markdown_text
from rulepress.exporters.foundry.enrichers import inert
from rulepress.exporters.foundry.pack import Pack, Ready, ready_document
from rulepress.exporters.foundry.packs.common import (
    SORT_STEP,
    Module,
    ModuleOptions,
    Stats,
    document_id,
    key,
)
from rulepress.exporters.guide import Section, chapters, shown_at
from rulepress.exporters.markdown_text import render_section, to_html
from rulepress.exporters.templating import words_of
from rulepress.translations.words import fill


def journal_pages(ruleset: Ruleset, options: ModuleOptions) -> Callable[[str], str | None]:
    """uuid(document id): the `@UUID[...]` of the journal page showing that document."""
    where = shown_at(ruleset)

    def uuid(target_id: str) -> str | None:
        found = where.get(target_id)
        if found is None:
            return None
        chapter, section = found
        entry = document_id(ruleset, "journal", chapter.id)
        page = document_id(ruleset, "journal-page", section.id)
        return (
            f"@UUID[Compendium.{options.module_id}.rules.JournalEntry.{entry}"
            f".JournalEntryPage.{page}]"
        )

    return uuid


def _link_label(label: str) -> str:
    """A content link's label ends at `}`; `]` would end the link early in some parsers."""
    return label.replace("]", "").replace("}", "")


def journal_page(
    entry_id: str, page_id: str, name: str, html: str, number: int, stats: Stats
) -> dict:
    """A text JournalEntryPage: one section of a chapter."""
    return {
        "_id": page_id,
        "_key": key("journal.pages", entry_id, page_id),
        "name": name,
        "type": "text",
        "title": {"show": True, "level": 1},
        "text": {"content": html, "format": 1},
        "sort": number * SORT_STEP,
        "ownership": {"default": -1},
        "flags": {},
        "_stats": stats.field(),
    }


def journal_entry(entry_id: str, name: str, pages: list[dict], position: int, stats: Stats) -> dict:
    """A JournalEntry: one chapter, its sections as pages."""
    entry = {
        "_id": entry_id,
        "_key": key("journal", entry_id),
        "name": name,
        "pages": pages,
        "folder": None,
        "sort": position * SORT_STEP,
        "ownership": {"default": 0},
        "flags": {},
        "_stats": stats.field(),
    }
    if stats.foundry_version >= 13:
        entry["categories"] = []  # JournalEntryCategory is new in v13
    return entry


class Links:
    """Our own links to where a document is shown, written around its label (data, so
    made inert): in Markdown for the section templates, in HTML for the HTML ones."""

    def __init__(self, ruleset: Ruleset, options: ModuleOptions):
        """Each link a look-up of the document's journal page."""
        self.uuid = journal_pages(ruleset, options)

    def markdown(self, target_id: str, label: str) -> str:
        """A link in a Markdown section template."""
        target = self.uuid(target_id)
        text = inert(label if target is None else _link_label(label))
        return markdown_text(text) if target is None else f"{target}{{{markdown_text(text)}}}"

    def html(self, target_id: str, label: str) -> Markup:
        """A link in an HTML template."""
        target = self.uuid(target_id)
        if target is None:
            return html_attribute(inert(label))
        return Markup("{}{{{}}}").format(Markup(target), inert(_link_label(label)))


def rules_pack(module: Module) -> Pack:
    """The `rules` pack: the guide's chapters as journal entries, then the credits and rulings."""
    ruleset = module.ruleset
    words = words_of(module.env)
    label = fill(words["rules_pack"], title=ruleset.info.title)
    pack = module.open_pack("rules", label, "JournalEntry")
    parts = chapters(ruleset)
    links = Links(ruleset, module.options)
    stats = module.options.stats()

    def render_page(section: Section) -> str:
        if section.journal:
            hook = kinds.load_hook(section.journal)
            return hook(section, ruleset, links, module.shared)
        # The page's title is its h1: headings inside the page start at h2.
        return to_html(render_section(module.env, section, ruleset, links.markdown, heading=1))

    def make_page(entry_id: str, section: Section, number: int) -> dict:
        page_id = document_id(ruleset, "journal-page", section.id)
        return journal_page(entry_id, page_id, section.title, render_page(section), number, stats)

    def page(entry_id: str, section: Section, number: int) -> dict:
        place = (entry_id, section.id, section.title, section.template, section.journal, number)
        made = partial(make_page, entry_id, section, number)
        return module.piece(("journal-page", *place), section.documents, made)

    def ready_entry(entry_id: str, title: str, pages: list[dict], position: int) -> Ready:
        entry = journal_entry(entry_id, title, pages, position, stats)
        return ready_document(entry, module.pieces)

    for position, chapter in enumerate(parts, 1):
        entry_id = document_id(ruleset, "journal", chapter.id)
        pages = [page(entry_id, section, n) for n, section in enumerate(chapter.sections, 1)]
        # kept whole while its pages are (a watch run: its file is then left as it is)
        made = partial(ready_entry, entry_id, chapter.title, pages, position)
        pack.keep(
            module.piece(("journal-entry", entry_id, chapter.title, position), tuple(pages), made)
        )
    pack.add(_credits_entry(ruleset, module.shared.html, len(pack.documents) + 1, stats))
    return pack


def _credits_entry(ruleset: Ruleset, env: jinja2.Environment, position: int, stats: Stats) -> dict:
    """A last journal entry: the sources' credits and every ruling taken."""
    entry_id = document_id(ruleset, "journal", "about-these-rules")
    words = words_of(env)
    parts = (
        ("sources", words["sources"], "credits.html.j2", {"info": ruleset.info}),
        ("rulings", words["rulings"], "rulings.html.j2", {"rulings": ruleset.rulings()}),
    )
    pages = [
        journal_page(
            entry_id,
            document_id(ruleset, "journal-page", f"about-{slug}"),
            name,
            env.get_template(template).render(**context).strip(),
            number,
            stats,
        )
        for number, (slug, name, template, context) in enumerate(parts, 1)
    ]
    return journal_entry(entry_id, words["about_these_rules"], pages, position, stats)
