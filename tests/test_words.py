"""rulepress's own words in each language (rulepress.translations.words): the catalogs
hold every word the templates use (English all, German all), the German edition of the
bundled Cool ruleset shows them in its guide, its site and its Foundry journal, English
output is unchanged (the goldens of test_site, test_markdown_guide and test_foundry),
and a language with no catalog shows English words with one notice."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rulepress.translations.words as words_module
from rulepress.commands.build import build
from rulepress.errors import RulepressError
from rulepress.exporters.foundry.babele import babele_files
from rulepress.exporters.foundry.enrichers import inert
from rulepress.exporters.foundry.packs import ModuleOptions
from rulepress.exporters.foundry.packs.common import html_environment
from rulepress.exporters.markdown_guide import guide_bytes
from rulepress.exporters.markdown_text import environment
from rulepress.exporters.site import site_plan
from rulepress.exporters.site.pages import generate
from rulepress.translations import translated
from rulepress.translations.words import BUNDLED, words
from rulepress.validation import validate
from tests.helpers import COMPENDIUM, REPO, RULESET, RULESET_FILE, base_tree, build_tree

TEMPLATE_WORD = re.compile(r"\bwords\.([a-z][a-z0-9_]*)")
MACRO_WORD = re.compile(r"\"RULEPRESS\.([a-z][a-z0-9_]*)\"")
"""A word a macro's script looks up (`localize("RULEPRESS.common_roll")`)."""
PYTHON_WORD = re.compile(r"""\bwords\[["']([a-z][a-z0-9_]*)["']\]|language_of\(["']([a-z0-9_]+)""")


def used_keys() -> set[str]:
    """Every word a shipped template (rulepress's and the bundled games', their Foundry
    macros' too) or rulepress's code looks up."""
    found: set[str] = set()
    for template in (REPO / "rulepress").rglob("*.j2"):
        text = template.read_text(encoding="utf-8")
        found |= set(TEMPLATE_WORD.findall(text)) | set(MACRO_WORD.findall(text))
    for module in (REPO / "rulepress").rglob("*.py"):
        for indexed, named in PYTHON_WORD.findall(module.read_text(encoding="utf-8")):
            found.add(indexed or named)
    return found


@pytest.fixture(scope="module")
def bundled():
    validation = validate(COMPENDIUM)
    assert validation.ok
    return validation.compendium


def test_english_has_every_word_the_templates_and_the_code_use():
    used = used_keys()
    assert {"example", "see_also", "rulings", "contents", "cool_critical_failure_from"} <= used
    assert {"common_roll", "cuf_threat_check_passed", "t2k4e_roll_no_success"} <= used
    assert used <= set(words("en")), sorted(used - set(words("en")))


def test_german_words_every_key_of_english_in_its_own_catalogs():
    german = words("de")
    assert german.own == set(words("en"))  # nothing falls back to English
    assert german["example"] == "Beispiel:"
    assert german.language_of("see_also") == "de"
    assert all(german[key] != "" for key in german)


def test_a_catalog_refuses_a_key_english_lacks_and_anything_but_texts(tmp_path, monkeypatch):
    (tmp_path / "en.yaml").write_text("example: 'Example:'\n", encoding="utf-8")
    monkeypatch.setattr(words_module, "catalog_folders", lambda: [tmp_path])
    (tmp_path / "de.yaml").write_text("exmaple: 'Beispiel:'\n", encoding="utf-8")
    with pytest.raises(RulepressError, match="'exmaple' is not in English's catalog"):
        words("de")
    (tmp_path / "nl.yaml").write_text("example: [a, list]\n", encoding="utf-8")
    with pytest.raises(RulepressError, match="'example' is not a text"):
        words("nl")
    (tmp_path / "fr.yaml").write_text("- a list\n", encoding="utf-8")
    with pytest.raises(RulepressError, match="a mapping of key: text"):
        words("fr")
    (tmp_path / "it.yaml").write_text("items: elementi\n", encoding="utf-8")  # a Mapping method
    with pytest.raises(RulepressError, match="'items' is not a word's key"):
        words("it")


def test_a_language_lacking_keys_falls_back_to_english_key_by_key(tmp_path, monkeypatch):
    (tmp_path / "en.yaml").write_text("example: 'Example:'\nsee: see\n", encoding="utf-8")
    (tmp_path / "pt.yaml").write_text("see: veja\n", encoding="utf-8")
    (tmp_path / "pt-BR.yaml").write_text("example: 'Exemplo:'\n", encoding="utf-8")
    monkeypatch.setattr(words_module, "catalog_folders", lambda: [tmp_path])
    portuguese = words("pt")
    assert dict(portuguese) == {"example": "Example:", "see": "veja"}
    assert portuguese.language_of("example") == "en"
    assert dict(words("pt-BR")) == {"example": "Exemplo:", "see": "veja"}  # the tag, then `pt`


def test_a_declared_language_without_a_catalog_shows_english_with_one_notice(tmp_path, capsys):
    words_module._words.cache_clear()  # noticed once per run: this test's run
    tree = {**base_tree(), RULESET_FILE: RULESET + "languages:\n  - {code: sw, name: Kiswahili}\n"}
    validation, _ = build(build_tree(tmp_path / "c", tree), tmp_path / "out", ["markdown"])
    assert validation.ok
    guide = (tmp_path / "out/markdown/sw/demo.md").read_text(encoding="utf-8")
    assert "## Contents" in guide and "## Rulings" in guide
    notices = [line for line in capsys.readouterr().err.splitlines() if "no words in" in line]
    assert notices == ["words: rulepress has no words in 'sw': its outputs show English words"]


def test_the_german_guide_writes_rulepress_words_in_german(bundled):
    cool = bundled.ruleset("cool")
    guide = guide_bytes(bundled, cool, None, edition=translated(cool, "de")).decode()
    for german in (
        "## Inhalt",
        "- [Regelentscheidungen](#rulings)",
        "*Beispiel:* Ugg the Mighty",  # the example is not translated; its label is
        "Ein Prozentwurf von 96 oder mehr ist ein kritischer Fehlschlag.",  # Cool's own words
        "- Entscheidung: ",
        "*Version 1.0.0. Von rulepress aus dem maßgeblichen Kompendium erstellt;",
    ):
        assert german in guide, german
    english = guide_bytes(bundled, cool, None).decode()
    assert "*Example:* Ugg the Mighty" in english and "Beispiel" not in english


def test_the_german_site_writes_german_words_and_links_the_german_editions(bundled, tmp_path):
    sites, views = site_plan(bundled)
    german = next(site for site in sites if site.code == "de")
    config = generate(views["de"], tmp_path, language=(german, sites)).read_text()
    docs = tmp_path / "docs"
    page = (docs / "cool/cool.md").read_text(encoding="utf-8")
    assert "*Beispiel:*" in page and "Siehe auch:" in page
    home = (docs / "index.md").read_text(encoding="utf-8")
    assert "| Regelwerk | Kurzreferenz | Modul für Foundry VTT | Daten |" in home
    assert 'href="../downloads/de/cool.md"' in home  # Cool's German guide and JSON
    assert 'href="../downloads/de/cool.json"' in home
    assert 'href="../downloads/rulepress-cool.zip"' in home  # one module for every language
    assert 'href="../downloads/iris.md"' in home  # Iris has no German edition: the source's
    assert "Tischrollenspielregeln" in home
    rulings = (docs / "cool/rulings.md").read_text(encoding="utf-8")
    assert "**Frage.**" in rulings and "**Entscheidung.**" in rulings
    assert "- Startseite: index.md" in config and "Regelentscheidungen: cool/rulings.md" in config
    assert "name: Zum dunklen Modus wechseln" in config
    assert "permalink_title: Dauerhafter Link" in config
    source = generate(bundled, tmp_path / "en", language=(sites[0], sites)).read_text()
    assert "- Home: index.md" in source and "permalink_title" not in source


def test_the_site_build_puts_each_edition_beside_the_downloads(tmp_path):
    tree = {**base_tree(), RULESET_FILE: RULESET + "languages:\n  - {code: de, name: Deutsch}\n"}
    validation, _ = build(build_tree(tmp_path / "c", tree), tmp_path / "out", ["markdown", "site"])
    assert validation.ok
    site = tmp_path / "out/site"
    assert (site / "downloads/de/demo.md").read_bytes() == (
        tmp_path / "out/markdown/de/demo.md"
    ).read_bytes()
    assert (site / "downloads/de/demo.json").is_file()
    home = (site / "de/index.html").read_text(encoding="utf-8")
    assert 'href="../downloads/de/demo.md"' in home
    assert "Startseite" in home


def test_the_german_journal_of_the_babele_files_carries_german_words(bundled):
    cool = bundled.ruleset("cool")
    options = ModuleOptions("rulepress-cool", 14, bundled.settings.settings.foundry.system)
    files = babele_files(cool, options, environment(plain=inert), html_environment())
    rules = json.loads(files["translations/de/rulepress-cool.rules.json"])
    assert rules["label"].endswith(": Regeln")
    about = rules["entries"]["About These Rules"]  # keyed by the source's name
    assert about["name"] == "Über diese Regeln"
    assert about["pages"]["Rulings"]["name"] == "Regelentscheidungen"
    assert "<strong>Frage.</strong>" in about["pages"]["Rulings"]["text"]
    assert "Von rulepress aus dem maßgeblichen YAML-Kompendium" in about["pages"]["Sources"]["text"]


def test_the_bundled_catalogs_ship_with_the_package():
    assert {path.name for path in BUNDLED.glob("*.yaml")} >= {"en.yaml", "de.yaml"}
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"translations/words/*.yaml"' in pyproject
    assert Path(REPO / "rulepress/games/cool/templates/words/de.yaml").is_file()
