"""rulepress's public API for plugins: the one module a game's package imports from.

Stability: the names this module exports (`__all__`), and those of its submodules
`rulepress.plugin.cli` and `rulepress.plugin.site`, follow semantic versioning: a name
is removed, or changes in a way that breaks a plugin using it as documented, only in a
new major version of rulepress. Every other module of rulepress is internal and may
change in any release, whatever its name.

A game is one `Game` record (its id, title, order and kinds), named by an entry point
of the `rulepress.games` group in the game's pyproject.toml. This module imports no
exporter and no click, so importing it (and registering a game) stays light; the
command-line helpers are in `rulepress.plugin.cli`, the site's shapes in
`rulepress.plugin.site`.
"""

from __future__ import annotations

from rulepress import dice
from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level, PluginError, Problem
from rulepress.importers.markdown_tables import (
    MarkdownTable,
    SourceFormatError,
    is_table_row,
    read_markdown_table,
    table_cells,
)
from rulepress.kinds import (
    Attribute,
    DiffWording,
    FoundryItems,
    FoundryTable,
    Game,
    Guide,
    Kind,
    Macro,
    Part,
    TableRow,
    one_part_per_document,
)
from rulepress.models.base import (
    Document,
    Model,
    Name,
    NonNegative,
    Ref,
    RichText,
    Slug,
    Text,
    ref,
)
from rulepress.models.common import (
    DIE_SIDES,
    Boundary,
    Comparison,
    Die,
    Example,
    IntRange,
    LadderStep,
    Percent,
    StatesBoundaries,
    StatesLadder,
    says_includes_below,
)
from rulepress.models.figures import StatedFigure
from rulepress.models.rows import Span, level_problems, level_spans, raise_problems
from rulepress.outline import Section
from rulepress.output_names import ascii_slug, slug
from rulepress.validators.consistency import name_key, names_index
from rulepress.validators.registry import Check, Report, check

__all__ = [
    "DIE_SIDES",
    "Attribute",
    "Boundary",
    "Check",
    "Comparison",
    "Die",
    "DiffWording",
    "Document",
    "Entry",
    "Example",
    "FoundryItems",
    "FoundryTable",
    "Game",
    "Guide",
    "IntRange",
    "Kind",
    "LadderStep",
    "Level",
    "Macro",
    "MarkdownTable",
    "Model",
    "Name",
    "NonNegative",
    "Part",
    "Percent",
    "PluginError",
    "Problem",
    "Ref",
    "Report",
    "RichText",
    "Ruleset",
    "Section",
    "Slug",
    "SourceFormatError",
    "Span",
    "StatedFigure",
    "StatesBoundaries",
    "StatesLadder",
    "TableRow",
    "Text",
    "ascii_slug",
    "check",
    "dice",
    "is_table_row",
    "level_problems",
    "level_spans",
    "name_key",
    "names_index",
    "one_part_per_document",
    "raise_problems",
    "read_markdown_table",
    "ref",
    "says_includes_below",
    "slug",
    "table_cells",
]
