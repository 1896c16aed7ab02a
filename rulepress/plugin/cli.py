"""The command-line helpers a game's own `roll`, `odds` and `new` commands use (stable:
see rulepress.plugin). This module imports click; rulepress.plugin does not."""

from __future__ import annotations

from rulepress.commands.options import (
    DEFAULT_COMPENDIUM,
    FilePath,
    emit,
    load_ruleset,
    ruleset_options,
)

__all__ = ["DEFAULT_COMPENDIUM", "FilePath", "emit", "load_ruleset", "ruleset_options"]
