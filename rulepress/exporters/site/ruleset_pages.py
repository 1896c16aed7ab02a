"""The pages of one ruleset: its overview and chapter pages (with their charts), its
calculators, its rulings a hundred to a page, and the downloads it links."""

from __future__ import annotations

import posixpath
from pathlib import Path

from rulepress.compendium.model import Ruleset
from rulepress.errors import Finding
from rulepress.exporters.escaping import (
    html_attribute,
    html_url,
    markdown_link,
    markdown_text,
)
from rulepress.exporters.guide import Section
from rulepress.exporters.markdown_text import render_section
from rulepress.exporters.site.calculators import calculator_page, calculators_for
from rulepress.exporters.site.charts import Chart, charts_by_kind
from rulepress.exporters.site.places import (
    EditLinks,
    PageInputs,
    nav_folders,
    nav_title,
    page_of,
    site_link,
)
from rulepress.exporters.site.project import (
    ASIDE_BOOST,
    DOWNLOADS,
    REDIRECT,
    RULE_BOOST,
    SiteProject,
)
from rulepress.exporters.templating import words_of
from rulepress.models import Document
from rulepress.models.settings import Settings
from rulepress.translations.words import fill

# Material's search plugin looks up each heading of a page in the page's table of contents
# one entry at a time: a page of n headings costs n**2 (one page of 20,000 rulings, 102 s
# of a build). Rulings are shown this many to a page, so the cost grows with their number.
RULINGS_PER_PAGE = 100
# A chapter of more sections than this lists them on the overview one to a line, not in
# one line of links: Python-Markdown's link parser reads the rest of a line again for
# each link in it, so a line of n links costs n**2 (1,000 sections: 5.5 s of a build).
SECTIONS_IN_A_LINE = 24


def ruleset_pages(
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
                sections_in_a_line=SECTIONS_IN_A_LINE,
                charts=charts,
                page_of=lambda chapter, section: posixpath.relpath(
                    page_of(ruleset, chapter, section), base
                ),
            ),
        )
    words = words_of(pages_env)
    nav: list = [{words["overview"]: f"{base}/index.md"}]
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
            + calculator_page(
                fill(words["calculator_title"], title=markdown_text(ruleset.info.title)),
                calculators,
            ),
        )
        nav.append({words["calculator"]: f"{base}/calculator.md"})
    rulings = rulings_pages(project, pages_env, ruleset, edit, inputs, fixed)
    nav.append({words["rulings"]: rulings})
    if errata:
        if not inputs.unchanged(f"{base}/errata.md", (ruleset.info, errata), consult=fixed):
            project.write(
                f"{base}/errata.md",
                edit.front_matter(None, ASIDE_BOOST)
                + pages_env.get_template("errata.md.j2").render(ruleset=ruleset, errata=errata),
            )
        nav.append({words["known_problems_nav"]: f"{base}/errata.md"})
    if not fixed:
        project.write(
            f"{base}/sources.md",
            edit.front_matter(ruleset_file, ASIDE_BOOST)
            + pages_env.get_template("sources.md.j2").render(info=ruleset.info),
        )
    nav.append({words["sources"]: f"{base}/sources.md"})
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


def downloads_of(
    ruleset: Ruleset, settings: Settings, folder: str = DOWNLOADS, language: str | None = None
) -> dict[str, str | None]:
    """A ruleset's files in the site's `downloads/` folder (written by the site target;
    `folder` is the way there from the home page), and its module's manifest URL when
    the settings give one, for the home page. A `language`'s site links the guide and
    JSON of the ruleset's edition in it (`downloads/<language>/`) where the ruleset
    declares the language, else the source's; the module is one for every language."""
    module = settings.foundry.module_id(ruleset.id)
    editions = folder
    if language is not None and any(plan.code == language for plan in ruleset.info.languages):
        editions = f"{folder}/{language}"
    return {
        "title": ruleset.info.title,
        "guide": f"{editions}/{ruleset.id}.md",
        "module": f"{folder}/{module}.zip",
        "json": f"{editions}/{ruleset.id}.json",
        "manifest": settings.release_links(
            ruleset.id, ruleset.info.title, ruleset.info.version
        ).get("manifest"),
    }


def rulings_pages(
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
    words = words_of(pages_env)
    nav = []
    for number, start in enumerate(starts, 1):
        page = f"{ruleset.id}/rulings{'' if number == 1 else f'-{number}'}.md"
        shown = rulings[start : start + RULINGS_PER_PAGE]
        title = words["rulings"]
        if len(starts) > 1:
            title = fill(words["rulings_range"], first=start + 1, last=start + len(shown))
        nav.append({title: page})
        if inputs.unchanged(page, (ruleset.info, shown, title), consult=fixed):
            continue
        front = edit.front_matter(None, ASIDE_BOOST)
        project.write(page, front + template.render(ruleset=ruleset, rulings=shown, title=title))
    return next(iter(nav[0].values())) if len(nav) == 1 else nav_folders(nav)
