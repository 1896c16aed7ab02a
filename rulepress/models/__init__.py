"""Pydantic models of every compendium document kind (rulepress.kinds registers them), and
the typed results their rules return."""

from __future__ import annotations

from rulepress.models.base import (
    Document,
    Model,
    Ref,
    RichText,
    Ruling,
    iter_references,
    iter_rich_texts,
)
from rulepress.models.roll_table import RollTable, RollTableRow
from rulepress.models.rule import RuleText
from rulepress.models.ruleset import ChapterPlan, RulesetInfo, SourceCredit

__all__ = [
    "ChapterPlan",
    "Document",
    "Model",
    "Ref",
    "RichText",
    "RollTable",
    "RollTableRow",
    "RuleText",
    "RulesetInfo",
    "Ruling",
    "SourceCredit",
    "iter_references",
    "iter_rich_texts",
]
