"""The macros' own words in each language, as Foundry's `languages` files.

Every word a macro shows (its dialog's labels and button, its chat card's sentences) is a
word of rulepress's words catalogs (rulepress.translations.words: rulepress's own, each
plugin's `words/<language>.yaml` beside its templates), and a key of Foundry's
`game.i18n`: `RULEPRESS.<key>`. A macro's words are the catalog keys that start with its
template's name, `_` for `-` (`cuf_threat_check_passed` for `cuf-threat-check.js.j2`), the
shared helpers' (`_common.js.j2`) those that start with `common_`; `<macro>_title` is its
translated name, whose English is the kind's `Macro.title`. A text may name
`{placeholders}`, which `game.i18n.format` fills.

The module ships `lang/en.json` always and `lang/<code>.json` for each language its
ruleset declares whose catalogs word some of its macros' (or the shared) words; others
show in English, key by key, as rulepress's words do (a language with no catalog at all
has the words module's one notice). Each macro embeds its English words too, so it still
speaks (English) in a world without the module's lang files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.errors import RulepressError
from rulepress.kinds import Macro
from rulepress.translations import editions
from rulepress.translations import words as catalogs

NAMESPACE = "RULEPRESS"
"""The first part of every key (Foundry's custom: a package's keys under its own name)."""
COMMON = "common"
"""The shared helpers' (`_common.js.j2`) words' prefix: every macro has them."""
SOURCE = catalogs.SOURCE
"""The catalogs' source language: every word has its English text."""
FOLDER = "lang"
"""The module's folder of lang files."""
TITLE = "title"
"""The word a catalog translates a macro's name (`Macro.title`) by: `<macro>_title`."""


def module_macros(ruleset: Ruleset) -> list[Macro]:
    """The macros a module of `ruleset` has: each kind's with a document in the ruleset,
    in the registry's order (as the `macros` pack holds them)."""
    return [
        kind.macro
        for kind in kinds.registry().values()
        if kind.macro is not None and ruleset.one(kind.model) is not None
    ]


def prefix(macro: Macro) -> str:
    """What the catalog keys of `macro`'s words start with: `cuf_threat_check_`."""
    return macro.template.replace("-", "_") + "_"


def title_key(macro: Macro) -> str:
    """The catalog key of `macro`'s translated name: `cuf_threat_check_title`."""
    return prefix(macro) + TITLE


def key(word: str) -> str:
    """The i18n key of a catalog's word: `RULEPRESS.cuf_threat_check_passed`."""
    return f"{NAMESPACE}.{word}"


def catalog_keys(macro: Macro) -> list[str]:
    """`macro`'s words and the shared ones: the English catalog's keys with their prefixes,
    and its title's (refused if English words it otherwise than `Macro.title`)."""
    english = catalogs.words(SOURCE)
    title = english.get(title_key(macro), macro.title)
    if title != macro.title:
        raise RulepressError(
            f"words: {title_key(macro)!r} is {title!r} in English, but the macro's name is "
            f"{macro.title!r} (its Macro.title)"
        )
    ours = [k for k in english if k.startswith((COMMON + "_", prefix(macro)))]
    return sorted({*ours, title_key(macro)})


def words(macro: Macro, language: str) -> dict[str, str]:
    """`macro`'s words and the shared ones in `language` by i18n key; English where the
    catalogs lack a word (the English of its title is `Macro.title`)."""
    shown = catalogs.words(language)  # every English word, but maybe not the title
    return {key(word): shown.get(word, macro.title) for word in catalog_keys(macro)}


def languages_of(ruleset: Ruleset) -> list[str]:
    """The languages the module's lang files are in: English, then each the ruleset
    declares whose catalogs word some of its macros' (or the shared) words."""
    macros = module_macros(ruleset)
    if not macros:
        return []
    used = {word for macro in macros for word in catalog_keys(macro)}
    declared = [plan.code for plan in ruleset.info.languages]
    return [
        SOURCE,
        *(
            code
            for code in declared
            if code.split("-")[0].lower() != SOURCE and used & catalogs.words(code).own
        ),
    ]


def manifest_languages(ruleset: Ruleset) -> list[dict]:
    """module.json's `languages`: each lang file, its language's name in itself."""
    names = {SOURCE: "English"} | {plan.code: plan.name for plan in ruleset.info.languages}
    return [
        {"lang": code, "name": names[code], "path": f"{FOLDER}/{code}.json"}
        for code in languages_of(ruleset)
    ]


def lang_files(ruleset: Ruleset) -> dict[str, bytes]:
    """Each lang file of the module by its path in it ({} for a module without macros)."""
    macros = module_macros(ruleset)
    files = {}
    for code in languages_of(ruleset):
        flat: dict[str, str] = {}
        for macro in macros:
            flat |= words(macro, code)
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


def texts(ruleset: Ruleset, macro: Macro, source: dict) -> dict:
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
        name = words(macro, edition.language)[key(title_key(macro))]
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
