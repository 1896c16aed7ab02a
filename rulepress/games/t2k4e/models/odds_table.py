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

    def equal_cells(self):
        """The cells the table's construction makes equal, for the equal-cells check
        (RP306): a roll of a skill die X and an attribute die Y is the same two dice as a
        skill die Y and an attribute die X, so the two cells give one chance. Each pair
        as (why, [(label, printed percent, data path), ...])."""
        cells = {
            (row.skill, column): (r, c)
            for r, row in enumerate(self.rows)
            for c, column in enumerate(self.columns)
            if c < len(row.percent)
        }
        for (skill, attribute), (r, c) in cells.items():
            mirror = cells.get((attribute, skill))
            if skill is None or mirror is None or mirror <= (r, c):
                continue
            yield (
                "a roll of the same two dice",
                [
                    (
                        f"skill {s}, attribute {a}",
                        self.rows[i].percent[j],
                        ("rows", i, "percent", j),
                    )
                    for (s, a), (i, j) in (
                        ((skill, attribute), (r, c)),
                        ((attribute, skill), mirror),
                    )
                ],
            )
