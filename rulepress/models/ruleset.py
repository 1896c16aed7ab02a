"""The ruleset document: one per compendium folder (`ruleset.yaml`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from rulepress.models.base import Document, Model, Name, Text

Version = Annotated[str, StringConstraints(pattern=r"^\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.-]+)?$")]


class SourceCredit(Model):
    """A published text the ruleset's data comes from, credited as its authors ask."""

    title: Name
    author: Name
    credit: Text
    """The attribution every export shows."""
    document: Name | None = None
    """The source file the data was taken from."""
    published: Name | None = None


class RulesetInfo(Document):
    """A game's rules: the folder's `ruleset.yaml`."""

    KIND = "ruleset"
    kind: Literal["ruleset"]
    title: Name
    version: Version
    """Semantic version of this ruleset's data (quote it: `"1.10"`, not 1.10)."""
    game: Name
    system: Literal["iris-ap", "t2k4e-step-dice", "t2k-cuf", "percentile-cool"]
    """Which dice mechanics the ruleset's rules use."""
    summary: Text
    sources: Annotated[list[SourceCredit], Field(min_length=1)]
    currency: Name | None = None
    """Unit of weapon costs, where the ruleset prices gear."""
    glossary: dict[Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9-]*$")], Text] = {}
    """Rule terms and their definitions; the site shows a term's definition on hover."""
