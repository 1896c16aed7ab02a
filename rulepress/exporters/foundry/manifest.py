"""module.json for Foundry v12 and v13."""

from __future__ import annotations

import html

from rulepress.compendium.model import Ruleset
from rulepress.exporters import ExportOptions
from rulepress.exporters.foundry.pack import Pack
from rulepress.exporters.foundry.packs.common import ModuleOptions

PACK_OWNERSHIP = {"PLAYER": "OBSERVER", "ASSISTANT": "OWNER"}


def release_links(options: ExportOptions, module_id: str) -> dict[str, str]:
    """module.json's `url`, `manifest` and `download`, those the options give, with
    `{module}` replaced by the module's id (Foundry needs `manifest` to update a module
    and `download` to install it)."""
    given = {
        "url": options.foundry_url,
        "manifest": options.foundry_manifest,
        "download": options.foundry_download,
    }
    return {name: url.replace("{module}", module_id) for name, url in given.items() if url}


def manifest(
    ruleset: Ruleset, options: ModuleOptions, packs: list[Pack], links: dict[str, str] | None = None
) -> dict:
    """The module's manifest; `links` are its release URLs (release_links)."""
    info = ruleset.info
    credits = " ".join(source.credit for source in info.sources)
    version = str(options.foundry_version)
    return {
        "id": options.module_id,
        "title": info.title,
        # Foundry shows a package's description as HTML (setup, module management).
        "description": html.escape(" ".join(f"{info.summary} {credits}".split()), quote=False),
        "version": info.version,
        "authors": [
            {"name": source.author, "flags": {"rulepress": {"source": source.title}}}
            for source in info.sources
        ],
        "compatibility": {"minimum": version, "verified": version},
        **(links or {}),
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
