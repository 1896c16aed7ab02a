"""The command-line helpers a game's own `roll`, `odds` and `new` commands use (stable:
see rulepress.plugin). This module imports click; rulepress.plugin does not."""

from __future__ import annotations

from rulepress.commands.odds import chance_json, format_distribution
from rulepress.commands.options import (
    SEED,
    IntList,
    emit,
    load_ruleset,
    ruleset_options,
    table_lines,
)
from rulepress.commands.roll import _check_faces as check_faces
from rulepress.commands.roll import _dice as dice_count
from rulepress.commands.roll import _faces as faces_text

__all__ = [
    "SEED",
    "IntList",
    "chance_json",
    "check_faces",
    "dice_count",
    "emit",
    "faces_text",
    "format_distribution",
    "load_ruleset",
    "ruleset_options",
    "table_lines",
]
