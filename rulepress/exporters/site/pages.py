"""Generate the mkdocs project of the rules site from the compendium.

Pages: a home page; per ruleset an overview (with odds charts), a page per chapter
(the Weapons chapter a page per weapon section), a calculator where its kinds have one,
rulings (a hundred to a page) and sources; a contributors' page generated from the
validator's checks. The glossary of every ruleset is appended to every page, so rule
terms show their definition on hover.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import jinja2

from rulepress.compendium.model import Compendium
from rulepress.errors import CODE_DOCS, Code
from rulepress.exporters import templating
from rulepress.exporters.markdown_text import TEMPLATES, environment
from rulepress.exporters.site.calculators import game_scripts
from rulepress.exporters.site.languages import (
    SiteLanguage,
    marking_filters,
    note_untranslated,
    write_stylesheet,
)
from rulepress.exporters.site.places import EditLinks, PageInputs, heading_anchor, nav_title
from rulepress.exporters.site.project import (
    ASIDE_BOOST,
    DOWNLOADS,
    PUBLISHER_FILES,
    SITE,
    SiteProject,
)
from rulepress.exporters.site.ruleset_pages import downloads_of, ruleset_pages
from rulepress.exporters.site.search_stemming import write_search_stemming
from rulepress.exporters.site.site_config import glossary_page_text, write_config
from rulepress.history import Revision, history
from rulepress.translations.words import SOURCE, Words
from rulepress.validators import registered_checks


def pages_environment(
    templates: Path | None = None,
    sections: jinja2.Environment | None = None,
    language: str = SOURCE,
) -> jinja2.Environment:
    """The environment of the site's page templates, with the filters of `sections` (the
    section templates' environment, made here when not given), writing rulepress's own
    words in `language`. The project's own documentation renders the finding codes with
    it too."""
    pages_env = templating.environment(
        TEMPLATES / "site",
        templates,
        language=language,
        autoescape=False,  # Markdown: values are escaped by the md filters, as in sections
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    pages_env.filters.update((sections or environment(templates, language=language)).filters)
    pages_env.filters["heading_anchor"] = heading_anchor
    return pages_env


def site_environments(
    templates: Path | None = None, language: str = SOURCE
) -> tuple[jinja2.Environment, jinja2.Environment]:
    """The section templates' environment and the site's page templates' environment,
    writing rulepress's own words in `language`."""
    env = environment(templates, language=language)
    return env, pages_environment(templates, env, language)


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


def home_intro(words: Words) -> str:
    """The home page's opening paragraph: the site's `home.md` (English), or the words'
    own `home_intro` in another language."""
    if words.language_of("home_intro") != SOURCE:
        return words["home_intro"]
    return (SITE / "home.md").read_text(encoding="utf-8")


def generate(
    compendium: Compendium,
    folder: Path,
    templates: Path | None = None,
    hooks: tuple[str, ...] = (),
    revisions: list[Revision] | None = None,
    language: tuple[SiteLanguage, list[SiteLanguage]] | None = None,
) -> Path:
    """Write the mkdocs project into `folder`; return the path of its mkdocs.yml.
    `hooks` names mkdocs hook files in `folder`; `revisions` is the Changes page's
    history when the caller has it (else read from git here). `language`: this site's
    language and every site's, when the rulesets declare languages (site.languages): a
    translation's site marks the texts in the source's language."""
    project = SiteProject(folder)
    settings = compendium.settings.settings
    code = language[0].code if language is not None else settings.site.language
    environments = site_environments(templates, code)
    source = language is not None and language[0].folder and language[1][0]
    if source:  # the downloads are the source site's (beside this site's folder)
        project.downloads = f"../{DOWNLOADS}"
        project.language = code
        way = source.direction if source.direction != language[0].direction else None
        marking_filters(environments[0], source.code, way)
        environments[1].filters.update(environments[0].filters)
    nav = write_pages(
        project,
        compendium,
        templates,
        history(compendium) if revisions is None else revisions,
        environments=environments,
    )
    if source:
        note_untranslated(project, environments[1], language[0], source)
        write_stylesheet(project)
        write_search_stemming(project, language[0].search)
    project.remove_stale()
    return write_config(project, nav, hooks, compendium.settings.settings.site, language)


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
    words = templating.words_of(pages_env)
    nav: list = [{words["home"]: "index.md"}]
    rulesets = list(compendium)
    settings = compendium.settings.settings
    edit = EditLinks(compendium)
    if not fixed:
        project.write(
            "index.md",
            pages_env.get_template("home.md.j2").render(
                title=settings.site.title,
                rulesets=rulesets,
                intro=home_intro(words),
                downloads=[
                    downloads_of(ruleset, settings, project.downloads, project.language)
                    for ruleset in rulesets
                ],
            ),
        )
    for ruleset in rulesets:
        nav.append(
            {
                nav_title(ruleset.info.title): ruleset_pages(
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
        nav.append({words["changes"]: "changes.md"})
    nav.append({words["contributing"]: "contributing.md"})
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
    project.write("includes/glossary.md", glossary_page_text(rulesets), docs=False)
    return nav
