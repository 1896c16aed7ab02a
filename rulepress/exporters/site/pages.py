"""Generate the mkdocs project of the rules site from the compendium.

Pages: a home page; per ruleset an overview (with odds charts), a page per chapter
(the Weapons chapter a page per weapon section), a calculator where its kinds have one,
rulings (a hundred to a page) and sources; a contributors' page generated from the
validator's checks. The glossary of every ruleset is appended to every page, so rule
terms show their definition on hover.
"""

from __future__ import annotations

import io
import itertools
import os
import posixpath
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

import jinja2
from markdown.extensions import toc
from ruamel.yaml import YAML

from rulepress.compendium.model import Compendium, Ruleset
from rulepress.errors import CODE_DOCS, Code, Finding
from rulepress.exporters import templating
from rulepress.exporters.escaping import (
    html_attribute,
    html_text,
    html_url,
    markdown_abbreviation,
    markdown_link,
    markdown_text,
    yaml_front_matter,
)
from rulepress.exporters.guide import Chapter, Section, chapters
from rulepress.exporters.markdown_text import TEMPLATES, environment, render_section
from rulepress.exporters.site.calculators import calculator_page, calculators_for, game_scripts
from rulepress.exporters.site.charts import Chart, charts_by_kind
from rulepress.history import Revision, history
from rulepress.live import Changes
from rulepress.models import Document
from rulepress.models.settings import Settings, SiteSettings
from rulepress.validators import registered_checks

# The site's own files (mkdocs.yml, home-page text, stylesheet, script, theme overrides):
# package data, so an installed rulepress builds a site without this repository.
SITE = Path(__file__).resolve().parent / "assets"
HOOKS = Path(__file__).resolve().parent / "mkdocs_hooks.py"
REDIRECT = """# {title}

<meta http-equiv="refresh" content="0; url={target}">

This page has moved to {link}.
"""
# Material writes the whole visible navigation into every page: 1,000 weapon-section
# pages listed flat made nine tenths of each page navigation and the build quadratic.
NAV_FOLDER_SIZE = 50
# Material's search plugin looks up each heading of a page in the page's table of contents
# one entry at a time: a page of n headings costs n**2 (one page of 20,000 rulings, 102 s
# of a build). Rulings are shown this many to a page, so the cost grows with their number.
RULINGS_PER_PAGE = 100
DOWNLOADS = "downloads"
"""The site's folder of each ruleset's guide, Foundry module zip and JSON."""
RULE_BOOST = 2
"""Search weight of a page of rules (a chapter, a weapon section): a rule's own section
ranks above the rulings and contributors' pages that mention its words."""
ASIDE_BOOST = 0.5
"""Search weight of the pages about the rules rather than the rules themselves: rulings,
known problems, sources, changes, contributing."""
PUBLISHER_FILES = "_publisher"
"""Where the files the settings name (logo, favicon, stylesheets, scripts) go: no ruleset's id,
which is a slug, can be this name."""


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


class SiteProject:
    """Writes the project's files, touching only those whose text changed (so a live
    preview, whose mkdocs rebuilds the pages newer than their HTML, rebuilds only those)."""

    def __init__(self, folder: Path):
        """The project goes in `folder`; its pages in `docs/` there, as mkdocs expects."""
        self.folder = folder
        self.docs = folder / "docs"
        self.written: set[Path] = set()
        """The files this run rendered (and wrote, if their bytes changed)."""
        self.changed: set[Path] = set()
        """The files this run wrote other bytes into (new ones among them)."""
        self.added: set[Path] = set()
        """The files this run created."""
        self.removed: set[Path] = set()
        """The files `remove_stale` deleted."""
        self.scripts: list[tuple[str, bytes]] = []
        """The games' calculator scripts the pages need, in load order (`write_pages`
        writes them, `write_config` lists them)."""

    def write(self, relative: str, text: str, *, docs: bool = True) -> None:
        """Write a page (or, with `docs=False`, a project file) unless it already holds `text`."""
        self.write_bytes(relative, text.encode("utf-8"), docs=docs)

    def write_bytes(self, relative: str, data: bytes, *, docs: bool = True) -> None:
        """Write a file of the site as it is (an image, a stylesheet), unless it already
        holds `data`."""
        path = (self.docs if docs else self.folder) / relative
        if path in self.written:  # a page named like another would silently replace it
            raise RuntimeError(f"two pages of the site would be written to {relative}")
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.is_file()
        if not existed or path.read_bytes() != data:
            path.write_bytes(data)
            self.changed.add(path)
            if not existed:
                self.added.add(path)
        self.written.add(path)

    def remove_stale(self) -> None:
        """Delete the pages an earlier run wrote that this one did not."""
        for path in sorted(self.docs.rglob("*"), reverse=True):
            if path.is_file() and path not in self.written:
                path.unlink()
                self.removed.add(path)


def pages_environment(
    templates: Path | None = None, sections: jinja2.Environment | None = None
) -> jinja2.Environment:
    """The environment of the site's page templates, with the filters of `sections` (the
    section templates' environment, made here when not given). The project's own
    documentation renders the finding codes with it too."""
    pages_env = templating.environment(
        TEMPLATES / "site",
        templates,
        autoescape=False,  # Markdown: values are escaped by the md filters, as in sections
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    pages_env.filters.update((sections or environment(templates)).filters)
    pages_env.filters["heading_anchor"] = heading_anchor
    return pages_env


def site_environments(
    templates: Path | None = None,
) -> tuple[jinja2.Environment, jinja2.Environment]:
    """The section templates' environment and the site's page templates' environment."""
    env = environment(templates)
    return env, pages_environment(templates, env)


def heading_anchor(text: str) -> str:
    """The anchor mkdocs gives a heading of `text`: a page keeps an old heading's anchor
    when its heading changes (a ruling's slug became its question), so links still land."""
    return toc.slugify(text, "-")


def finding_codes() -> dict:
    """What `finding-codes.md.j2` shows: every reading and model code, rulepress's checks,
    then each plugin's checks under its package, by package name."""
    by_package: dict[str, list] = {}
    for registered in sorted(registered_checks(), key=lambda c: c.code):
        by_package.setdefault(registered.origin, []).append(registered)
    return {
        "checks": by_package.pop("rulepress", []),
        "plugin_checks": sorted(by_package.items()),
        "codes": CODE_DOCS,
        "code_names": {code.value: code.slug for code in Code},
    }


def generate(
    compendium: Compendium,
    folder: Path,
    templates: Path | None = None,
    hooks: tuple[str, ...] = (),
    revisions: list[Revision] | None = None,
) -> Path:
    """Write the mkdocs project into `folder`; return the path of its mkdocs.yml.
    `hooks` names mkdocs hook files in `folder`; `revisions` is the Changes page's
    history when the caller has it (else read from git here)."""
    project = SiteProject(folder)
    nav = write_pages(
        project, compendium, templates, history(compendium) if revisions is None else revisions
    )
    project.remove_stale()
    return write_config(project, nav, hooks, compendium.settings.settings.site)


def write_pages(
    project: SiteProject,
    compendium: Compendium,
    templates: Path | None,
    revisions: list[Revision],
    only: Mapping[str, frozenset[str]] | None = None,
    environments: tuple[jinja2.Environment, jinja2.Environment] | None = None,
    inputs: PageInputs | None = None,
) -> list:
    """Write the site's pages (not its mkdocs.yml) into `project`; return the navigation.
    Only a page's changed bytes reach the disk.
    With `only` (ruleset id -> ids of documents that changed, as `changed_own_pages`
    gives: no settings, ruleset file or page's place changed), the live preview's update,
    where the other pages are as the last run wrote them: a section's page of its own is
    rendered only if it shows one of them (a ruleset not named keeps every such page);
    the pages that read only the settings, the rulesets' files or the package's own
    files (home, sources, contributing, glossary, assets) are not rendered; the pages
    that read many documents are rendered when their `inputs` changed (every time
    without `inputs`); a chapter's page (a few shared documents) and the calculator are.
    `environments` are `site_environments(templates)` made once, for a caller that writes
    the pages again and again (compiling the templates costs more than an update)."""
    env, pages_env = environments or site_environments(templates)
    inputs = inputs or PageInputs()
    fixed = only is not None  # the pages of the settings and the rulesets' files are kept
    if not fixed:
        inputs.forget_pages()
    nav: list = [{"Home": "index.md"}]
    rulesets = list(compendium)
    settings = compendium.settings.settings
    edit = EditLinks(compendium)
    if not fixed:
        project.write(
            "index.md",
            pages_env.get_template("home.md.j2").render(
                title=settings.site.title,
                rulesets=rulesets,
                intro=(SITE / "home.md").read_text(encoding="utf-8"),
                downloads=[downloads_of(ruleset, settings) for ruleset in rulesets],
            ),
        )
    for ruleset in rulesets:
        nav.append(
            {
                nav_title(ruleset.info.title): _ruleset_pages(
                    project,
                    pages_env,
                    env,
                    ruleset,
                    edit,
                    compendium.errata_of(ruleset),
                    None if only is None else only.get(ruleset.id, frozenset()),
                    inputs,
                )
            }
        )
    project.scripts = list(game_scripts(rulesets).items())
    for where, script in project.scripts:
        project.write_bytes(where, script)
    if revisions:
        titles = {ruleset.id: ruleset.info.title for ruleset in rulesets}
        if not inputs.unchanged("changes.md", (revisions, titles), consult=fixed):
            changes = edit.front_matter(None, ASIDE_BOOST) + pages_env.get_template(
                "changes.md.j2"
            ).render(revisions=revisions, titles=titles)
            project.write("changes.md", changes)
        nav.append({"Changes": "changes.md"})
    nav.append({"Contributing": "contributing.md"})
    if fixed:
        return nav
    project.write(
        "contributing.md",
        edit.front_matter(None, ASIDE_BOOST)
        + pages_env.get_template("contributing.md.j2").render(**finding_codes()),
    )
    for asset in (
        "stylesheets/extra.css",
        "javascripts/iframe-worker-shim.js",
        "javascripts/calculator.js",
    ):
        project.write(asset, (SITE / asset).read_text(encoding="utf-8"))
    for name, data in compendium.settings.assets.items():
        project.write_bytes(f"{PUBLISHER_FILES}/{name}", data)
    project.write("includes/glossary.md", _glossary(rulesets), docs=False)
    return nav


def _ruleset_pages(
    project: SiteProject,
    pages_env,
    env,
    ruleset: Ruleset,
    edit: EditLinks,
    errata: list[tuple[Document, Finding]],
    only: frozenset[str] | None = None,
    inputs: PageInputs | None = None,
) -> list:
    """Write one ruleset's pages (see `write_pages` for `only` and `inputs`); return its
    navigation."""
    inputs = inputs or PageInputs()
    fixed = only is not None
    parts, places = inputs.outline(ruleset)
    by_kind = charts_by_kind(ruleset)
    charts = {
        name: chart for kind_charts in by_kind.values() for name, chart in kind_charts.items()
    }
    for name, chart in charts.items():
        project.write(f"assets/{name}", chart.svg)
    base = ruleset.id
    ruleset_file = ruleset.info_source.file
    outline = tuple(
        (c.id, c.title, c.page_per_section, tuple((s.id, s.title) for s in c.sections))
        for c in parts
    )
    overview = (ruleset.info, outline, tuple(charts.items()))
    if not inputs.unchanged(f"{base}/index.md", overview, consult=fixed):
        project.write(
            f"{base}/index.md",
            edit.front_matter(ruleset_file)
            + pages_env.get_template("ruleset.md.j2").render(
                ruleset=ruleset,
                info=ruleset.info,
                chapters=parts,
                charts=charts,
                page_of=lambda chapter, section: posixpath.relpath(
                    page_of(ruleset, chapter, section), base
                ),
            ),
        )
    nav: list = [{"Overview": f"{base}/index.md"}]
    for chapter in parts:
        if chapter.page_per_section:
            pages_nav = []
            for section in chapter.sections:
                page = page_of(ruleset, chapter, section)
                pages_nav.append({nav_title(section.title): page})
                if only is not None and only.isdisjoint(d.id for d in section.documents):
                    continue
                body = render_section(env, section, ruleset, site_link(places, page), heading=1)
                body += "".join(_chart_blocks(pages_env, by_kind, (section,), page))
                front = edit.front_matter(_file_of(ruleset, section), RULE_BOOST)
                project.write(page, f"{front}# {markdown_text(section.title)}\n\n{body}")
                for old in section.document.previous_ids:  # links to a renamed page still land
                    project.write(
                        f"{base}/{chapter.id}/{old}.md",
                        REDIRECT.format(
                            target=html_url(f"{section.id}.html"),
                            link=markdown_link(section.title, f"{section.id}.md"),
                            title=markdown_text(section.title),
                        ),
                    )
            nav.append({nav_title(chapter.title): nav_folders(pages_nav)})
            continue
        page = page_of(ruleset, chapter, chapter.sections[0])
        link = site_link(places, page)
        files = [_file_of(ruleset, section) for section in chapter.sections]
        one_file = len(set(files)) == 1
        front = edit.front_matter(files[0] if one_file else None, RULE_BOOST)
        blocks = [f"{front}# {markdown_text(chapter.title)}\n"]
        for section, file in zip(chapter.sections, files, strict=True):
            heading = (
                "" if section.title == chapter.title else f"## {markdown_text(section.title)}\n\n"
            )
            own_link = "" if one_file else edit.section_link(file)
            blocks.append(
                f'<a id="{html_attribute(section.id)}"></a>\n\n{heading}{own_link}'
                f"{render_section(env, section, ruleset, link, heading=2)}"
            )
        blocks += _chart_blocks(pages_env, by_kind, chapter.sections, page)
        project.write(page, "\n".join(blocks))
        nav.append({nav_title(chapter.title): page})
    calculators = calculators_for(ruleset)
    if calculators:
        project.write(
            f"{base}/calculator.md",
            edit.front_matter(None, ASIDE_BOOST)
            + calculator_page(f"{markdown_text(ruleset.info.title)}: Calculator", calculators),
        )
        nav.append({"Calculator": f"{base}/calculator.md"})
    nav.append({"Rulings": _rulings_pages(project, pages_env, ruleset, edit, inputs, fixed)})
    if errata:
        if not inputs.unchanged(f"{base}/errata.md", (ruleset.info, errata), consult=fixed):
            project.write(
                f"{base}/errata.md",
                edit.front_matter(None, ASIDE_BOOST)
                + pages_env.get_template("errata.md.j2").render(ruleset=ruleset, errata=errata),
            )
        nav.append({"Known problems": f"{base}/errata.md"})
    if not fixed:
        project.write(
            f"{base}/sources.md",
            edit.front_matter(ruleset_file, ASIDE_BOOST)
            + pages_env.get_template("sources.md.j2").render(info=ruleset.info),
        )
    nav.append({"Sources": f"{base}/sources.md"})
    return nav


def _chart_blocks(
    pages_env, by_kind: dict[str, dict[str, Chart]], sections: tuple[Section, ...], page: str
) -> list[str]:
    """The charts of the kinds whose documents `sections` show, for their page `page`
    (the overview shows them too)."""
    shown = {document.KIND for section in sections for document in section.documents}
    template = pages_env.get_template("chart.md.j2")
    assets = posixpath.relpath("assets", posixpath.dirname(page))
    return [
        template.render(name=name, chart=chart, level="##", assets=assets)
        for kind, charts in by_kind.items()
        if kind in shown
        for name, chart in charts.items()
    ]


def _file_of(ruleset: Ruleset, section: Section) -> Path:
    """The YAML file a section is built from: its first document's."""
    entry = ruleset.entry(section.document.id)
    return entry.file if entry is not None else ruleset.info_source.file


def downloads_of(ruleset: Ruleset, settings: Settings) -> dict[str, str | None]:
    """A ruleset's files in the site's `downloads/` folder (written by the site target),
    and its module's manifest URL when the settings give one, for the home page."""
    module = settings.foundry.module_id(ruleset.id)
    return {
        "title": ruleset.info.title,
        "guide": f"{DOWNLOADS}/{ruleset.id}.md",
        "module": f"{DOWNLOADS}/{module}.zip",
        "json": f"{DOWNLOADS}/{ruleset.id}.json",
        "manifest": settings.release_links(
            ruleset.id, ruleset.info.title, ruleset.info.version
        ).get("manifest"),
    }


def _rulings_pages(
    project: SiteProject,
    pages_env,
    ruleset: Ruleset,
    edit: EditLinks,
    inputs: PageInputs,
    fixed: bool,
) -> str | list:
    """Write the ruleset's rulings, RULINGS_PER_PAGE to a page (`rulings.md`, then
    `rulings-2.md`...), each unless `fixed` and its rulings are those `inputs` last
    rendered it from; return the navigation entry: the page, or a folder of pages."""
    rulings = ruleset.rulings()
    starts = range(0, max(len(rulings), 1), RULINGS_PER_PAGE)
    template = pages_env.get_template("rulings.md.j2")
    nav = []
    for number, start in enumerate(starts, 1):
        page = f"{ruleset.id}/rulings{'' if number == 1 else f'-{number}'}.md"
        shown = rulings[start : start + RULINGS_PER_PAGE]
        title = "Rulings" if len(starts) == 1 else f"Rulings {start + 1}–{start + len(shown)}"
        nav.append({title: page})
        if inputs.unchanged(page, (ruleset.info, shown, title), consult=fixed):
            continue
        front = edit.front_matter(None, ASIDE_BOOST)
        project.write(page, front + template.render(ruleset=ruleset, rulings=shown, title=title))
    return nav[0]["Rulings"] if len(nav) == 1 else nav_folders(nav)


def _apply_settings(config: dict, site: SiteSettings) -> None:
    """The publisher's site settings, put into the mkdocs configuration. Texts go in as
    they are: the hooks escape them (mkdocs_hooks.on_config)."""
    config["site_name"] = site.title
    config["site_description"] = site.description
    theme = config["theme"]
    theme["language"] = site.language
    for scheme in theme["palette"]:
        scheme["primary"] = site.colours.primary
        scheme["accent"] = site.colours.accent
    if site.url:  # canonical links, sitemap.xml, and a 404 page that works in a sub-folder
        config["site_url"] = site.url
    if site.repository:
        config["repo_url"] = site.repository
        config["edit_uri"] = ""  # each page's own link is set by the hooks
        theme["features"].append("content.action.edit")
    if site.copyright:
        config["copyright"] = site.copyright
    # URLs of the files, which mkdocs writes into the pages as they are: a space quoted
    if site.logo:
        theme["logo"] = f"{PUBLISHER_FILES}/{quote(site.logo)}"
    if site.favicon:
        theme["favicon"] = f"{PUBLISHER_FILES}/{quote(site.favicon)}"
    config["extra_css"] += [f"{PUBLISHER_FILES}/{quote(css)}" for css in site.extra_css]
    config["extra_javascript"] += [f"{PUBLISHER_FILES}/{quote(js)}" for js in site.extra_javascript]


def _glossary(rulesets: list[Ruleset]) -> str:
    """Abbreviation definitions (`*[TERM]: text`) for every ruleset's glossary."""
    terms: dict[str, list[str]] = {}
    for ruleset in rulesets:
        for term, definition in ruleset.info.glossary.items():
            terms.setdefault(term, []).append(
                definition if len(rulesets) == 1 else f"{ruleset.info.title}: {definition}"
            )
    lines = [markdown_abbreviation(term, " / ".join(defs)) for term, defs in sorted(terms.items())]
    return "\n" + "\n".join(lines) + "\n"


def write_config(
    project: SiteProject, nav: list, hooks: tuple[str, ...], site: SiteSettings
) -> Path:
    """Write the project's mkdocs.yml (its navigation `nav`, the hook files `hooks` and the
    publisher's site settings); return its path."""
    yaml = YAML(typ="safe", pure=True)
    yaml.width = 4096  # a long navigation title stays on one line
    config = yaml.load((SITE / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = "docs"
    config["theme"]["custom_dir"] = str(SITE / config["theme"]["custom_dir"])
    config["nav"] = nav
    config["hooks"] = [str(HOOKS), *hooks]
    config["extra_javascript"] += [quote(where) for where, _ in project.scripts]
    _apply_settings(config, site)
    for extension in config["markdown_extensions"]:
        if isinstance(extension, dict) and "pymdownx.snippets" in extension:
            extension["pymdownx.snippets"]["base_path"] = [str(project.folder.resolve())]
            extension["pymdownx.snippets"]["check_paths"] = True
    path = project.folder / "mkdocs.yml"
    yaml.default_flow_style = False
    stream = io.StringIO()
    yaml.dump(config, stream)
    project.write("mkdocs.yml", stream.getvalue(), docs=False)
    return path
