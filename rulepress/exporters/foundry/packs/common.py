"""What every pack module shares: the module's options, ids and keys, escaping for
Foundry, and the HTML pieces that an Item and a journal page both show (`Shared`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import jinja2
from markupsafe import Markup

from rulepress.compendium.model import Ruleset
from rulepress.exporters import templating
from rulepress.exporters.escaping import URL_FILTERS, html_attribute
from rulepress.exporters.foundry.enrichers import inert
from rulepress.exporters.foundry.ids import foundry_id
from rulepress.exporters.foundry.pack import Pack
from rulepress.exporters.markdown_text import TEMPLATES
from rulepress.exporters.pieces import Pieces
from rulepress.exporters.rich_text import html_filter
from rulepress.kinds.systems import ItemSystem

T = TypeVar("T")

SORT_STEP = 100_000  # Foundry's CONST.SORT_INTEGER_DENSITY

CORE_BUILDS = {12: "12.331", 13: "13.341", 14: "14.359"}
"""The Foundry build each target's documents say they were written by (`_stats.coreVersion`):
v12's last release, v13's and v14's first stable ones (docs/foundry-v14.md). A document
stamped with a build newer than the Foundry that loads it fails that Foundry's startup
migration (Foundryborne/daggerheart #1358 stamps the minimum build for this reason), so the
stamp is an early build of the generation, never a newer one than a user of that
generation would run."""
RELEASE_TIME = 315_532_800_000
"""1980-01-01T00:00:00Z in milliseconds: every document's `createdTime`/`modifiedTime`
and the release zip's file times (the earliest a zip can hold), so rebuilds are identical."""
BUILDER_ID = "rulepressbuilder"
"""`_stats.lastModifiedBy`: a fixed 16-character user id, as dnd5e's `dnd5ebuilder0000`."""


@dataclass(frozen=True)
class ModuleOptions:
    """What the build asks of every module: its id, the Foundry version, the system."""

    module_id: str
    foundry_version: int
    system: str
    """The id of the Foundry system its Items and macros are made for (`foundry.system`)."""

    def stats(self, system: ItemSystem | None = None) -> Stats:
        """The `_stats` of the module's documents; `system` for those of a system's pack."""
        return Stats(
            self.foundry_version,
            system.id if system else None,
            system.version if system else None,
        )


@dataclass(frozen=True)
class Stats:
    """A document's `_stats` (Foundry's DocumentStatsField), as Foundry v12, v13 or v14
    writes it (v14's fields are v13's), with fixed times: the packs read as current,
    never as data to migrate."""

    foundry_version: int
    system_id: str | None = None
    system_version: str | None = None

    def field(self) -> dict:
        """The `_stats` field of a document of this module."""
        stats = {
            "coreVersion": CORE_BUILDS[self.foundry_version],
            "systemId": self.system_id,
            "systemVersion": self.system_version,
            "createdTime": RELEASE_TIME,
            "modifiedTime": RELEASE_TIME,
            "lastModifiedBy": BUILDER_ID,
            "compendiumSource": None,
            "duplicateSource": None,
        }
        if self.foundry_version >= 13:
            stats["exportSource"] = None  # new in v13
        return stats


OpenPack = Callable[..., Pack]
"""open_pack(name, label, type, system=None): a new, empty Pack."""


@dataclass(frozen=True)
class Module:
    """What every pack of one ruleset's module is made from."""

    ruleset: Ruleset
    options: ModuleOptions
    env: jinja2.Environment
    """The Markdown section templates."""
    shared: Shared
    """The HTML pieces the Items' descriptions and the journal pages share."""
    open_pack: OpenPack
    pieces: Pieces | None = None
    """What a watch run kept of the last render (a build keeps nothing)."""

    def piece(self, name: Hashable, reads: tuple, make: Callable[[], T]) -> T:
        """`make()`, or the piece kept from the last render of the same `reads`."""
        return make() if self.pieces is None else self.pieces.get(name, reads, make)


def key(collection: str, *ids: str) -> str:
    """A source document's `_key`: `!collection!id` (embedded: `!parent.child!a.b`)."""
    return f"!{collection}!{'.'.join(ids)}"


def document_id(ruleset: Ruleset, kind: str, slug: str) -> str:
    """A document's stable Foundry id, made from the ruleset, the kind of document and its slug."""
    return foundry_id(ruleset.id, kind, slug)


def foundry_text(text: str) -> str:
    """Data text as Foundry HTML: inert for the enrichers, escaped."""
    return str(html_attribute(inert(text)))


def html_environment(user_templates: Path | None = None) -> jinja2.Environment:
    """Templates that write HTML directly (autoescaped). Weapons are rendered this way,
    not through Markdown: converting their tables was nearly all of a large export's time.
    A user folder, if given, overrides shipped templates by name. Every text a template
    writes is made inert for Foundry's enrichers before it is escaped; markup made by the
    exporter (a weapon's tables, its skill's link) is written as it is."""
    env = templating.environment(
        TEMPLATES / "foundry",
        user_templates,
        plugins="foundry",
        autoescape=True,  # markupsafe's escape: what escaping.html_attribute does
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_inert_text,
    )
    env.filters.update(URL_FILTERS, rich=html_filter(inert))
    return env


def _inert_text(value: object) -> object:
    return inert(value) if isinstance(value, str) and not isinstance(value, Markup) else value


class Shared:
    """The module's HTML templates, and the HTML pieces several documents show (a weapon's
    tables, in its Item and on its section's journal page): each rendered on first use,
    then the same markup for every document that shows it. A kind's `description_context`
    and `journal` hooks get it."""

    def __init__(self, html: jinja2.Environment) -> None:
        """Nothing is rendered yet; what is, lives as long as this Shared: one render of a
        module (a watch run keeps the Items and pages made from it, not the pieces)."""
        self.html = html
        """The HTML templates (`foundry/*.html.j2`, a plugin's included)."""
        self.pieces = Pieces()

    def get(self, name: Hashable, reads: tuple, make: Callable[[], T]) -> T:
        """The piece `name` made from `reads` (compared by identity, see `Pieces.get`):
        `make()` the first time, the same piece after."""
        return self.pieces.get(name, reads, make)
