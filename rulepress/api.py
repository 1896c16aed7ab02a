"""The stable entry points behind `rulepress.load` and `rulepress.validate`."""

from __future__ import annotations

from pathlib import Path

from rulepress.compendium.model import Compendium
from rulepress.errors import Finding, Level
from rulepress.validation import Validation, validate


class InvalidCompendium(Exception):
    """The compendium has errors; `findings` says what and where."""

    def __init__(self, findings: tuple[Finding, ...]):
        """The message names the first error, so an uncaught exception still says where to look."""
        errors = [f for f in findings if f.level == Level.ERROR]
        first = f"{errors[0].where()}: {errors[0].message}" if errors else ""
        super().__init__(f"{len(errors)} error(s) in the compendium; first: {first}")
        self.findings = findings
        """Every finding of the compendium, warnings too, each with its place and code."""


def load(root: Path | str = "compendium", settings: Path | None = None) -> Compendium:
    """Load and validate a compendium and its publisher's settings (`settings`, else
    rulepress.yaml beside `root`, as `compendium.settings`); warnings are allowed, errors
    raise InvalidCompendium."""
    result = validate(root, settings=settings)
    if not result.ok:
        raise InvalidCompendium(result.findings)
    return result.compendium


__all__ = ["InvalidCompendium", "Validation", "load", "validate"]
