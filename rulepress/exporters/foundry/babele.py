"""A module's packs in each language its ruleset is translated into, as Babele's
translation files: `translations/<language>/<module id>.<pack>.json`.

Babele (the Foundry module game masters use for compendium translations) shows a pack's
documents in the player's language from such a file, keyed by each document's name in
the source: the packs stay one, so a world's links to them keep working whatever its
language. Each entry holds only what the translation changes (names, journal pages,
descriptions, table results); a script the module loads registers the folder when
Babele is active, and does nothing without it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from rulepress.compendium.model import Ruleset
from rulepress.exporters.foundry.lang import FOLDER as LANG_FOLDER
from rulepress.exporters.foundry.lang import lang_files
from rulepress.exporters.foundry.manifest import BABELE_SCRIPT
from rulepress.exporters.foundry.pack import Pack, Ready
from rulepress.exporters.foundry.packs import ModuleOptions, build_packs
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.templating import with_words
from rulepress.output_names import safe_child
from rulepress.translations import editions

FOLDER = "translations"
SCRIPT = BABELE_SCRIPT


@dataclass
class _Collected(Pack):
    """A pack that keeps its documents as data (never written)."""

    raw: list[dict] = field(default_factory=list)

    def keep(self, ready: Ready) -> Ready:
        """Every document comes here (`add` makes it ready first): kept as data, read
        back from its source file's bytes, which a pack without a folder holds."""
        self.raw.append(json.loads(ready.source))
        return super().keep(ready)


def babele_files(
    ruleset: Ruleset, options: ModuleOptions, env: jinja2.Environment, html: jinja2.Environment
) -> dict[str, bytes]:
    """Each translation file (its path in the module) and, when there is any, the script
    that registers them; {} for a ruleset translated into no language."""
    translated = editions(ruleset)
    if not translated:
        return {}
    source = {pack.name: pack for pack in _packs(ruleset, options, env, html)}
    files = {SCRIPT: _script(options.module_id, [e.language for e in translated])}
    for edition in translated:
        for pack in _packs(edition.ruleset, options, env, html, edition.language):
            entries = dict(_entries(source[pack.name].raw, pack.raw))
            path = f"{FOLDER}/{edition.language}/{options.module_id}.{pack.name}.json"
            data = {"label": pack.label, "entries": entries}
            files[path] = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()
    return dict(sorted(files.items()))


def _packs(ruleset, options, env, html, language: str | None = None) -> list[_Collected]:
    """The packs as data; rulepress's own words (the journal's) in `language` if given."""
    if language is not None:
        env, html = with_words(env, language), with_words(html, language)
    return list(build_packs(ruleset, options, env, html, _Collected))


def _entries(source: list[dict], translated: list[dict]) -> Iterator[tuple[str, dict]]:
    """(source name, what Babele replaces) for each document the translation changes,
    matched by id (the same in both: ids come from document ids, never from names)."""
    by_id = {document["_id"]: document for document in translated}
    for document in source:
        ours = by_id.get(document["_id"])
        if ours is None or ours == document:
            continue
        entry = _changed(document, ours, ("name", "description"))
        pages = {
            page["name"]: _page(page, mine)
            for page, mine in zip(document.get("pages", []), ours.get("pages", []), strict=False)
            if page != mine
        }
        if pages:
            entry["pages"] = pages
        results = {
            f"{result['range'][0]}-{result['range'][1]}": mine.get("description", "")
            for result, mine in zip(
                document.get("results", []), ours.get("results", []), strict=False
            )
            if result.get("description") != mine.get("description")
        }
        if results:
            entry["results"] = results
        item_text = ours.get("system", {}).get("description")
        if isinstance(item_text, dict) and item_text != document["system"].get("description"):
            entry["description"] = item_text.get("value", "")  # an Item's text
        if entry:
            yield document["name"], entry


def _changed(source: dict, ours: dict, fields: tuple[str, ...]) -> dict:
    return {
        f: ours[f]
        for f in fields
        if f in ours and ours[f] != source.get(f) and isinstance(ours[f], str)
    }


def _page(source: dict, ours: dict) -> dict:
    page = _changed(source, ours, ("name",))
    if ours.get("text", {}).get("content") != source.get("text", {}).get("content"):
        page["text"] = ours["text"]["content"]
    return page


def _script(module_id: str, languages: list[str]) -> bytes:
    """The script that registers the translation folders with Babele, if it is active."""
    registrations = [
        {"module": module_id, "lang": lang, "dir": f"{FOLDER}/{lang}"} for lang in languages
    ]
    calls = "\n".join(f"    babele.register({json.dumps(each)});" for each in registrations)
    return (
        "// Generated by rulepress: the packs' translations, for Babele (when it is active).\n"
        'Hooks.once("babele.init", (babele) => {\n'
        f"{calls}\n"
        "});\n"
    ).encode()


def write_translations(
    output: OutputFolder,
    module: Path,
    ruleset: Ruleset,
    options: ModuleOptions,
    env: jinja2.Environment,
    html: jinja2.Environment,
) -> list[str]:
    """Write the module's translation files and its macros' lang files (lang.py; only
    those whose bytes changed: a watch writes them again), remove those no longer made,
    and return the languages, which the manifest names."""
    files = babele_files(ruleset, options, env, html)
    _write(output, module, FOLDER, files)
    if not files:
        output.remove(safe_child(module, *SCRIPT.split("/")))
    _write(output, module, LANG_FOLDER, lang_files(ruleset))
    return [plan.code for plan in ruleset.info.languages]


def _write(output: OutputFolder, module: Path, folder: str, files: dict[str, bytes]) -> None:
    """Write `files` into the module; below its `folder`, remove the files no longer
    made (the folder itself when none is)."""
    for path, data in files.items():
        output.write_if_changed(safe_child(module, *path.split("/")), data)
    ours = {path for path in files if path.startswith(f"{folder}/")}
    for parts, is_folder in output.files(module / folder, skip_links=True) if ours else ():
        if not is_folder and "/".join((folder, *parts)) not in ours:
            output.remove(module.joinpath(folder, *parts))
    if not ours:
        output.remove(module / folder)
