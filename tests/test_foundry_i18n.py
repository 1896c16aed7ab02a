"""The macros' words through Foundry's i18n: the module's lang files hold exactly the keys
the macros use, module.json lists them, and a macro run in node speaks German when
game.i18n is German (its words from lang/de.json, its rules' texts from the compendium's
German translation) and English where the world has no lang file of the module."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

import rulepress.translations.words as words_module
from rulepress import kinds
from rulepress.commands.build import build
from rulepress.errors import RulepressError
from rulepress.exporters.foundry.lang import (
    COMMON,
    catalog_keys,
    key,
    lang_files,
    module_macros,
    nested,
    title_key,
    words,
)
from rulepress.games.cuf.models.cuf import ThreatThreshold
from rulepress.kinds import Macro
from rulepress.translations import digest, translated
from tests.helpers import COMPENDIUM, run_macro

MACROS = [kind.macro for kind in kinds.registry().values() if kind.macro is not None]
"""The bundled games' macros."""
KEY = re.compile(r'\b(?:localize|format)\("(RULEPRESS\.[^"]+)"')
"""A key a macro's code names (`localize("RULEPRESS...")`, `format("RULEPRESS...", {...})`)."""


@pytest.fixture(scope="module")
def modules(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("i18n")
    build(COMPENDIUM, out, ["foundry"])
    return out / "foundry"


def _macros(module: Path) -> dict[str, dict]:
    return {
        (document := json.loads(path.read_text()))["name"]: document
        for path in sorted((module / "src" / "packs" / "macros").glob("*.json"))
    }


def _flat(tree: dict, prefix: str = "") -> dict[str, str]:
    found = {}
    for name, value in tree.items():
        key = f"{prefix}{name}"
        found |= _flat(value, f"{key}.") if isinstance(value, dict) else {key: value}
    return found


def _lang(module: Path, code: str) -> dict[str, str]:
    return _flat(json.loads((module / "lang" / f"{code}.json").read_text()))


def test_the_lang_files_hold_exactly_the_keys_the_macros_use(modules):
    seen = 0
    for module in sorted(p for p in modules.iterdir() if p.is_dir()):
        used = set()
        for document in _macros(module).values():
            used |= set(KEY.findall(document["command"]))
        if not used:
            assert not (module / "lang").exists()
            continue
        seen += 1
        english = _lang(module, "en")
        titles = {key(title_key(macro)) for macro in MACROS}  # the macros' names
        assert set(english) - titles == used, module.name  # only its macros' and the shared
        assert all(english[k] for k in english)
        for lang in module.joinpath("lang").glob("*.json"):
            assert set(_lang(module, lang.stem)) == set(english), lang
    assert seen == 3  # iris, t2k4e and t2k-cuf have macros; cool has none


def test_every_bundled_macro_word_has_its_german():
    assert [m.template for m in MACROS] == [
        "iris-skill-test",
        "corruption-lookup",
        "t2k4e-roll",
        "cuf-threat-check",
    ]
    english, german = words_module.words("en"), words_module.words("de")
    for macro in MACROS:
        ours = catalog_keys(macro)
        assert f"{COMMON}_roll" in ours and title_key(macro) in ours
        assert len(ours) > 3, macro.template  # its own words, from its game's catalog
        assert english[title_key(macro)] == macro.title
        for word in ours:
            assert german.language_of(word) == "de", word  # German's own, no fallback
            assert german[word].strip()
            # the same {placeholders} in both
            assert re.findall(r"{\w+}", english[word]) == re.findall(r"{\w+}", german[word])
        assert set(words(macro, "de")) == set(words(macro, "en")) == {key(w) for w in ours}


def test_a_macros_words_are_the_catalogs_keys_with_its_prefix():
    (threat,) = [m for m in MACROS if m.template == "cuf-threat-check"]
    english = words(threat, "en")
    assert english["RULEPRESS.cuf_threat_check_passed"] == "passed"
    assert english["RULEPRESS.common_roll"] == "Roll"
    assert english["RULEPRESS.cuf_threat_check_title"] == "Threat Check"
    assert not any(k.startswith("RULEPRESS.iris") for k in english)  # another macro's
    assert "RULEPRESS.cool_critical_failure_from" not in english  # a template's word
    assert words(threat, "de")["RULEPRESS.cuf_threat_check_passed"] == "bestanden"
    renamed = Macro("cuf-threat-check", "Threat Test", threat.rules)
    with pytest.raises(RulepressError, match="'cuf_threat_check_title' is 'Threat Check'"):
        catalog_keys(renamed)  # English's name of the macro is its Macro.title


def test_module_json_lists_the_languages_of_its_lang_files(modules):
    cuf = json.loads((modules / "rulepress-t2k-cuf" / "module.json").read_text())
    assert cuf["languages"] == [
        {"lang": "en", "name": "English", "path": "lang/en.json"},
        {"lang": "de", "name": "Deutsch", "path": "lang/de.json"},
    ]
    iris = json.loads((modules / "rulepress-iris" / "module.json").read_text())
    assert iris["languages"] == [{"lang": "en", "name": "English", "path": "lang/en.json"}]
    cool = json.loads((modules / "rulepress-cool" / "module.json").read_text())
    assert "languages" not in cool  # no macro, no words of its own
    for entry in cuf["languages"]:
        assert (modules / "rulepress-t2k-cuf" / entry["path"]).is_file()


def test_the_macro_embeds_the_german_texts_of_the_translation(modules, bundled):
    command = _macros(modules / "rulepress-t2k-cuf")["Threat Check"]["command"]
    texts = json.loads(re.search(r"^const TEXTS = (.*);$", command, re.M).group(1))
    german = translated(bundled.compendium.ruleset("t2k-cuf"), "de").ruleset
    thresholds = sorted(german.all(ThreatThreshold), key=lambda t: t.exceeds)
    names = [texts["de"]["rules"]["thresholds"][str(i)]["name"] for i in range(3)]
    assert names == [t.name for t in thresholds] == ["Furcht", "Schrecken", "Kampf oder Flucht"]
    shown = texts["de"]["rules"]["thresholds"]["0"]
    assert shown["onFailure"]["text"] == thresholds[0].on_failure.text
    assert set(shown) == {"name", "onFailure", "onSuccess"}  # texts only, never a number
    assert texts["de"]["rules"]["calm"] == {"name": "Ruhig"}
    assert texts["de"]["title"] == "Coolness Under Fire für Twilight: 2000 v2.2: Bedrohungsprobe"


def _macro(module: Path, name: str) -> Path:
    (path,) = [
        p
        for p in (module / "src" / "packs" / "macros").glob("*.json")
        if json.loads(p.read_text())["name"] == name
    ]
    return path


def _german(module: Path) -> dict:
    return {"lang": "de", "files": [str(module / "lang/de.json"), str(module / "lang/en.json")]}


def test_a_german_game_master_reads_the_threat_check_in_german(node, modules):
    module = modules / "rulepress-t2k-cuf"
    path = _macro(module, "Threat Check")
    run = run_macro(
        node, path, {}, [3], dialog={"cuf": 4, "willpower": 6, "tcs": 5}, i18n=_german(module)
    )
    (dialog,) = run["dialogs"]
    assert dialog["title"] == "Coolness Under Fire für Twilight: 2000 v2.2: Bedrohungsprobe"
    assert dialog["button"] == "Würfeln" and ">Willenskraft</label>" in dialog["content"]
    (message,) = run["messages"]
    content = message["content"]
    assert "5 TCs gegen CUF 4: <strong>Furcht</strong>" in content
    assert (
        "Probe (durchschnittlich), höchstens 10 mit dem W20: gewürfelt 3, <strong>bestanden</strong>"
        in content
    )
    assert "Gelingt er dir, erleidest du dennoch" in content
    assert "passed" not in content and "against" not in content
    # what code reads stays the source's, whatever the language
    assert run["result"]["state"] == "fear" and run["result"]["passed"] is True


def test_without_the_modules_lang_files_the_words_fall_back_to_english(node, modules, tmp_path):
    module = modules / "rulepress-t2k-cuf"
    path = _macro(module, "Threat Check")
    core = tmp_path / "core-de.json"  # a German world's own words, none of the module's
    core.write_text(json.dumps({"COMBAT": {"Round": "Runde"}}))
    world = {"lang": "de", "files": [str(core)]}
    scope = {"cuf": 4, "willpower": 6, "tcs": 13}
    run = run_macro(node, path, scope, [20], i18n=world)
    content = run["messages"][0]["content"]
    # the words English, the data's texts still the translation's
    assert "13 TCs against CUF 4: <strong>Kampf oder Flucht</strong>" in content
    assert "Average check, 10 or less on a d20: rolled 20, <strong>failed</strong>" in content
    english = run_macro(node, path, {}, [20], dialog=scope)  # no game.i18n: the source
    content = english["messages"][0]["content"]
    assert "13 TCs against CUF 4: <strong>Fight or Flight</strong>" in content
    (dialog,) = english["dialogs"]
    assert dialog["button"] == "Roll" and ">Willpower</label>" in dialog["content"]
    assert dialog["title"] == "Coolness Under Fire for Twilight: 2000 v2.2: Threat Check"


def _german_words(bundled, ruleset_id: str, tmp_path: Path) -> dict:
    """The German lang file a module of `ruleset_id` would ship if it declared German."""
    ruleset = bundled.compendium.ruleset(ruleset_id)
    flat = {k: v for m in module_macros(ruleset) for k, v in words(m, "de").items()}
    path = tmp_path / f"{ruleset_id}-de.json"
    path.write_text(json.dumps(nested(flat), ensure_ascii=False))
    return {"lang": "de", "files": [str(path)]}


def test_the_other_macros_speak_german_words(node, modules, bundled, tmp_path):
    skill = _macro(modules / "rulepress-iris", "Skill Test")
    german = _german_words(bundled, "iris", tmp_path)
    run = run_macro(node, skill, {"rank": 1, "traits": [2]}, [6], i18n=german)
    content = run["messages"][0]["content"]
    assert "Höchste Eigenschaft: +2 AP" in content and "<strong>Gesamt:" in content
    lookup = _macro(modules / "rulepress-iris", "Corruption lookup")
    run = run_macro(node, lookup, {}, [], dialog={"level": 3}, i18n=german)
    assert ">Korruptionsstufe</label>" in run["dialogs"][0]["content"]
    assert "keine Zeile für Korruptionsstufe 3" in run["messages"][0]["content"]
    roll = _macro(modules / "rulepress-t2k4e", "Roll with Modifiers and Push")
    scope = {"attribute": "d6", "skill": None, "modifiers": [], "push": True}
    german = _german_words(bundled, "t2k4e", tmp_path)
    run = run_macro(node, roll, scope, [6], i18n=german)
    assert "1 Erfolg" in run["messages"][0]["content"]
    assert "Forciert, 0 Würfel neu geworfen" in run["messages"][0]["content"]


def test_a_declared_language_without_words_shows_english_with_a_notice(tmp_path, capsys):
    words_module._words.cache_clear()  # the words module notices once per run: this one's
    compendium = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM / "t2k-cuf", compendium / "t2k-cuf")
    info = compendium / "t2k-cuf" / "ruleset.yaml"
    data = yaml.safe_load(info.read_text())
    data["languages"].append({"code": "fr", "name": "Français"})
    info.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    build(compendium, tmp_path / "out", ["foundry"])
    module = tmp_path / "out" / "foundry" / "rulepress-t2k-cuf"
    assert sorted(p.name for p in (module / "lang").iterdir()) == ["de.json", "en.json"]
    codes = [
        entry["lang"] for entry in json.loads((module / "module.json").read_text())["languages"]
    ]
    assert codes == ["en", "de"]
    notices = [line for line in capsys.readouterr().err.splitlines() if "'fr'" in line]
    assert notices == ["words: rulepress has no words in 'fr': its outputs show English words"]


def test_nested_keys_are_paths_into_the_lang_file(bundled):
    assert nested({"RULEPRESS.a.b": "x", "RULEPRESS.a.c": "y"}) == {
        "RULEPRESS": {"a": {"b": "x", "c": "y"}}
    }
    files = lang_files(bundled.compendium.ruleset("t2k-cuf"))
    german = json.loads(files["lang/de.json"])
    assert german["RULEPRESS"]["cuf_threat_check_check"].startswith("Probe ({difficulty})")


def test_a_translated_text_reaches_the_chat_card_escaped_and_inert(node, tmp_path):
    compendium = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM / "t2k-cuf", compendium / "t2k-cuf")
    fear = compendium / "t2k-cuf" / "translations" / "de" / "thresholds" / "fear.yaml"
    hostile = "Furcht <img src=x onerror=alert(1)> [[/r 1d20]] @UUID[x]"
    fear.write_text(fear.read_text().replace("text: Furcht\n", f"text: '{hostile}'\n", 1))
    build(compendium, tmp_path / "out", ["foundry"])
    module = tmp_path / "out" / "foundry" / "rulepress-t2k-cuf"
    run = run_macro(
        node,
        _macro(module, "Threat Check"),
        {"cuf": 4, "willpower": 6, "tcs": 5},
        [3],
        i18n=_german(module),
    )
    content = run["messages"][0]["content"]
    assert "Furcht &lt;img src=x onerror=alert(1)&gt;" in content and "<img" not in content
    assert "[[/r" not in content and "@UUID[" not in content  # a word joiner keeps them text
    assert "[\u2060[/r 1d20]] @\u2060UUID[x]" in content


def test_a_translated_tables_name_is_shown_and_found_but_the_result_keeps_the_source(
    node, tmp_path
):
    compendium = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM / "iris", compendium / "iris")
    info = compendium / "iris" / "ruleset.yaml"
    info.write_text(info.read_text() + "languages:\n  - {code: de, name: Deutsch}\n")
    events = "torture, mass murder, cannibalism, multiple rapes (or equivalent events)"
    texts = {
        "name": ("Korruptionsauslöser", "Corruption Triggers"),
        "rows[0].events": ("Folter, Massenmord, Kannibalismus (oder Gleichwertiges)", events),
    }
    translation = {
        "kind": "translation",
        "id": "corruption-triggers-de",
        "document": "corruption-triggers",
        "language": "de",
        "texts": {at: {"text": t, "digest": digest(s)} for at, (t, s) in texts.items()},
    }
    path = compendium / "iris" / "translations" / "de" / "corruption" / "corruption-triggers.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump(translation, allow_unicode=True, sort_keys=False))
    build(compendium, tmp_path / "out", ["foundry"])
    module = tmp_path / "out" / "foundry" / "rulepress-iris"
    lookup = _macro(module, "Corruption lookup")
    for table in ("Corruption Triggers", "Korruptionsauslöser"):  # by either name
        run = run_macro(node, lookup, {"level": 10, "table": table}, [], i18n=_german(module))
        content = run["messages"][0]["content"]
        assert content.startswith("<h3>IRIS"), content
        assert "Korruptionsauslöser, Korruptionsstufe 10: <strong>" in content
        assert "Folter, Massenmord" in content
        assert run["result"]["table"] == "Corruption Triggers"  # what code reads: the source's
    # a world whose table came from the pack Babele shows in German: drawn by that name
    run = run_macro(
        node, lookup, {"level": 10}, [], tables=["Korruptionsauslöser"], i18n=_german(module)
    )
    assert run["draws"] == [{"table": "Korruptionsauslöser", "total": 10}]
