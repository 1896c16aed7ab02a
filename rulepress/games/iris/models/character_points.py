"""IRIS character points (seed 003, "Character Points"): spending and earning tables."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from rulepress.plugin import Document, IntRange, Model, Name, NonNegative, StatedFigure, Text

Purchase = Literal["skill-rank", "trait-rank", "new-skill", "new-aug"]
UNLOCKED_SKILL_RANK = 1
"""The rank a skill starts at when unlocked (ruling `unlocked-skill-starts-at-rank-one`)."""
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

    def cost(self, purchases: dict[str, int]) -> CpCost:
        """What buying each benefit `purchases[buys]` times costs, by this table: CP and
        Corruption. The table is the full list: anything else is refused (ruling
        `spending-table-is-the-list`)."""
        rows = {row.buys: row for row in self.rows}
        unknown = set(purchases) - set(rows)
        if unknown:
            raise ValueError(f"nothing to buy called {', '.join(sorted(unknown))}")
        if any(count < 0 for count in purchases.values()):
            raise ValueError("cannot buy a negative number of anything")
        cp = sum(rows[b].cp * n for b, n in purchases.items())
        corruption = sum((rows[b].corruption or 0) * n for b, n in purchases.items())
        return CpCost(cp, corruption)

    def skill_cost(self, rank: int, to: int, *, unlocked_rank: int = UNLOCKED_SKILL_RANK) -> CpCost:
        """What raising a skill from `rank` to `to` costs: a skill at rank 0 is not yet
        unlocked, and unlocking it ("Unlock new Skill") brings it to rank 1, each rank after
        that a "+1 Skill rank" (ruling `unlocked-skill-starts-at-rank-one`; pass
        `unlocked_rank=0` for its alternative)."""
        if rank < 0 or to < rank:
            raise ValueError(
                f"a skill is raised from a rank of 0 or more upwards, not {rank} to {to}"
            )
        if rank == to:
            return CpCost(0, 0)
        if rank > 0:
            return self.cost({"skill-rank": to - rank})
        return self.cost({"new-skill": 1, "skill-rank": to - unlocked_rank})

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

    def earned(self, sources: Iterable[str], chosen: Mapping[str, int] | None = None) -> CpEarned:
        """The CP one game earns from `sources` (printed names, any case), each counted once.

        A source whose reward is a range (the Director's Blessing, "1-2CP") needs its
        amount in `chosen`, within the range; a fixed reward needs none. A source the
        table does not list is refused, naming the ones it does, and so is a source named
        twice (ruling `each-source-once`).
        """
        rows = {row.source.casefold(): row for row in self.rows}
        known = ", ".join(row.source for row in self.rows)
        sources = list(sources)
        for name in [*sources, *(chosen or {})]:
            if name.casefold() not in rows:
                raise ValueError(f"no CP source called {name!r}; the table lists {known}")
        chosen = {name.casefold(): cp for name, cp in (chosen or {}).items()}
        given = [name.casefold() for name in sources]
        repeated = sorted({rows[name].source for name in given if given.count(name) > 1})
        if repeated:
            raise ValueError(f"each source counts once a game: {', '.join(repeated)} repeated")
        stray = sorted(rows[name].source for name in chosen if name not in given)
        if stray:
            raise ValueError(f"an amount was chosen for {', '.join(stray)}, not among the sources")
        awards = tuple(
            CpAward(rows[name].source, self._award(rows[name], chosen.get(name))) for name in given
        )
        return CpEarned(sum(award.cp for award in awards), awards)

    @staticmethod
    def _award(row: EarningRow, chosen: int | None) -> int:
        """The CP one row awards: its fixed figure, or the amount chosen within its range."""
        if chosen is None:
            if row.cp.min != row.cp.max:
                raise ValueError(
                    f"{row.source} awards {row.cp.min}-{row.cp.max} CP: choose the amount"
                )
            return row.cp.min
        if not row.cp.min <= chosen <= row.cp.max:
            printed = f"{row.cp.min}" if row.cp.min == row.cp.max else f"{row.cp.min}-{row.cp.max}"
            raise ValueError(f"{row.source} awards {printed} CP, not {chosen}")
        return chosen


@dataclass(frozen=True)
class CpCost:
    """What a set of purchases costs: character points, and the Corruption gained."""

    cp: int
    corruption: int


@dataclass(frozen=True)
class CpAward:
    """What one source gave in a game: its printed name and the CP it awarded."""

    source: str
    cp: int


@dataclass(frozen=True)
class CpEarned:
    """One game's character points: the total and each source's award, in the order given."""

    total: int
    awards: tuple[CpAward, ...]
