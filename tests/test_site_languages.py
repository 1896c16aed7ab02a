"""The site in every language the rulesets declare: a site per language below the
source's, the switcher between them, the source's text marked where no translation
stands, each language's theme words, search and direction (a right-to-left one too).
The bundled Cool ruleset is partly in German; a demo tree is translated into Arabic."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.errors import RulepressError
from rulepress.exporters.site.languages import direction, site_languages
from rulepress.exporters.site.pages import generate
from rulepress.translations import digest
from rulepress.validation import validate
from tests.helpers import (
    RULE,
    RULESET,
    RULESET_FILE,
    base_tree,
    build_tree,
    screenshot,
    search_site,
)

ARABIC = RULESET + "languages:\n  - {code: ar, name: العربية}\n"
HOSTILE_RULE = RULE.replace("Hello.", "Hello <b>bold</b> & *stars*.")


def arabic_tree() -> dict[str, str | bytes]:
    """The demo tree in Arabic: the skill's name translated, the rule left in English
    (its text holding markup, which must show as text)."""
    translation = (
        "kind: translation\ndocument: bio-lore\nlanguage: ar\ntexts:\n  name:\n"
        f"    text: علم الأحياء\n    digest: {digest('Bio Lore')}\n"
    )
    return {
        **base_tree(),
        RULESET_FILE: ARABIC,
        "demo/rules/intro.yaml": HOSTILE_RULE,
        "demo/translations/ar/skills/bio-lore.yaml": translation,
    }


@pytest.fixture(scope="module")
def arabic_site(tmp_path_factory) -> Path:
    """The Arabic demo tree's site (the source's at its root, the Arabic one in ar/)."""
    root = tmp_path_factory.mktemp("arabic")
    validation, _ = build(build_tree(root / "c", arabic_tree()), root / "out", ["site"])
    assert validation.ok
    return root / "out" / "site"


def page_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def switcher(html: str) -> dict[str, str]:
    """The language switcher's links of a page, by language."""
    links = re.findall(r'<a href="([^"]*)" hreflang="([^"]*)" class="md-select__link">', html)
    return {lang: href for href, lang in links}


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        *[(tag, "rtl") for tag in ("ar", "he", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug")],
        ("ku-Arab", "rtl"),
        ("ug-Latn", "ltr"),
        ("de", "ltr"),
        ("pt-BR", "ltr"),
        ("zh-Hant", "ltr"),
    ],
)
def test_a_language_is_laid_out_in_its_direction(tag, expected):
    assert direction(tag) == expected


def test_a_compendium_without_languages_gets_no_switcher_and_no_marks(tmp_path):
    compendium = validate(build_tree(tmp_path / "c", base_tree())).compendium
    assert site_languages(compendium) == []
    config = page_text(generate(compendium, tmp_path / "project"))
    assert "alternate" not in config
    assert "languages.css" not in config
    docs = tmp_path / "project" / "docs"
    assert not any("rp-source-language" in page_text(p) for p in docs.rglob("*.md"))


def test_the_sites_own_language_declared_as_a_translation_is_refused(tmp_path):
    tree = {**base_tree(), RULESET_FILE: RULESET + "languages:\n  - {code: en, name: English}\n"}
    compendium = validate(build_tree(tmp_path / "c", tree)).compendium
    with pytest.raises(RulepressError, match="the site's own"):
        site_languages(compendium)


def test_the_german_site_shows_the_translation_and_marks_the_english_left(site):
    html = page_text(site / "de" / "cool" / "cool.html")
    assert '<html lang="de"' in html
    assert "Ein misslungener Wurf bedeutet, dass der Charakter verängstigt ist." in html
    # the fear roll's opening sentence has no German yet: it shows in English, marked
    assert re.search(r'<span lang="en" class="rp-source-language">A fear roll is required if', html)
    # the edition's own note (as its guide's), in German; a page of a ruleset with no
    # German edition gets the site's note, in rulepress's German words
    assert re.search(r'rp-untranslated" lang="de">\n<p>\d+ von \d+ Texten dieser deutschen', html)
    skills = page_text(site / "de" / "iris" / "skills.html")
    assert '<p class="admonition-title">Noch nicht übersetzt</p>' in skills
    assert "Teile dieser Seite sind noch nicht übersetzt: Sie zeigen den Originaltext" in skills
    assert 'href="../stylesheets/languages.css"' in html
    source = page_text(site / "cool" / "cool.html")
    assert "rp-source-language" not in source  # the source site marks nothing
    assert "A fear roll is required if" in source


def test_every_site_lists_every_language_leading_to_the_same_page(site):
    assert switcher(page_text(site / "cool" / "cool.html")) == {
        "en": "cool.html",
        "de": "../de/cool/cool.html",
    }
    assert switcher(page_text(site / "de" / "cool" / "cool.html")) == {
        "en": "../../cool/cool.html",
        "de": "cool.html",
    }
    assert switcher(page_text(site / "de" / "iris" / "weapons" / "pistols.html")) == {
        "en": "../../../iris/weapons/pistols.html",
        "de": "pistols.html",
    }
    # Material's head links are left out: its script would fetch a sitemap beside each
    assert '<link rel="alternate" href' not in page_text(site / "de" / "cool" / "cool.html")
    for page in (site / "de").rglob("*.html"):  # each link lands on a page that is there
        for href in switcher(page_text(page)).values():
            assert (page.parent / href).resolve().is_file(), (page, href)


def test_the_german_search_is_in_german(site):
    config = page_text(site / "de" / "search" / "search_index.json")[:300]
    assert '"lang":["de"]' in config
    assert '"lang":["en"]' in page_text(site / "search" / "search_index.json")[:300]


def test_the_arabic_site_reads_right_to_left_and_escapes_the_english_left(arabic_site):
    html = page_text(arabic_site / "ar" / "index.html")
    assert '<html lang="ar"' in html
    assert '<body dir="rtl"' in html
    assert '<body dir="ltr"' in page_text(arabic_site / "index.html")
    pages = "".join(page_text(p) for p in (arabic_site / "ar" / "demo").rglob("*.html"))
    assert "علم الأحياء" in pages
    assert 'rp-untranslated" lang="en" dir="ltr">' in pages  # the edition's English note
    assert "<b>bold</b>" not in pages
    assert (
        '<span lang="en" dir="ltr" class="rp-source-language">'  # English reads left to right
        "Hello &lt;b&gt;bold&lt;/b&gt; &amp; <em>stars</em>.</span>" in pages
    )


# --- In Chromium: a few, they are slow ------------------------------------------------------


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def arabic_url(arabic_site):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(arabic_site))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


def test_the_switcher_leads_to_the_german_page_and_back(page, base_url):
    page.goto(base_url + "cool/cool.html")
    page.hover(".md-header__option .md-select")
    page.click('a.md-select__link[hreflang="de"]')
    page.wait_for_url("**/de/cool/cool.html")
    assert page.evaluate("document.documentElement.lang") == "de"
    marked = page.locator(".rp-source-language", has_text="A fear roll is required").first
    assert marked.is_visible()
    style = marked.evaluate("e => getComputedStyle(e).borderInlineStartStyle")
    assert style == "dotted"
    page.hover(".md-header__option .md-select")
    page.click('a.md-select__link[hreflang="en"]')
    page.wait_for_url(re.compile(r".*/cool/cool\.html$"))
    assert "/de/" not in page.url
    assert page.errors == []


def test_each_sites_search_finds_its_own_words(page, base_url):
    page.goto(base_url + "de/index.html")
    hrefs = search_site(page, "verängstigt")
    assert any("/de/cool/cool.html" in href for href in hrefs), hrefs
    page.goto(base_url + "index.html")
    hrefs = search_site(page, "Flak Cannon")
    assert any("iris/weapons/shotguns.html" in href for href in hrefs)
    assert page.errors == []


def test_a_right_to_left_page_is_laid_out_right_to_left(page, arabic_url):
    page.goto(arabic_url + "ar/index.html")
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    content = page.locator(".md-content").bounding_box()
    navigation = page.locator(".md-sidebar--primary").bounding_box()
    assert navigation["x"] > content["x"]  # the menu stands on the right
    page.goto(arabic_url + "ar/demo/introduction.html")
    screenshot(page, "rtl-page.png")
    assert page.errors == []
