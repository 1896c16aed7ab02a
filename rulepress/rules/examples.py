"""Replay the sources' worked examples through the resolution functions.

A kind whose documents have examples names its replay (`Kind.example`): it reads the
example's `given`, calls the rule, and returns what the rule computes for each key it
can. A key the example `expect`s that the replay does not compute is reported as such
(RP302), never guessed.
"""

from __future__ import annotations

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.models.base import Document
from rulepress.models.common import Example

UNREPLAYABLE = (KeyError, ValueError, TypeError)
"""What a replay raises for an example it cannot replay (an input missing or out of range)."""


def replay(document: Document, example: Example, ruleset: Ruleset) -> dict[str, object]:
    """What the rule computes for the example, by the kind's `example` hook ({} for a
    kind without one); one of UNREPLAYABLE for an example that cannot be replayed, a
    PluginError for a plugin's hook that fails otherwise."""
    kind = kinds.registry().get(document.kind)
    replayed = kinds.hook(kind, "example", UNREPLAYABLE) if kind is not None else None
    if replayed is None:
        return {}
    return dict(replayed(document, example, ruleset))


def examples_index(document: Document) -> object:
    """What replaying the examples reads of a document (a check's `index`): one with
    examples whole, and the documents of a kind some replay reads (`Kind.example_reads`)."""
    read = hasattr(document, "examples") or any(
        document.kind in kind.example_reads for kind in kinds.registry().values()
    )
    return document if read else None
