"""Prose rules: the source's wording for rules that carry no figures of their own."""

from __future__ import annotations

from typing import Literal

from rulepress.models.base import Document, Name, Text, ref
from rulepress.models.common import StatesBoundaries


class RuleText(Document, StatesBoundaries):
    """A section of rules text, kept as printed. `chapter` groups sections for the guides."""

    KIND = "rule"
    kind: Literal["rule"]
    title: Name
    chapter: Name
    order: int
    text: Text
    """Rules text as printed: plain text, each line a paragraph (exports escape Markdown
    and HTML in it, so it reads the same everywhere)."""
    see_also: list[ref("*")] = []
    """Documents this text refers to."""
