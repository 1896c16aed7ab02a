"""The kind registry: one entry declares everything rulepress does with a document kind.

An entry (`Kind`) names the kind's model and, where the kind has them: where it sits in
the guide and which section template renders it, its Foundry mapping (Items with
attributes, or a RollTable), its macro, its chart on the site, and its `roll`, `odds`
and `new` subcommands. The loader, the exporters and the CLI iterate the registry; none
of them names a kind. Hooks that live in higher layers (a chart, a click command) are
named as `"module:attribute"` and imported only when used, so this layer imports no
exporter.

Kinds come in games (`Game`): the core's own (a ruleset's `ruleset.yaml`, rule texts),
then every game installed under the `rulepress.games` entry-point group, rulepress's four
included, by `Game.order` then id. The older `rulepress.kinds` group, each entry point
naming a sequence of `Kind`, is still read: each is a game of its own at order 1000.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulepress.errors import PluginError, Problem, RulepressError
from rulepress.models.base import Document

__all__ = [
    "GAMES_GROUP",
    "GROUP",
    "HOOKS",
    "Attribute",
    "DiffWording",
    "FoundryItems",
    "FoundryTable",
    "Game",
    "Guide",
    "Kind",
    "Macro",
    "Part",
    "PluginError",
    "Problem",
    "TableRow",
    "games",
    "hook",
    "kind_hook",
    "load_hook",
    "models",
    "one_part_per_document",
    "plugin_call",
    "registry",
    "template_folders",
]

GAMES_GROUP = "rulepress.games"
"""The entry-point group a package lists its games under, each entry point naming a `Game`."""
GROUP = "rulepress.kinds"
"""The older entry-point group, each entry point naming a sequence of `Kind`: still read."""


@dataclass(frozen=True)
class Part:
    """A section a kind's documents make in the guide, before the guide numbers it."""

    id: str
    """The section's id, from which its anchor, page and Foundry id are made."""
    title: str
    """The section's heading."""
    documents: tuple[Document, ...]
    """The documents the section shows, in order."""
    order: int = 0
    """Added to the kind's own order: spaces several parts of one kind."""
    chapter: str | None = None
    """The chapter's title, where the document says (a rule text names its chapter)."""


def one_part_per_document(documents: Sequence[Document], ruleset: Any) -> list[Part]:
    """The default grouping: each document is a section of its own, in its `order`."""
    return [
        Part(doc.id, doc.display_name, (doc,), getattr(doc, "order", position))
        for position, doc in enumerate(documents)
    ]


@dataclass(frozen=True)
class Guide:
    """Where a kind's documents sit in the guide (and so the journal and the site)."""

    chapter: str
    """The chapter's title, unless the ruleset's `ruleset.yaml` places the kind elsewhere."""
    template: str
    """The Markdown section template: `markdown/sections/<template>.md.j2`."""
    order: int = 100
    """Sections sort by order within a chapter; rule texts use their own `order`, so a
    rule text can sit before, between or after a kind's sections."""
    parts: Callable[[Sequence[Document], Any], list[Part]] = one_part_per_document
    """parts(published documents of the kind, ruleset): the sections they make."""
    page_per_section: bool = False
    """On the site, each section is a page of its own (the weapon sections)."""
    anchor_per_document: bool = False
    """Each document of a section has its own anchor (links land on one weapon)."""
    helpers: str | None = None
    """`"module:function"`: function(ruleset, env) -> names the section template
    may call besides the usual ones (figures the rules compute, never typed by hand)."""
    journal: str | None = None
    """`"module:function"`: function(section, ruleset, links, shared) -> the HTML
    of the section's Foundry journal page, where it is not its Markdown made HTML."""


Attribute = tuple[str, str, object]
"""(key, label, value) of a Foundry Item's attribute."""


@dataclass(frozen=True)
class FoundryItems:
    """Each published document is an Item in the pack `pack`."""

    pack: str
    """The pack's name in the module (`weapons`)."""
    label: str
    """The pack's label after the ruleset's title: `IRIS Quick Reference: Weapons`."""
    attributes: Callable[[Document, Any], list[Attribute]]
    """attributes(document, ruleset): what the Item shows as its attributes."""
    icon: str | Callable[[Document, Any], str] = "icons/svg/item-bag.svg"
    """A Foundry core icon, or icon(document, ruleset) -> one (a gun for a gun)."""
    folder: Callable[[Document, Any], Document | None] | None = None
    """folder(document, ruleset): the document whose name the Item's folder has."""
    weight: str | None = None
    """The model's field that holds the Item's weight, if any."""
    description: str | None = None
    """An HTML template (`foundry/<description>.html.j2`) for the Item's description;
    without one, the kind's guide section of the document alone, as HTML."""
    macro: str | None = None
    """The template of the Macro (a kind's `Macro.template`) that rolls with this Item:
    the description ends with a link that runs it with the Item chosen."""
    description_context: str | Callable[[Document, Any, Any], dict] | None = None
    """`"module:function"` or function(document, ruleset, shared) -> what the `description`
    template sees besides `document`, `ruleset` and `links` (`shared` caches HTML)."""


@dataclass(frozen=True)
class TableRow:
    """One row of a Foundry RollTable: the result for rolls `low` to `high`."""

    low: int
    """The lowest roll (or looked-up value) that gives this result."""
    high: int
    """The highest roll that gives it."""
    name: str
    """The result's name, shown in the table (`Corruption 10-11`)."""
    text: str
    """The result's text, as data: the export escapes it and makes it inert."""
    link: str | None = None
    """The id of a document of the ruleset the result links: a document result, linking
    the document's Foundry counterpart (an Item, a RollTable or a journal page)."""
    img: str = "icons/svg/d20-black.svg"
    """The result's image, a path inside Foundry's data."""


@dataclass(frozen=True)
class FoundryTable:
    """Each published document is a RollTable in the pack `pack`."""

    pack: str
    """The pack's name in the module (`tables`)."""
    label: str
    """The pack's label after the ruleset's title."""
    rows: Callable[[Document], list[TableRow]]
    """rows(document): the table's results, in order."""
    description: Callable[[Document], str] = lambda document: ""
    """description(document): the table's description, as data (escaped on export)."""
    lookup: str | None = None
    """What a character's value the table is looked up by (`level`): such a table is
    drawn for the value a macro is given, never at random; None rolls its range."""
    icon: str = "icons/svg/d20-grey.svg"
    """A Foundry core icon for the table."""
    formula: Callable[[Document], str] | None = None
    """formula(document): the dice the table is rolled with (`2d6`, in Foundry's syntax);
    None rolls evenly over its rows' range (or, with `lookup`, draws the value given)."""


@dataclass(frozen=True)
class Macro:
    """A Foundry script macro, made when the ruleset has a document of the kind."""

    template: str
    """`foundry/macros/<template>.js.j2`; it may write only JSON literals of data."""
    title: str
    """The macro's name in Foundry (`Skill Test`), by which a script can run it."""
    rules: Callable[[Any], dict]
    """rules(ruleset): the rule data the script needs."""


@dataclass(frozen=True)
class DiffWording:
    """How `rulepress diff` and the site's Changes page word the changes to a kind's documents."""

    label: str | None = None
    """The kind in words (`TC source`); None: its name, dashes as spaces."""
    summary: Callable[[Document], str] | None = None
    """summary(document): a new document's line (`Pistol (tier 2)`); None: its name."""
    name_alone: bool = False
    """A changed value reads `Pistol: damage ...`, not `weapon Pistol: damage ...`."""
    row_keys: tuple[str, ...] = ("id",)
    """The fields a list's rows are matched by between two versions, so a changed cell
    reads `damage at AP 12`: the first that every row has and no two rows share."""
    field_words: tuple[tuple[str, str], ...] = (("rows", ""),)
    """How a changed value's place names its fields, as (field, words) pairs: `("ap", "AP")`
    reads `damage at AP 12`, and a field of words "" is left out (`rows`: a row is named
    by its key alone); any other field is its name, underscores as spaces."""


@dataclass(frozen=True)
class Kind:
    """Everything rulepress does with one document kind."""

    model: type[Document]
    """The pydantic model its files are validated with; its `KIND` is the files' `kind:`."""
    guide: Guide | None = None
    """Where its documents sit in the guides, the site and the journal (None: nowhere)."""
    foundry: FoundryItems | FoundryTable | None = None
    """The Foundry documents it becomes (None: none besides its journal pages)."""
    macro: Macro | None = None
    """The Foundry macro made when a ruleset has a document of the kind."""
    chart: str | None = None
    """`"module:function"`: function(ruleset) -> {file name: (alt text, SVG)}, or (alt text,
    SVG, the figures as a Markdown table) so the site shows them as text too."""
    calculator: str | None = None
    """`"module:function"`: function(ruleset) -> the site's calculator for the kind (a
    `Calculator`: its text, its form and the exact figures it looks up), or None."""
    roll: str | None = None
    """`"module:command"`: the click command of `rulepress roll <name>`."""
    odds: str | None = None
    """`"module:command"`: the click command of `rulepress odds <name>`."""
    new: str | None = None
    """`"module:command"`: the click command of `rulepress new <name>`."""
    templates: Path | None = None
    """A folder with this kind's templates (`markdown/sections/...`, `foundry/...`), for
    kinds from other packages; rulepress's own are in its templates folder."""
    package: str = field(default="rulepress", compare=False)
    """The distribution that registered the kind (filled in by the registry)."""
    steady: Callable[[Document], tuple] | None = None
    """steady(document): what other pieces read of a document (its place, its names); an
    edit that keeps it equal lets a watch keep their pieces. None: never kept."""
    group: Callable[[Document], str | None] | None = None
    """group(document): the id of the group a check of scope "group" compares it within
    (an IRIS weapon's section); None, or no hook: in no group."""
    example: str | Callable[[Document, Any, Any], Mapping[str, object]] | None = None
    """`"module:function"` or function(document, example, ruleset) -> {name: value} the rule
    computes for a worked example, which RP302 compares with its `expect` (rules.examples)."""
    example_reads: tuple[str, ...] = ()
    """The kinds whose documents `example` reads too: a live update replays on their change."""
    figures: str | Callable[[Document, Any], Mapping[str, Fraction]] | None = None
    """`"module:function"` or function(document, ruleset) -> {label: exact chance} the rules
    compute from the ruleset's one published document of the kind, which `diff` compares."""
    changes: DiffWording = DiffWording()
    """How `diff` words the changes to its documents."""

    @property
    def name(self) -> str:
        """The kind's name in the documents' `kind` field."""
        return self.model.KIND


@dataclass(frozen=True)
class Game:
    """One game: its kinds and everything else it brings, registered as one entry point of
    the `rulepress.games` group (`iris = "rulepress.games.iris:GAME"`)."""

    id: str
    """The game's id, the same as its entry point's name: lowercase letters, digits, `-`."""
    title: str
    """The game's name for people (`IRIS`)."""
    order: int = 1000
    """Where its kinds sit in the registry, which orders the outputs: rulepress's games are
    10-40, others 1000 by default; games of one order sort by id."""
    kinds: tuple[Kind, ...] = ()
    """Its document kinds, in the order their sections and packs appear."""
    checks: tuple[Any, ...] = ()
    """Its cross-document checks: functions decorated with `check`, each coded
    `<code_prefix>` and three digits."""
    code_prefix: str = ""
    """The 2-5 capitals its finding codes start with (`ORC`), its own: `RP` is rulepress's,
    and a prefix another game declares is refused. Needed when it has checks."""
    foundry_systems: tuple[Any, ...] = ()
    """The Foundry game systems (`rulepress.plugin.foundry.ItemSystem`) a build may target."""
    scripts: tuple[Path, ...] = ()
    """Its calculators' JavaScript files (`.js`, each calling `rulepress.calculators.register`),
    loaded after the site's calculator.js when the site shows one of its calculators."""
    samples: Path | None = None
    """A folder of sample documents, one small one of each of its kinds, laid out as inside
    a ruleset's folder (`skills/grit.yaml`), that `rulepress init --samples <id>` (or
    `all`) copies into the new ruleset; its `glossary.yaml`, if any, maps each glossary
    term they use to its definition, for the ruleset's `ruleset.yaml`. Only regular
    `.yaml` files are read: a link or a special file in it is refused. None: no samples,
    and `--samples` does not offer the game."""
    commands: tuple[str, ...] = ()
    """`"module:command"` click commands it adds to the CLI, imported only when used: a
    command of a new name is `rulepress <name>` (which `rulepress --help`, importing no
    game, does not list); a click Group named like one of rulepress's groups games extend
    (`import`) adds its subcommands to it. A name rulepress or another package has too is
    a PluginError naming the package."""
    package: str = field(default="rulepress", compare=False)
    """The distribution that registered the game (filled in by the registry)."""


@functools.cache
def registry() -> dict[str, Kind]:
    """Every kind by name, in the games' order (`games()`): that order is the outputs'
    (the guide's ties, the packs, the macros), so it never depends on the install."""
    from rulepress.kinds.discovery import installed_games

    kinds: dict[str, Kind] = {}
    owners: dict[str, Game] = {}
    for game in installed_games():
        for kind in game.kinds:
            if kind.name in kinds:
                first = owners[kind.name]
                raise RulepressError(
                    f"{_origin(game)}: kind {kind.name!r} is already registered by {_origin(first)}"
                )
            kinds[kind.name] = dataclasses.replace(kind, package=game.package)
            owners[kind.name] = game
    return kinds


def _origin(game: Game) -> str:
    """Who registered a game, for the message of a clash."""
    if game.id == "core":  # no entry point names the core's game, nor another "core"
        return "rulepress's core"
    return f"{game.package} (entry point {game.id!r})"


def games() -> tuple[Game, ...]:
    """Every game in the registry's order: the core's, then the installed ones by order, id."""
    from rulepress.kinds.discovery import installed_games

    registry()  # refuses a kind registered twice before anyone reads a game
    return installed_games()


@functools.cache
def models() -> dict[str, type[Document]]:
    """Each kind's model by the `kind:` value documents give (the loader asks per file)."""
    return {name: kind.model for name, kind in registry().items()}


def template_folders() -> list[Path]:
    """The plugins' template folders, searched after rulepress's own."""
    return list(dict.fromkeys(k.templates for k in registry().values() if k.templates is not None))


# The hooks' machinery, after the records it reads (it imports them from here).
from rulepress.kinds.hooks import (  # noqa: E402
    HOOKS,
    hook,
    kind_hook,
    load_hook,
    plugin_call,
)
