"""T2K4e time increments (seed 001, "Time")."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rulepress.plugin import Document, IntRange, Model, Name, Text


class TimeUnit(Model):
    """One row of the table: a unit of game time, how long it lasts and what it is for."""

    unit: Name
    duration: IntRange
    per: Literal["seconds", "minutes", "hours"]
    use: Name
    """The "Primary Use" column."""


class TimeUnits(Document):
    """The units game time passes in, and what each is mostly used for."""

    KIND = "time-units"
    kind: Literal["time-units"]
    name: Name
    text: Text
    headers: Annotated[list[Name], Field(min_length=3, max_length=3)]
    rows: Annotated[list[TimeUnit], Field(min_length=1)]

    def stated_conversions(self):
        """Each unit and the calendar unit the table measures it in (`Round`, `seconds`),
        with its row's path: what the duration-units check (RP228) takes as stated."""
        for number, row in enumerate(self.rows):
            yield row.unit, row.per, ("rows", number, "per")
