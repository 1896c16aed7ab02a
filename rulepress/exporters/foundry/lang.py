"""The macros' own words in each language, as Foundry's `languages` files.

Every word a macro shows (its dialog's labels and button, its chat card's sentences) is a
key of Foundry's `game.i18n`: `RULEPRESS.<template>.<word>`, where `<template>` is the
macro template's name (`cuf-threat-check`) and `_common` the shared helpers'
(`_common.js.j2`). The words live in a catalog beside each template,
`<template>.words.yaml` (`_common.words.yaml` for the shared ones), found the way the
templates are (the installed templates, then each game plugin's `foundry/macros/`): a
mapping of language tags to `{word: text}`, English (`en`) holding every word. A text
may name `{placeholders}`, which `game.i18n.format` fills.

The module ships `lang/en.json` always and `lang/<code>.json` for each language its
ruleset declares that some of its macros' catalogs have; a declared language no catalog
has shows English, with a notice. Each macro embeds its English words too, so it still
speaks (English) in a world without the module's lang files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import jinja2
import yaml

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.errors import RulepressError
from rulepress.kinds import Macro
from rulepress.progress import notice
from rulepress.translations import editions

NAMESPACE = "RULEPRESS"
"""The first part of every key (Foundry's custom: a package's keys under its own name)."""
COMMON = "_common"
"""The shared helpers' template, whose words every macro has."""
SOURCE = "en"
"""The catalogs' source language: every word has its English text."""
FOLDER = "lang"
"""The module's folder of lang files."""
SUFFIX = ".words.yaml"
TITLE = "title"
"""The word a catalog translates a macro's name (`Macro.title`) by; English's is the
name itself."""


def module_macros(ruleset: Ruleset) -> list[Macro]:
    """The macros a module of `ruleset` has: each kind's with a document in the ruleset,
    in the registry's order (as the `macros` pack holds them)."""
    return [
        kind.macro
        for kind in kinds.registry().values()
        if kind.macro is not None and ruleset.one(kind.model) is not None
    ]


def catalog(env: jinja2.Environment, template: str) -> dict[str, dict[str, str]]:
    """A template's words by language ({} without a catalog): the first
    `<template>.words.yaml` the environment finds."""
    try:
        text, where, _ = env.loader.get_source(env, template + SUFFIX)
    except jinja2.TemplateNotFound:
        return {}
    data = yaml.safe_load(text) or {}
    if not isinstance(data, dict) or not all(
        isinstance(words, dict)
        and all(isinstance(w, str) and isinstance(t, str) for w, t in words.items())
        for words in data.values()
    ):
        raise RulepressError(f"{where}: a words catalog maps languages to {{word: text}}")
    if data and SOURCE not in data:
        raise RulepressError(f"{where}: a words catalog holds every word in {SOURCE!r}")
    return {str(language): dict(words) for language, words in data.items()}


def words(env: jinja2.Environment, macro: Macro, language: str) -> dict[str, str]:
    """`macro`'s words and the shared ones in `language` by key; English where the
    catalog has no such language or word (the English of its title is `Macro.title`)."""
    found: dict[str, str] = {}
    for template, extra in ((COMMON, {}), (macro.template, {TITLE: macro.title})):
        books = catalog(env, template)
        english = {**extra, **books.get(SOURCE, {})}
        ours = books.get(language, {}) if language != SOURCE else {}
        for word, text in english.items():
            found[key(template, word)] = ours.get(word) or text
    return found


def key(template: str, word: str) -> str:
    """The i18n key of a template's word: `RULEPRESS.cuf-threat-check.passed`."""
    return f"{NAMESPACE}.{template}.{word}"


def languages_of(env: jinja2.Environment, ruleset: Ruleset) -> list[str]:
    """The languages the module's lang files are in: English, then each the ruleset
    declares that a catalog of its macros (or the shared one) has."""
    macros = module_macros(ruleset)
    if not macros:
        return []
    books = [catalog(env, t) for t in (COMMON, *(m.template for m in macros))]
    declared = [plan.code for plan in ruleset.info.languages if plan.code != SOURCE]
    return [SOURCE, *(code for code in declared if any(code in book for book in books))]


def manifest_languages(env: jinja2.Environment, ruleset: Ruleset) -> list[dict]:
    """module.json's `languages`: each lang file, its language's name in itself."""
    names = {SOURCE: "English"} | {plan.code: plan.name for plan in ruleset.info.languages}
    return [
        {"lang": code, "name": names[code], "path": f"{FOLDER}/{code}.json"}
        for code in languages_of(env, ruleset)
    ]


def lang_files(env: jinja2.Environment, ruleset: Ruleset, module_id: str) -> dict[str, bytes]:
    """Each lang file of the module by its path in it ({} for a module without macros);
    says, once for the module, each declared language no catalog has."""
    macros = module_macros(ruleset)
    shipped = languages_of(env, ruleset)
    for plan in ruleset.info.languages:
        if macros and plan.code not in shipped:
            notice(
                f"foundry: {module_id}'s macros have no words in {plan.code!r}: "
                "their dialogs and chat cards show English"
            )
    files = {}
    for code in shipped:
        flat: dict[str, str] = {}
        for macro in macros:
            flat |= words(env, macro, code)
        text = json.dumps(nested(flat), indent=2, ensure_ascii=False, sort_keys=True)
        files[f"{FOLDER}/{code}.json"] = (text + "\n").encode()
    return files


def nested(flat: dict[str, str]) -> dict:
    """Dotted keys as the nested objects Foundry's lang files hold (`game.i18n` reads
    a key as a path into them)."""
    tree: dict = {}
    for dotted, text in flat.items():
        *parents, last = dotted.split(".")
        place = tree
        for part in parents:
            place = place.setdefault(part, {})
        place[last] = text
    return tree


def texts(env: jinja2.Environment, ruleset: Ruleset, macro: Macro, source: dict) -> dict:
    """What the macro shows in each language the ruleset declares, besides English:
    `{language: {"title": ..., "rules": ...}}`, `rules` holding only the texts of
    `macro.rules(...)` that its translation changes (at the same places: a list by
    index), `title` the title shown, when either differs. Numbers stay the source's."""
    shown: dict[str, dict] = {}
    for edition in editions(ruleset):
        ours: dict = {}
        changed = _changed(source, macro.rules(edition.ruleset))
        if changed is not None:
            ours["rules"] = changed
        name = words(env, macro, edition.language)[key(macro.template, TITLE)]
        title = f"{edition.ruleset.info.title}: {name}"
        if title != f"{ruleset.info.title}: {macro.title}":
            ours["title"] = title
        if ours:
            shown[edition.language] = ours
    return shown


def _changed(source: object, ours: object) -> object | None:
    """The strings of `ours` that differ from `source` at the same places, or None."""
    if isinstance(source, str):
        return ours if isinstance(ours, str) and ours != source else None
    if isinstance(source, dict) and isinstance(ours, dict):
        pairs: Iterable = ((k, v, ours.get(k)) for k, v in source.items())
    elif isinstance(source, list | tuple) and isinstance(ours, list | tuple):
        pairs = ((str(i), v, o) for i, (v, o) in enumerate(zip(source, ours, strict=False)))
    else:
        return None
    found = {k: c for k, v, o in pairs if (c := _changed(v, o)) is not None}
    return found or None
