"""The command-line helpers a game's own `roll`, `odds` and `new` commands use (stable:
see rulepress.plugin). This module imports click; rulepress.plugin does not."""

from __future__ import annotations

from rulepress.commands.new import NAME, create_document, free_id, target_ruleset
from rulepress.commands.odds import chance_json, format_distribution
from rulepress.commands.options import (
    DEFAULT_COMPENDIUM,
    SEED,
    TEXT,
    FilePath,
    IntList,
    Text,
    compendium_option,
    emit,
    fitted_table_lines,
    load_ruleset,
    ruleset_option,
    ruleset_options,
    table_lines,
)
from rulepress.commands.roll import check_faces, dice_count, faces_text
from rulepress.compendium.loader import load_compendium
from rulepress.compendium.writer import dump_document, write_all
from rulepress.errors import RulepressError, model_reason
from rulepress.files import read_regular
from rulepress.output_names import safe_child

__all__ = [
    "DEFAULT_COMPENDIUM",
    "NAME",
    "SEED",
    "TEXT",
    "FilePath",
    "IntList",
    "RulepressError",
    "Text",
    "chance_json",
    "check_faces",
    "compendium_option",
    "create_document",
    "dice_count",
    "dump_document",
    "emit",
    "faces_text",
    "fitted_table_lines",
    "format_distribution",
    "free_id",
    "load_compendium",
    "load_ruleset",
    "model_reason",
    "read_regular",
    "ruleset_option",
    "ruleset_options",
    "safe_child",
    "table_lines",
    "target_ruleset",
    "write_all",
]
