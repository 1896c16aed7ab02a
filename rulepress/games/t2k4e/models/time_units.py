"""T2K4e time increments (seed 001, "Time")."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import Field

from rulepress.plugin import Document, IntRange, Model, Name, Text


class TimeUnit(Model):
    """One row of the table: a unit of game time, how long it lasts and what it is for."""

    unit: Name
    duration: IntRange
    per: Literal["seconds", "minutes", "hours"]
    use: Name
    """The "Primary Use" column: what the unit is mostly for, restricting nothing (ruling
    `primary-use-advisory` on the time units)."""


class TimeUnits(Document):
    """The units game time passes in, and what each is mostly used for."""

    KIND = "time-units"
    kind: Literal["time-units"]
    name: Name
    text: Text
    headers: Annotated[list[Name], Field(min_length=3, max_length=3)]
    rows: Annotated[list[TimeUnit], Field(min_length=1)]

    def convert(self, amount: int | Fraction, unit: str, to: str) -> TimeConversion:
        """`amount` of one unit in another: a unit of the table (round, stretch, shift, in
        any case, singular or plural) or seconds, minutes or hours. The text gives each
        unit as a range, so the result is the range from the shortest reading to the
        longest (ruling `time-conversion-range`) and one `nominal` figure, from the middle
        of each range (ruling `time-nominal-midpoint`): a stretch is 60 rounds."""
        amount = Fraction(amount)
        if amount < 0:
            raise ValueError("an amount of time cannot be negative")
        low_from, high_from = self._seconds(unit)
        low_to, high_to = self._seconds(to)
        return TimeConversion(
            amount,
            self._name(to),
            amount * low_from / high_to,
            amount * high_from / low_to,
            amount * (low_from + high_from) / (low_to + high_to),
        )

    def _row(self, unit: str) -> TimeUnit | None:
        key = unit.strip().lower()
        for row in self.rows:
            if key in (row.unit.lower(), row.unit.lower() + "s"):
                return row
        return None

    def _name(self, unit: str) -> str:
        row = self._row(unit)
        if row is not None:
            return row.unit.lower()
        key = unit.strip().lower()
        return key if key.endswith("s") else key + "s"

    def _seconds(self, unit: str) -> tuple[Fraction, Fraction]:
        """The shortest and longest a unit lasts, in seconds."""
        row = self._row(unit)
        if row is not None:
            per = SECONDS[row.per]
            return Fraction(row.duration.min * per), Fraction(row.duration.max * per)
        key = unit.strip().lower()
        key = key if key.endswith("s") else key + "s"
        if key not in SECONDS:
            known = ", ".join([r.unit.lower() for r in self.rows] + list(SECONDS))
            raise KeyError(f"no unit of time {unit!r} (known: {known})")
        return Fraction(SECONDS[key]), Fraction(SECONDS[key])

    def stated_conversions(self):
        """Each unit and the calendar unit the table measures it in (`Round`, `seconds`),
        with its row's path: what the duration-units check (RP228) takes as stated."""
        for number, row in enumerate(self.rows):
            yield row.unit, row.per, ("rows", number, "per")


SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600}
"""The clock's units, exact."""


@dataclass(frozen=True)
class TimeConversion:
    """An amount of time in another unit: the amount converted, the unit it is given in,
    and the shortest, longest and nominal figure (Fractions) the text's ranges allow."""

    amount: Fraction
    unit: str
    low: Fraction
    high: Fraction
    nominal: Fraction
