"""Where each document of the site shows (its page and anchor), the links between
pages, what a page reads (`PageInputs`), and the navigation: a page by chapter, folders of a
long nav, the edit links."""

from __future__ import annotations

import itertools
import os
import posixpath
from pathlib import Path
from urllib.parse import quote

from markdown.extensions import toc

from rulepress.compendium.model import Compendium, Ruleset
from rulepress.exporters.escaping import (
    html_text,
    html_url,
    markdown_link,
    markdown_text,
    yaml_front_matter,
)
from rulepress.exporters.guide import Chapter, Section, chapters
from rulepress.live import Changes

# Material writes the whole visible navigation into every page: 1,000 weapon-section
# pages listed flat made nine tenths of each page navigation and the build quadratic.
NAV_FOLDER_SIZE = 50


def page_of(ruleset: Ruleset, chapter: Chapter, section: Section) -> str:
    """The page (path below docs/) that shows a section: its chapter's page, or its own
    in the chapter's folder (a weapon section's)."""
    if chapter.page_per_section:
        return f"{ruleset.id}/{chapter.id}/{section.id}.md"
    return f"{ruleset.id}/{chapter.id}.md"


def site_places(ruleset: Ruleset, parts: list[Chapter]) -> dict[str, str]:
    """document id -> `page#anchor` where the site shows it."""
    where: dict[str, str] = {}
    for chapter in parts:
        for section in chapter.sections:
            for doc in section.documents:
                anchor = (
                    doc.id if section.anchor_per_document and doc.id != section.id else section.id
                )
                where.setdefault(doc.id, f"{page_of(ruleset, chapter, section)}#{anchor}")
    return where


def own_page_documents(parts: list[Chapter]) -> frozenset[str]:
    """Ids of the documents shown only on their section's page of its own (a weapon
    section's page: its section and weapons), on no page of a chapter."""
    own: set[str] = set()
    shared: set[str] = set()
    for chapter in parts:
        shown = own if chapter.page_per_section else shared
        shown.update(doc.id for section in chapter.sections for doc in section.documents)
    return frozenset(own - shared)


class PageInputs:
    """What each page that reads many documents (a ruleset's overview, rulings, known
    problems; the Changes page) was last rendered from, kept by the live preview between
    updates: a write of `only` some documents renders such a page again only when its
    inputs differ (a document kept is the same object, so comparing is cheap)."""

    def __init__(self) -> None:
        """Nothing rendered yet."""
        self._inputs: dict[str, object] = {}
        self._outlines: dict[str, list[tuple[Ruleset, list[Chapter], dict[str, str]]]] = {}

    def outline(self, ruleset: Ruleset) -> tuple[list[Chapter], dict[str, str]]:
        """The ruleset's chapters and where the site shows each document (`site_places`),
        worked out once per ruleset object: an update compares the last one with the new
        one, then writes the new one's pages. The last two of each ruleset are kept."""
        kept = self._outlines.get(ruleset.id, [])
        for held, parts, places in kept:
            if held is ruleset:
                return parts, places
        parts = chapters(ruleset)
        places = site_places(ruleset, parts)
        self._outlines[ruleset.id] = [(ruleset, parts, places), *kept[:1]]
        return parts, places

    def unchanged(self, page: str, inputs: object, *, consult: bool) -> bool:
        """True if `consult` and `page` was last rendered from `inputs`; else note them as
        the page's (the caller renders it)."""
        if consult and page in self._inputs and self._inputs[page] == inputs:
            return True
        self._inputs[page] = inputs
        return False

    def forget_pages(self) -> None:
        """Forget every page's inputs: a whole write renders each page again, and removes
        the pages it does not write, which a later update must not think still there."""
        self._inputs.clear()


def changed_own_pages(
    changes: Changes, inputs: PageInputs | None = None
) -> dict[str, frozenset[str]] | None:
    """What `write_pages(only=...)` must refresh after `changes`: ruleset id -> the changed
    documents, when each of them is shown, before and after, only on its section's own
    page and every document of the ruleset keeps its page and anchor (so no other page's
    links or sections move). A section's own page reads only its documents and the
    ruleset's chapter pages' documents (a weapon section names its skill): a change to
    those is not an own page's, and so writes the site whole. None: write it whole.
    `inputs` keeps each ruleset's outline between calls."""
    if changes.settings or changes.rulesets:
        return None
    inputs = inputs or PageInputs()
    for ruleset_id, ids in changes.documents.items():
        parts_before, places_before = inputs.outline(changes.previous.rulesets[ruleset_id])
        parts_after, places_after = inputs.outline(changes.current.rulesets[ruleset_id])
        if places_before != places_after:
            return None
        if not ids <= own_page_documents(parts_before) & own_page_documents(parts_after):
            return None
    return dict(changes.documents)


def site_link(where: dict[str, str], current_page: str):
    """A Linker to where a document is shown, relative to the page being written."""

    def link(document_id: str, label: str) -> str:
        target = where.get(document_id)
        if target is None:
            return markdown_text(label)
        path, anchor = target.split("#")
        relative = posixpath.relpath(path, posixpath.dirname(current_page) or ".")
        return markdown_link(label, f"{relative}#{anchor}")

    return link


def nav_folders(entries: list[dict], size: int = NAV_FOLDER_SIZE) -> list[dict]:
    """`entries` as they are when there are at most `size`, else shared evenly among as
    few folders as hold them, each named after its first and last page (folders of
    folders when there are many)."""
    if len(entries) <= size:
        return entries
    count = -(-len(entries) // size)
    bounds = [len(entries) * number // count for number in range(count + 1)]
    folders = []
    for start, end in itertools.pairwise(bounds):
        chunk = entries[start:end]
        first, last = _page_title(chunk[0], first=True), _page_title(chunk[-1], first=False)
        folders.append({f"{first} – {last}": chunk})
    return nav_folders(folders, size)


def _page_title(entry: dict, *, first: bool) -> str:
    """The title of the first (or last) page below a navigation entry."""
    title, below = next(iter(entry.items()))
    if isinstance(below, list):
        return _page_title(below[0] if first else below[-1], first=first)
    return title


class EditLinks:
    """The "edit this page" links: the web page that edits a YAML file of the content
    repository, when the settings name the repository (else none)."""

    def __init__(self, compendium: Compendium):
        """Read the repository's address and folder from the settings once, for every page."""
        publisher = compendium.settings
        site = publisher.settings.site
        folder = publisher.repository_folder
        self.base = f"{site.repository.rstrip('/')}/{site.edit_path}" if site.repository else None
        self.folder = Path(os.path.abspath(folder)) if folder else None

    def url(self, file: Path) -> str | None:
        """The edit link of `file`, if it lies in the repository (by its path, not where
        a link leads: the path is what the repository holds)."""
        if self.base is None or self.folder is None:
            return None
        try:
            relative = Path(os.path.abspath(file)).relative_to(self.folder)
        except ValueError:
            return None
        return self.base + quote(relative.as_posix())

    def front_matter(self, file: Path | None, boost: float | None = None) -> str:
        """A page's front matter: its edit link (see mkdocs_hooks) when `file` is in the
        repository, and its search weight when given; "" when neither."""
        fields: dict = {}
        url = self.url(file) if file is not None else None
        if url:  # Material writes it into an href as it is
            fields["edit_url"] = str(html_url(url))
        if boost is not None:
            fields["search"] = {"boost": boost}
        return yaml_front_matter(fields)

    def section_link(self, file: Path) -> str:
        """A section's own edit link, on a page built from several files, or ""."""
        url = self.url(file)
        if url is None:
            return ""
        href = html_url(url)
        return f'<p class="rp-edit"><a href="{href}" rel="edit">Edit this section</a></p>\n\n'


def nav_title(text: str) -> str:
    """Material puts navigation titles into every page as they are: escape them here."""
    return html_text(text)


def heading_anchor(text: str) -> str:
    """The anchor mkdocs gives a heading of `text`: a page keeps an old heading's anchor
    when its heading changes (a ruling's slug became its question), so links still land."""
    return toc.slugify(text, "-")
