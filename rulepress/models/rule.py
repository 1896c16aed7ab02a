"""Prose rules: the source's wording for rules that carry no figures of their own."""

from __future__ import annotations

from typing import Literal

from rulepress.models.base import Document, Name, RichText, ref
from rulepress.models.common import StatesBoundaries


class RuleText(Document, StatesBoundaries):
    """A section of rules text, kept as printed. `chapter` groups sections for the guides."""

    KIND = "rule"
    kind: Literal["rule"]
    title: Name
    chapter: Name
    order: int
    text: RichText
    """Rules text in Markdown's small subset (models.rich_text): paragraphs separated by a
    blank line, lists, `*emphasis*`, `**strong**` and `[label](doc:<id>)` links to the
    ruleset's documents; anything else (HTML, images, other links, Foundry's enrichers)
    shows as typed."""
    see_also: list[ref("*")] = []
    """Documents this text refers to."""
