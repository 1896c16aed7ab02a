"""IRIS character points (seed 003, "Character Points"): spending and earning tables."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rulepress.models.base import Document, Model, Name, NonNegative, Text
from rulepress.models.common import IntRange
from rulepress.models.figures import StatedFigure

Purchase = Literal["skill-rank", "trait-rank", "new-skill", "new-aug"]
_CORRUPTION_SUBJECT = {
    "trait-rank": "corruption gained per Trait rank",
    "new-aug": "corruption gained per Aug",
}


class SpendingRow(Model):
    """One row of the table: a benefit and what it costs in CP and in corruption."""

    benefit: Name
    """As printed ("+1 Skill rank")."""
    buys: Purchase
    cp: NonNegative
    corruption: NonNegative | None = None
    """The "Additional Costs" column; none where it prints "-"."""


class CpSpending(Document):
    """What character points buy, and what else a purchase costs."""

    KIND = "cp-spending"
    kind: Literal["cp-spending"]
    name: Name
    text: Text
    headers: Annotated[list[Name], Field(min_length=3, max_length=3)]
    rows: Annotated[list[SpendingRow], Field(min_length=1)]

    def cost(self, purchases: dict[str, int]) -> tuple[int, int]:
        """(CP, corruption) of buying each benefit `purchases[buys]` times, by this table."""
        rows = {row.buys: row for row in self.rows}
        unknown = set(purchases) - set(rows)
        if unknown:
            raise ValueError(f"nothing to buy called {', '.join(sorted(unknown))}")
        if any(count < 0 for count in purchases.values()):
            raise ValueError("cannot buy a negative number of anything")
        cp = sum(rows[b].cp * n for b, n in purchases.items())
        corruption = sum((rows[b].corruption or 0) * n for b, n in purchases.items())
        return cp, corruption

    def stated_figures(self):
        """The corruption figures this table states, for the conflicting-figures check."""
        for index, row in enumerate(self.rows):
            if row.buys in _CORRUPTION_SUBJECT and row.corruption is not None:
                path = ("rows", index, "corruption")
                yield StatedFigure(_CORRUPTION_SUBJECT[row.buys], row.corruption, path)


class EarningRow(Model):
    """One row of the table: a source of character points and how many it awards."""

    cp: IntRange
    source: Name


class CpEarning(Document):
    """Guidelines for awarding character points."""

    KIND = "cp-earning"
    kind: Literal["cp-earning"]
    name: Name
    headers: Annotated[list[Name], Field(min_length=2, max_length=2)]
    rows: Annotated[list[EarningRow], Field(min_length=1)]
