"""What a kind's section template may call besides the usual filters: figures the rules
compute, never typed by hand. Each function is a kind's `helpers` hook (rulepress.kinds):
helpers(ruleset, env) -> the names its template sees."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import jinja2

from rulepress.compendium.model import Ruleset
from rulepress.games.cuf.models.threat import TcSource
from rulepress.games.t2k4e.models.odds_table import OddsTable
from rulepress.games.t2k4e.models.step_dice import PushRule, StepDice, push_reading
from rulepress.games.t2k4e.odds import READINGS, exact_percent, within_rounding


@dataclass(frozen=True)
class OddsCell:
    """One cell of a printed odds table, computed: the exact chance by each reading of the push,
    and whether the printed figure agrees."""

    text: Fraction
    """P(at least one success), by the rule text's reading of the push: the figure printed
    beside the source's, which `agrees` compares with."""
    other: Fraction
    """The same by the other reading."""
    agrees: bool


def odds_cells(ruleset: Ruleset, env: jinja2.Environment) -> dict:
    """An odds table's `odds(table, skill, column)`: the cell's exact figures."""
    step_dice = ruleset.one(StepDice)
    text_reading = push_reading(ruleset.one(PushRule))
    other_reading = next(reading for reading in READINGS if reading != text_reading)

    def odds(table: OddsTable, skill: str | None, column: str) -> OddsCell:
        text = exact_percent(step_dice, table, skill, column, text_reading)
        other = exact_percent(step_dice, table, skill, column, other_reading)
        printed = table.rows[[r.skill for r in table.rows].index(skill)].percent[
            table.columns.index(column)
        ]
        # against the figure printed beside it, as the caption says (the rule text's
        # reading), not the bracketed one that happens to agree more often
        return OddsCell(text / 100, other / 100, within_rounding(printed, text))

    return {"odds": odds}


def tc_amounts(ruleset: Ruleset, env: jinja2.Environment) -> dict:
    """TC sources' and ladders' `tc_amount(source)`."""
    return {"tc_amount": tc_amount}


def tc_amount(source: TcSource) -> str:
    """A TC source's amount as a player reads it: `2 TC`, `1 to 4 TC`, `-1 TC per ally`."""
    if source.tc == "referee":
        text = "set by the referee"
    elif isinstance(source.tc, int):
        text = f"{source.tc} TC"
    else:
        text = f"{source.tc.min} to {source.tc.max} TC"
    if source.per:
        text += f" per {source.per.replace('-', ' ')}"
    if source.outstanding_success_tc is not None:
        text += f" ({source.outstanding_success_tc} TC on an Outstanding Success)"
    return text
