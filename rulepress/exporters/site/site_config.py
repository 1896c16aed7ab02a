"""The site's mkdocs.yml: the shipped one with the publisher's settings applied, and
the glossary every page gets."""

from __future__ import annotations

import io
from pathlib import Path
from urllib.parse import quote

from ruamel.yaml import YAML

from rulepress.compendium.model import Ruleset
from rulepress.exporters.escaping import (
    markdown_abbreviation,
)
from rulepress.exporters.site.languages import STYLESHEET, SiteLanguage, alternates
from rulepress.exporters.site.project import HOOKS, PUBLISHER_FILES, SITE, SiteProject
from rulepress.exporters.site.search_stemming import SEARCH_PIPELINE, stems
from rulepress.models.settings import SiteSettings
from rulepress.translations.words import SOURCE, Words, words


def apply_settings(config: dict, site: SiteSettings) -> None:
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


def glossary_page_text(rulesets: list[Ruleset]) -> str:
    """Abbreviation definitions (`*[TERM]: text`) for every ruleset's glossary."""
    terms: dict[str, list[str]] = {}
    for ruleset in rulesets:
        for term, definition in ruleset.info.glossary.items():
            terms.setdefault(term, []).append(
                definition if len(rulesets) == 1 else f"{ruleset.info.title}: {definition}"
            )
    lines = [markdown_abbreviation(term, " / ".join(defs)) for term, defs in sorted(terms.items())]
    return "\n" + "\n".join(lines) + "\n"


def apply_language(config: dict, language: SiteLanguage, sites: list[SiteLanguage]) -> None:
    """One of the sites of a compendium in several languages (`sites`, the source's
    first): the theme's words, the search's language and the direction of `language`,
    the switcher between every site, and (a translation's site) the marks' stylesheet."""
    theme = config["theme"]
    theme["language"] = language.theme
    theme["direction"] = language.direction
    config["extra"].update(alternates(language, sites))
    if language.folder:
        # A language lunr stems keeps lunr's whole pipeline (Material's default has no
        # stemmer): the site's own lunr file of the language (search_stemming.py) indexes
        # each word as written and stemmed, so search as you type, a prefix query that
        # skips the stemmer, still finds whole words, and adds each word typed, stemmed,
        # so an inflected form finds the others. Any other language keeps Material's
        # pipeline (its stop words, no stemmer).
        search: dict = {"lang": [language.search]}
        if stems(language.search):
            search["pipeline"] = list(SEARCH_PIPELINE)
        config["plugins"] = [
            {"search": search} if plugin == "search" else plugin for plugin in config["plugins"]
        ]
        config["extra_css"].insert(1, STYLESHEET)  # after the site's own, before the publisher's


def apply_words(config: dict, chosen: Words) -> None:
    """rulepress's own words in the theme's settings, where the site's are not English:
    the colour scheme toggles' names and the headings' permalink title."""
    if chosen.language_of("dark_mode") == SOURCE:
        return  # the shipped mkdocs.yml's, unchanged
    for entry, key in zip(config["theme"]["palette"], ("dark_mode", "light_mode"), strict=True):
        entry["toggle"]["name"] = chosen[key]
    for extension in config["markdown_extensions"]:
        if isinstance(extension, dict) and "toc" in extension:
            extension["toc"]["permalink_title"] = chosen["permalink"]


def write_config(
    project: SiteProject,
    nav: list,
    hooks: tuple[str, ...],
    site: SiteSettings,
    language: tuple[SiteLanguage, list[SiteLanguage]] | None = None,
) -> Path:
    """Write the project's mkdocs.yml (its navigation `nav`, the hook files `hooks` and the
    publisher's site settings); return its path. `language`: the site's language and
    every site's, when the rulesets declare languages (`apply_language`)."""
    yaml = YAML(typ="safe", pure=True)
    yaml.width = 4096  # a long navigation title stays on one line
    config = yaml.load((SITE / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = "docs"
    config["theme"]["custom_dir"] = str(SITE / config["theme"]["custom_dir"])
    config["nav"] = nav
    config["hooks"] = [str(HOOKS), *hooks]
    config["extra_javascript"] += [quote(where) for where, _ in project.scripts]
    apply_settings(config, site)
    if language is not None:
        apply_language(config, *language)
    apply_words(config, words(language[0].code if language is not None else site.language))
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
