"""module.json for Foundry v12 and v13."""

from __future__ import annotations

from rulepress.compendium.model import Ruleset
from rulepress.exporters.escaping import html_text
from rulepress.exporters.foundry.pack import Pack
from rulepress.exporters.foundry.packs.common import ModuleOptions
from rulepress.models.settings import FoundrySettings, Settings, fill

PACK_OWNERSHIP = {"PLAYER": "OBSERVER", "ASSISTANT": "OWNER"}


def authors(ruleset: Ruleset, foundry: FoundrySettings) -> list[dict]:
    """The module's authors: the settings' (their empty fields left out), else the
    sources' authors, each with the source it wrote."""
    if foundry.authors:
        return [author.model_dump(exclude_defaults=True) for author in foundry.authors]
    return [
        {"name": source.author, "flags": {"rulepress": {"source": source.title}}}
        for source in ruleset.info.sources
    ]


def manifest(
    ruleset: Ruleset, options: ModuleOptions, packs: list[Pack], settings: Settings | None = None
) -> dict:
    """The module's manifest, with the publisher's title, authors and release URLs."""
    settings = settings or Settings()
    info = ruleset.info
    credits = " ".join(source.credit for source in info.sources)
    version = str(options.foundry_version)
    return {
        "id": options.module_id,
        "title": fill(settings.foundry.title, **settings.placeholders(ruleset.id, info.title)),
        # Foundry shows a package's description as HTML (setup, module management).
        "description": html_text(" ".join(f"{info.summary} {credits}".split())),
        "version": info.version,
        "authors": authors(ruleset, settings.foundry),
        "compatibility": {"minimum": version, "verified": version},
        # Foundry needs `manifest` to update a module and `download` to install it
        **settings.release_links(ruleset.id, info.title),
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
