"""The command-line helpers a game's own `roll`, `odds` and `new` commands use (stable:
see rulepress.plugin). This module imports click; rulepress.plugin does not."""

from __future__ import annotations

from rulepress.commands.new import NAME
from rulepress.commands.new import _create as new_document
from rulepress.commands.new import _free_id as free_id
from rulepress.commands.new import _ruleset as ruleset_for_new
from rulepress.commands.odds import chance_json, format_distribution
from rulepress.commands.options import (
    DEFAULT_COMPENDIUM,
    SEED,
    FilePath,
    IntList,
    compendium_option,
    emit,
    load_ruleset,
    ruleset_option,
    ruleset_options,
    table_lines,
)
from rulepress.commands.roll import _check_faces as check_faces
from rulepress.commands.roll import _dice as dice_count
from rulepress.commands.roll import _faces as faces_text

__all__ = [
    "DEFAULT_COMPENDIUM",
    "NAME",
    "SEED",
    "FilePath",
    "IntList",
    "chance_json",
    "check_faces",
    "compendium_option",
    "dice_count",
    "emit",
    "faces_text",
    "format_distribution",
    "free_id",
    "load_ruleset",
    "new_document",
    "ruleset_for_new",
    "ruleset_option",
    "ruleset_options",
    "table_lines",
]
