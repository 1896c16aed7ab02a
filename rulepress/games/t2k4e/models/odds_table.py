"""The published T2K4e odds tables (seed 001, "Odds of Success"), kept exactly as printed."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rulepress.games.t2k4e.models.step_dice import StepDie
from rulepress.plugin import Document, Model, Name, Percent


class OddsRow(Model):
    """One printed row of the table: a skill die, and a chance for each attribute die."""

    skill: StepDie | None
    """The skill die of this row; none for the printed "--" row (attribute alone)."""
    percent: Annotated[list[Percent], Field(min_length=1, max_length=4)]
    """Printed chance of at least one success, one cell per attribute column."""


class OddsTable(Document):
    """A printed table of P(at least one success) by attribute and skill die."""

    KIND = "odds-table"
    kind: Literal["odds-table"]
    name: Name
    roll: Literal["initial", "pushed"]
    corner: Name
    """The printed corner cell ("Attribute / Skill")."""
    columns: Annotated[list[StepDie], Field(min_length=1, max_length=4)]
    """The attribute die of each column."""
    rows: Annotated[list[OddsRow], Field(min_length=1, max_length=5)]
