"""module.json for Foundry v12, v13 and v14: each build declares the one generation it
was made and checked for (`compatibility` minimum = verified = the target)."""

from __future__ import annotations

import re

from rulepress.compendium.model import Ruleset
from rulepress.exporters.escaping import html_text
from rulepress.exporters.foundry.lang import manifest_languages
from rulepress.exporters.foundry.pack import Pack
from rulepress.exporters.foundry.packs.common import ModuleOptions
from rulepress.models.settings import FoundrySettings, Settings, fill

BABELE_SCRIPT = "scripts/babele.js"
"""The script a translated module loads (foundry/babele.py writes it)."""
PACK_OWNERSHIP = {"PLAYER": "OBSERVER", "ASSISTANT": "OWNER"}
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
"""A Markdown code span: a run of backticks, text, the same run again (CommonMark)."""


def description_html(text: str) -> str:
    """A summary or credit line as the HTML Foundry shows a package's description in:
    its text escaped, each Markdown code span (`rulepress init`) a <code>, no backtick
    left to show."""
    parts, written = [], 0
    text = " ".join(text.split())
    for span in CODE_SPAN.finditer(text):
        code = span.group(2)
        if code.startswith(" ") and code.endswith(" ") and code.strip():
            code = code[1:-1]  # CommonMark strips one space each side
        parts += [html_text(text[written : span.start()]), f"<code>{html_text(code)}</code>"]
        written = span.end()
    return "".join([*parts, html_text(text[written:])])


def authors(ruleset: Ruleset, foundry: FoundrySettings) -> list[dict]:
    """The module's authors: the settings' (their empty fields left out), else the
    sources' authors, each with the source it wrote."""
    if foundry.authors:
        return [author.model_dump(exclude_defaults=True) for author in foundry.authors]
    return [
        {"name": source.author, "flags": {"rulepress": {"source": source.title}}}
        for source in ruleset.info.sources
    ]


PACK_ORDER = ("JournalEntry", "Item", "RollTable", "Macro")
"""The manifest's order of packs (and Foundry's sidebar's): the rules journal, then the
Items, the RollTables and the macros, each type's packs in the order they were made."""


def manifest(
    ruleset: Ruleset,
    options: ModuleOptions,
    packs: list[Pack],
    settings: Settings | None = None,
    languages: list[str] = (),
) -> dict:
    """The module's manifest, with the publisher's title, authors and release URLs; a
    module with its packs translated into `languages` loads the script that registers
    them with Babele, which it recommends (babele.py); a module with macros lists their
    lang files (lang.py)."""
    settings = settings or Settings()
    info = ruleset.info
    version = str(options.foundry_version)
    packs = sorted(packs, key=lambda pack: PACK_ORDER.index(pack.type))
    placeholders = settings.placeholders(ruleset.id, info.title, info.version)
    return {
        "id": options.module_id,
        "title": fill(settings.foundry.title, **placeholders),
        # Foundry shows a package's description as HTML (setup, module management).
        "description": "".join(
            f"<p>{description_html(text)}</p>"
            for text in (info.summary, *(source.credit for source in info.sources))
        ),
        "version": info.version,
        "authors": authors(ruleset, settings.foundry),
        "compatibility": {"minimum": version, "verified": version},
        # Foundry needs `manifest` to update a module and `download` to install it; the
        # other links are shown on its page in Foundry's package list
        **settings.release_links(ruleset.id, info.title, info.version),
        "packs": [
            {
                "name": pack.name,
                "label": pack.label,
                "path": f"packs/{pack.name}",
                "type": pack.type,
                **({"system": pack.system} if pack.system else {}),
                "ownership": PACK_OWNERSHIP,
                "flags": {},
            }
            for pack in packs
        ],
        **(_translated(languages) if languages else {}),
        **_languages(ruleset),
        "packFolders": [
            {
                "name": info.title,
                "sorting": "m",
                "color": None,
                "packs": [pack.name for pack in packs],
                "folders": [],
            }
        ],
        "flags": {
            "rulepress": {
                "ruleset": ruleset.id,
                "game": info.game,
                "sources": [source.model_dump(mode="json") for source in info.sources],
            }
        },
    }


def _languages(ruleset: Ruleset) -> dict:
    """The lang files of the macros' words (lang.py): English and each language they
    have; none for a module without macros."""
    shipped = manifest_languages(ruleset)
    return {"languages": shipped} if shipped else {}


def _translated(languages: list[str]) -> dict:
    """What the manifest of a module whose packs are translated adds: Babele's script,
    and Babele as a recommended module (Foundry offers to install it; the packs show in
    the source's language without it)."""
    return {
        "esmodules": [BABELE_SCRIPT],
        "relationships": {
            "recommends": [
                {
                    "id": "babele",
                    "type": "module",
                    "reason": f"Shows the packs in {', '.join(languages)} (their translations)",
                }
            ]
        },
    }
