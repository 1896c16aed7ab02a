"""How a ruleset reads as a book: chapters of sections, each section a template.

The Markdown guide, the Foundry journal (a JournalEntry per chapter, a page per section)
and the site all walk the same chapters, so a rule reads the same everywhere. Which
sections a kind's documents make, and with which template, is the kind's registry entry
(rulepress.kinds); which chapter holds them, and the chapters' order and titles, are the
ruleset's `chapters` in `ruleset.yaml`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, cached_property

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.models import Document
from rulepress.output_names import GENERATED_NAMES, slug
from rulepress.per_object import PerObject


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
    return list(_outline(ruleset)[0])


_OUTLINES = PerObject()
"""Each ruleset's chapters and clashes, worked out once while it lives: the guide, the
Foundry journal, the JSON and RP226 each ask for them on every edit a watch follows."""


def _outline(ruleset: Ruleset) -> tuple[list[Chapter], list[Clash]]:
    return _OUTLINES.get(ruleset, lambda r: _unique_ids(_chapters_as_named(r), r))


def anchor_clashes(ruleset: Ruleset) -> list[Clash]:
    """Each place where the guide's outline gives one anchor twice, in reading order:
    what `chapters` renames (`-2`) or lets share a name (check RP226 reports them)."""
    return list(_outline(ruleset)[1])


def _chapters_as_named(ruleset: Ruleset) -> list[Chapter]:
    """The chapters in reading order, each id the slug of its title, each section's the
    id its kind gives it: before `_unique_ids` makes them unique."""
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
    return [
        Chapter(
            slug(title),
            title,
            tuple(section for _, section in sorted(by_chapter[title], key=lambda s: s[0])),
        )
        for title in planned + others
    ]


@dataclass(frozen=True)
class Anchor:
    """A name the guide gives a place in its one page: a chapter's, a section's or a
    document's anchor, and the data that holds the name."""

    name: str
    what: str
    """What has the anchor, for a message: `chapter 'Combat'`, `section 'Pistols'`."""
    document: Document | None = None
    """The document whose data holds the name; None: `ruleset.yaml` (with a `path`),
    or no data at all (a kind's own chapter or section name, with no `path`)."""
    path: tuple = ()
    """Where in the document, or in `ruleset.yaml`, the name is held."""

    @property
    def held(self) -> bool:
        """The data holds the name, so a contributor can change it."""
        return self.document is not None or bool(self.path)


@dataclass(frozen=True)
class Clash:
    """An anchor the guide already gave: `later` is renamed `given`, or shares the
    name (`given` is the name itself)."""

    later: Anchor
    earlier: Anchor
    given: str


def _chapter_anchor(ruleset: Ruleset, chapter: Chapter) -> Anchor:
    """The chapter's anchor and what names it: the ruleset's chapter plan, a document's
    own chapter (a rule text's `chapter:`), or else the kind's default chapter."""
    what = f"chapter {chapter.title!r}"
    for number, plan in enumerate(ruleset.info.chapters):
        if plan.title == chapter.title:
            return Anchor(chapter.id, what, None, ("chapters", number, "title"))
    for section in chapter.sections:
        for document in section.documents:
            named = _may_name_a_chapter(type(document))
            if named and getattr(document, "chapter", None) == chapter.title:
                return Anchor(chapter.id, what, document, ("chapter",))
    return Anchor(chapter.id, what)


@cache
def _may_name_a_chapter(model: type) -> bool:
    """Whether a kind's documents have a `chapter` (a rule text's field): asked of the
    class once, not of each of 10,000 weapons (a pydantic model's missing attribute is
    slow to miss)."""
    fields = getattr(model, "model_fields", {})
    config = getattr(model, "model_config", {})
    return "chapter" in fields or hasattr(model, "chapter") or config.get("extra") == "allow"


def _section_anchor(section: Section) -> Anchor:
    """The section's anchor: its document's id, or a name its kind makes (no data's)."""
    what = f"section {section.title!r}"
    if section.id == section.document.id:
        return Anchor(section.id, what, section.document, ("id",))
    return Anchor(section.id, what)


def _document_anchors(section: Section) -> list[Anchor]:
    """The anchors of each document of a section that gives them one of their own (a
    weapon's id and previous ids, so old links land): the site's and the guide's."""
    if not section.anchor_per_document:
        return []
    return [
        Anchor(name, f"{document.kind} {document.id!r}", document, path)
        for document in section.documents
        if document.id != section.id
        for path, name in [
            (("id",), document.id),
            *((("previous_ids", n), old) for n, old in enumerate(document.previous_ids)),
        ]
    ]


def _unique_ids(parts: list[Chapter], ruleset: Ruleset) -> tuple[list[Chapter], list[Clash]]:
    """Chapter and section ids become anchors, pages and Foundry ids: make each unique
    ("A B" and "A-B" both slug to `a-b`), never one of the GENERATED_NAMES (check
    RP223 refuses data that would take one), and say where the data's names clashed.
    A section whose id is its chapter's shares the chapter's anchor: where it begins the
    chapter, that is where it starts; elsewhere in the chapter, a clash. Documents'
    own anchors are kept as they are (links name them): their clashes are only reported."""
    used: set[str] = set(GENERATED_NAMES)
    taken: dict[str, Anchor] = {}  # each name given, and what it was given to first
    clashes: list[Clash] = []

    def claim(anchor: Anchor, rename: bool = True) -> str:
        candidate, number = anchor.name, 2
        if rename:  # a document's own anchor never renames what comes after it
            while candidate in used:
                candidate, number = f"{anchor.name}-{number}", number + 1
            used.add(candidate)
        if anchor.name in taken:
            clashes.append(Clash(anchor, taken[anchor.name], candidate))
        taken.setdefault(candidate, anchor)
        return candidate

    unique = []
    for chapter in parts:
        chapter_id = claim(_chapter_anchor(ruleset, chapter))
        sections = []
        for position, section in enumerate(chapter.sections):
            if section.id == chapter_id:
                if position:
                    clashes.append(Clash(_section_anchor(section), taken[chapter_id], chapter_id))
                sections.append(section)
            else:
                sections.append(replace(section, id=claim(_section_anchor(section))))
            for anchor in _document_anchors(section):
                claim(anchor, rename=False)
        unique.append(Chapter(chapter_id, chapter.title, tuple(sections)))
    return unique, clashes


_SHOWN = PerObject()
"""Each ruleset's `section_of` its chapters, worked out once while it lives: the guide
and the Foundry journal's links both look documents up on every edit a watch follows."""


def shown_at(ruleset: Ruleset) -> dict[str, tuple[Chapter, Section]]:
    """Where each document id of the ruleset is shown (`section_of` its `chapters`)."""
    return _SHOWN.get(ruleset, lambda r: section_of(chapters(r)))


def section_of(chapters_: list[Chapter]) -> dict[str, tuple[Chapter, Section]]:
    """Where each document id is shown: the first section that holds it."""
    where: dict[str, tuple[Chapter, Section]] = {}
    for chapter in chapters_:
        for section in chapter.sections:
            for doc in section.documents:
                where.setdefault(doc.id, (chapter, section))
    return where
