"""How a ruleset reads as a book: chapters of sections, each section a template.

The Markdown guide, the Foundry journal (a JournalEntry per chapter, a page per section)
and the site all walk the same chapters, so a rule reads the same everywhere. Which
sections a kind's documents make, and with which template, is the kind's registry entry
(rulepress.kinds); which chapter holds them, and the chapters' order and titles, are the
ruleset's `chapters` in `ruleset.yaml`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.models import Document
from rulepress.output_names import GENERATED_NAMES, slug


@dataclass(frozen=True)
class Section:
    """A titled part of a chapter: a Foundry journal page, a guide heading, a site section."""

    id: str
    """Unique within the ruleset; the anchor and the source of the page's Foundry id."""
    title: str
    template: str
    documents: tuple[Document, ...]
    page_per_section: bool = False
    """On the site, the section is a page of its own."""
    anchor_per_document: bool = False
    """Each document of the section has an anchor of its own."""
    helpers: str | None = None
    """The kind's template helpers (rulepress.kinds.Guide.helpers)."""
    journal: str | None = None
    """The kind's own Foundry journal page (rulepress.kinds.Guide.journal)."""

    @classmethod
    def of(
        cls, guide: kinds.Guide, id_: str, title: str, documents: tuple[Document, ...]
    ) -> Section:
        """A section of a kind's documents, rendered as the kind's guide entry says."""
        return cls(
            id_,
            title,
            guide.template,
            documents,
            guide.page_per_section,
            guide.anchor_per_document,
            guide.helpers,
            guide.journal,
        )

    @property
    def document(self) -> Document:
        """The section's one document, for a kind whose sections hold one each."""
        return self.documents[0]


@dataclass(frozen=True)
class Chapter:
    """A chapter of the guide: a Foundry journal entry, a heading of the Markdown guide, a part
    of the site."""

    id: str
    title: str
    sections: tuple[Section, ...]

    @cached_property
    def page_per_section(self) -> bool:
        """On the site, every section of the chapter is a page of its own (worked out once:
        the site asks for each of a thousand weapon sections' pages)."""
        return all(section.page_per_section for section in self.sections)


def chapters(ruleset: Ruleset) -> list[Chapter]:
    """The ruleset's chapters in reading order, drafts left out."""
    placed = {kind: plan.title for plan in ruleset.info.chapters for kind in plan.kinds}
    by_chapter: dict[str, list[tuple[tuple, Section]]] = {}
    for index, kind in enumerate(kinds.registry().values()):
        guide = kind.guide
        documents = ruleset.all(kind.model) if guide else []
        if not documents:
            continue
        default_chapter = placed.get(kind.name, guide.chapter)
        for position, part in enumerate(guide.parts(documents, ruleset)):
            section = Section.of(guide, part.id, part.title, part.documents)
            order = (guide.order + part.order, index, position)
            by_chapter.setdefault(part.chapter or default_chapter, []).append((order, section))
    planned = [plan.title for plan in ruleset.info.chapters if plan.title in by_chapter]
    others = sorted(title for title in by_chapter if title not in planned)
    return _unique_ids(
        [
            Chapter(
                slug(title),
                title,
                tuple(section for _, section in sorted(by_chapter[title], key=lambda s: s[0])),
            )
            for title in planned + others
        ]
    )


def _unique_ids(parts: list[Chapter]) -> list[Chapter]:
    """Chapter and section ids become anchors, pages and Foundry ids: make each unique
    ("A B" and "A-B" both slug to `a-b`; a rule may share its id with a section), and
    never one of the GENERATED_NAMES."""
    used: set[str] = set(GENERATED_NAMES)

    def claim(wanted: str) -> str:
        candidate, number = wanted, 2
        while candidate in used:
            candidate, number = f"{wanted}-{number}", number + 1
        used.add(candidate)
        return candidate

    unique = []
    for chapter in parts:
        chapter_id = claim(chapter.id)
        sections = tuple(
            replace(s, id=s.id if s.id == chapter_id else claim(s.id)) for s in chapter.sections
        )
        unique.append(Chapter(chapter_id, chapter.title, sections))
    return unique


def section_of(chapters_: list[Chapter]) -> dict[str, tuple[Chapter, Section]]:
    """Where each document id is shown: the first section that holds it."""
    where: dict[str, tuple[Chapter, Section]] = {}
    for chapter in chapters_:
        for section in chapter.sections:
            for doc in section.documents:
                where.setdefault(doc.id, (chapter, section))
    return where
