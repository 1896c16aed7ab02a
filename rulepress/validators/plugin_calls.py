"""What rulepress's own checks ask of a game's documents, guarded: a plugin's method or
hook that raises is an error finding naming the plugin, never an internal error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulepress.compendium.model import Entry
from rulepress.errors import Level, raised_text
from rulepress.kinds import registry
from rulepress.validators.registry import Report


def guarded(entry: Entry, what: str, call: Callable[[], Any]) -> tuple[Any, Report | None]:
    """`call()`'s result and no report; when it raises for a plugin's kind, None and an
    error report at the document naming `what` and the plugin (rulepress's own kinds
    raising is a bug, raised)."""
    try:
        return call(), None
    except Exception as exc:
        kind = registry().get(entry.document.kind)
        if kind is None or kind.package == "rulepress":
            raise
        return None, Report(
            entry,
            f"{what} of kind {kind.name!r} from plugin {kind.package} failed "
            f"({raised_text(exc)}); the check leaves the document out",
            level=Level.ERROR,
        )


def stated(entry: Entry, method: str) -> tuple[list, Report | None]:
    """What the document's method `method` yields (none without one), listed, guarded."""
    function = getattr(entry.document, method, None)
    if function is None:
        return [], None
    listed, failed = guarded(entry, f"{method}()", lambda: list(function()))
    return listed or [], failed
