"""The search's stemming in a translation's site (rulepress/exporters/site/search_stemming.py):
the language's lunr file overridden by the theme's own bytes and rulepress's script, the
stemmer kept in the search's pipeline, so an inflected form finds the page that holds
another form while search as you type still finds whole and partial words; the source
language's site searching as before. In Chromium on the bundled compendium's German
site (the Cool ruleset is partly in German)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from ruamel.yaml import YAML

from rulepress.exporters.site.languages import site_languages, source_language
from rulepress.exporters.site.pages import generate
from rulepress.exporters.site.search_stemming import (
    LUNR_FILE,
    SCRIPT,
    lunr_override,
    material_lunr_file,
    stems,
)
from rulepress.validation import validate
from tests.helpers import RULESET, RULESET_FILE, base_tree, build_tree, type_search

GERMAN_LUNR = LUNR_FILE.format(language="de")


def search_config(site: Path) -> dict:
    """The search's configuration a built site's index carries."""
    return json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]


def search_plugin(mkdocs_yml: Path) -> object:
    """The search plugin's entry of a generated mkdocs.yml."""
    config = YAML(typ="safe", pure=True).load(mkdocs_yml.read_text(encoding="utf-8"))
    return next(p for p in config["plugins"] if p == "search" or "search" in p)


# --- The override file and the configuration ----------------------------------------------


def test_the_language_file_is_the_themes_bytes_then_rulepress_script():
    override = lunr_override("de")
    theme = material_lunr_file("de").read_bytes()
    assert override.startswith(theme)
    assert override.endswith(SCRIPT.read_bytes() + b'\nrulepressStemming(self.lunr, "de");\n')
    assert len(override) == len(theme) + 1 + len(SCRIPT.read_bytes()) + 37
    # lunr-languages' header (its authors and licence) opens the file as in the theme's
    assert b"Copyright 2014, Mihai Valentin\n * http://www.mozilla.org/MPL/" in override[:200]
    assert SCRIPT.read_text(encoding="utf-8").startswith("// rulepress's search stemming")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        *[(code, True) for code in ("de", "fr", "es", "ru", "ar", "sv", "nl", "tr", "fi")],
        # English searches without a stemmer, as Material's default; these have none at
        # search time (Japanese and Chinese segment), or no lunr file; a tag is no path
        *[(code, False) for code in ("en", "ko", "th", "vi", "hy", "ja", "zh", "xx", "../de")],
    ],
)
def test_the_languages_lunr_stems(language, expected):
    assert stems(language) is expected


@pytest.fixture(scope="module")
def projects(tmp_path_factory) -> dict[str, Path]:
    """The generated mkdocs projects (not built) of a demo tree in English, German and
    Korean, by language."""
    root = tmp_path_factory.mktemp("stemming")
    plans = "languages:\n  - {code: de, name: Deutsch}\n  - {code: ko, name: 한국어}\n"
    tree = {**base_tree(), RULESET_FILE: RULESET + plans}
    compendium = validate(build_tree(root / "c", tree)).compendium
    sites = [source_language(compendium), *site_languages(compendium)]
    folders = {}
    for site in sites:
        folders[site.code] = root / (site.folder or "source")
        generate(compendium, folders[site.code], language=(site, sites))
    return folders


def test_a_language_lunr_stems_keeps_the_stemmer_and_gets_its_file(projects):
    german = projects["de"]
    assert search_plugin(german / "mkdocs.yml") == {
        "search": {"lang": ["de"], "pipeline": ["stemmer", "stopWordFilter", "trimmer"]}
    }
    assert (german / "docs" / GERMAN_LUNR).read_bytes() == lunr_override("de")


def test_a_language_lunr_cannot_stem_and_the_source_search_as_before(projects, capsys):
    assert search_plugin(projects["ko"] / "mkdocs.yml") == {"search": {"lang": ["ko"]}}
    assert search_plugin(projects["en"] / "mkdocs.yml") == "search"
    for code in ("ko", "en"):
        assert not (projects[code] / "docs" / "assets").exists()
    compendium = validate(
        build_tree(
            projects["en"].parent / "again",
            {**base_tree(), RULESET_FILE: RULESET + "languages:\n  - {code: ko, name: 한국어}\n"},
        )
    ).compendium
    site_languages(compendium)
    assert "lunr has no stemmer for 'ko': its ko site finds words as written" in (
        capsys.readouterr().err
    )


def test_the_built_sites_search_the_german_one_stemming(site):
    assert search_config(site / "de")["pipeline"] == ["stemmer", "stopWordFilter", "trimmer"]
    assert (site / "de" / GERMAN_LUNR).read_bytes() == lunr_override("de")
    # the source language's site: Material's pipeline and Material's own file
    assert search_config(site)["pipeline"] == ["stopWordFilter"]
    assert (site / GERMAN_LUNR).read_bytes() == material_lunr_file("de").read_bytes()


# --- In Chromium -----------------------------------------------------------------------------


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.errors = []
    page.on(
        "console", lambda m: page.errors.append(m.text) if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


def results_for(page, query: str, wanted: str) -> list[dict]:
    """Type `query` into the search once its index is ready, wait for the result that
    leads to `wanted` (a page's path below the site) for this query; every result item's
    links and HTML (an AssertionError naming what was found when `wanted` is not)."""
    type_search(page, query)
    link = f'.md-search-result__item a[href*="{wanted}?{urlencode({"h": query.lower()})}"]'
    try:
        page.wait_for_selector(link, timeout=30_000)
    except Exception:  # a timeout: say what the search found instead
        links = [a.get_attribute("href") for a in page.query_selector_all(".md-search-result a")]
        raise AssertionError(f"{query!r} found no {wanted}: {links}") from None
    return page.eval_on_selector_all(
        ".md-search-result__item",
        "items => items.map(i => ({links: [...i.querySelectorAll('a')].map(a => a.href),"
        " html: i.innerHTML}))",
    )


def german_words(site: Path) -> set[str]:
    """Every word the German site's search index holds (lowercased), as Material's
    search as you type would match them without a stemmer."""
    docs = json.loads((site / "de" / "search" / "search_index.json").read_text())["docs"]
    text = " ".join(f"{d['title']} {d['text']}" for d in docs)
    return {w.lower() for w in re.findall(r"\w+", re.sub(r"<[^>]+>", " ", text))}


@pytest.mark.parametrize(
    ("typed", "found", "held"),
    [
        ("Fähigkeiten", "de/cool/cool.html", "Fähigkeit"),  # "die natürliche Fähigkeit"
        ("Preise", "de/cool/cool.html", "Preis"),  # "um jeden Preis"
        ("Charaktere", "de/cool/cool.html", "Charakter"),  # "der Charakter"
    ],
)
def test_an_inflected_form_finds_the_page_with_another_form(
    page, base_url, site, typed, found, held
):
    # without stemming nothing matches: no word of the site starts with the typed form
    assert not any(word.startswith(typed.lower()) for word in german_words(site))
    text = (site / found).read_text(encoding="utf-8")
    assert typed not in text and held in text
    page.goto(base_url + "de/index.html")
    items = results_for(page, typed, found)
    item = next(i for i in items if any(found in link for link in i["links"]))
    assert re.search(rf"<mark>{held}", item["html"])  # the form the page holds, marked
    assert "md-search-result__terms" not in item["html"]  # the word is not "missing"
    assert "<mark><mark>" not in "".join(i["html"] for i in items)
    assert page.errors == []


@pytest.mark.parametrize(
    ("typed", "marked"),
    [
        ("Charakter", "Charakter"),  # a whole word the stemmer shortens (to `charakt`)
        ("verängstigt", "verängstigt"),  # a whole word
        ("Standhaft", "Standhaftigkeit"),  # part of a word, as typed so far
    ],
)
def test_whole_and_partial_words_still_find_their_pages(page, base_url, typed, marked):
    page.goto(base_url + "de/index.html")
    items = results_for(page, typed, "de/cool/cool.html")
    html = "".join(i["html"] for i in items)
    assert f"<mark>{marked}</mark>" in html
    assert "<mark><mark>" not in html
    assert page.errors == []


def test_the_source_languages_site_finds_what_it_found(page, base_url):
    page.goto(base_url + "index.html")
    items = results_for(page, "Flak Cannon", "iris/weapons/shotguns.html")
    assert "<mark>Flak</mark>" in items[0]["html"]
    page.goto(base_url + "t2k4e/index.html")
    items = results_for(page, "push", "t2k4e/dice.html")
    assert "dice.html" in items[0]["links"][0] and "rulings" not in items[0]["links"][0]
    assert page.errors == []
