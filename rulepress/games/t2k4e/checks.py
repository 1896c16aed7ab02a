"""Twilight: 2000 4e's checks: the shape of printed odds tables, and the printed odds
the step dice determine (RP222, RP301, RP303, RP304; codes of rulepress's own prefix)."""

from __future__ import annotations

from collections.abc import Iterator

from rulepress.games.t2k4e.models.odds_table import OddsRow, OddsTable
from rulepress.games.t2k4e.models.step_dice import PushRule, Reading, StepDice, push_reading
from rulepress.games.t2k4e.odds import (
    ROUNDINGS,
    ReadingFit,
    best_reading,
    exact_percent,
    roundings_explaining,
    within_rounding,
)
from rulepress.plugin import Entry, Level, Report, Ruleset, check


@check("RP222", "odds-row-length", Level.ERROR, reads="document")
def odds_row_length(ruleset: Ruleset):
    """An odds table row has more or fewer cells than the table has columns, so a cell
    would be read under the wrong die (or not at all).

    Example: `columns: [d6, d8]` and a row `percent: [31, 48, 99]`."""
    for entry in ruleset.entries:
        table = entry.document
        if not isinstance(table, OddsTable):
            continue
        for index, row in enumerate(table.rows):
            if len(row.percent) != len(table.columns):
                yield Report(
                    entry,
                    f"row has {len(row.percent)} cells for {len(table.columns)} columns",
                    ("rows", index, "percent"),
                )


def _odds_tables(ruleset: Ruleset) -> Iterator[Entry]:
    """The ruleset's odds tables, when it has step dice to compute them from."""
    if ruleset.one(StepDice) is None:
        return
    for entry in ruleset.entries:
        if isinstance(entry.document, OddsTable):
            yield entry


def _pool(row: OddsRow, column: str) -> str:
    """A cell's dice as a reader says them: "attribute d8 + skill d6"."""
    return f"attribute {column}" + (f" + skill {row.skill}" if row.skill else " alone")


def _cells(step_dice: StepDice, table: OddsTable, reading: Reading):
    """(row index, cell index, row, column, printed, exact) for every printed cell."""
    for r, row in enumerate(table.rows):
        for c, (column, printed) in enumerate(zip(table.columns, row.percent, strict=False)):
            yield (
                r,
                c,
                row,
                column,
                printed,
                exact_percent(step_dice, table, row.skill, column, reading),
            )


def _table_reading(ruleset: Ruleset, table: OddsTable) -> ReadingFit:
    """The reading a table's cells are compared under: for a pushed table the one most of
    its cells follow (and how many agree), else the rule text's."""
    if table.roll == "pushed":
        return best_reading(ruleset.one(StepDice), table)
    return ReadingFit(push_reading(ruleset.one(PushRule)), 0)


def _odds_index(document) -> object:
    """What the odds checks read of a document: odds tables, step dice and the push rule."""
    return document if isinstance(document, OddsTable | StepDice | PushRule) else None


@check("RP301", "printed-odds-differ", Level.WARNING, index=_odds_index)
def printed_odds_differ(ruleset: Ruleset):
    """A printed odds cell is not the chance the rules give rounded to the nearest whole
    percent (a chance exactly half-way, 12.5%, accepts 12 and 13). For a pushed table the
    check also names the reading of the push rule the printed table follows, and reports
    when it is not the text's.

    Example: the initial-roll table prints 49% for d6 + d8, where the rules give 47.9%."""
    text_reading = push_reading(ruleset.one(PushRule))
    step_dice = ruleset.one(StepDice)
    for entry in _odds_tables(ruleset):
        table = entry.document
        fit = _table_reading(ruleset, table)
        reading, agreeing = fit.reading, fit.agreeing
        if table.roll == "pushed" and reading != text_reading:
            yield Report(
                entry,
                f"the printed {table.roll} table follows the '{reading}' "
                f"reading of the push ({agreeing} cells agree), not the rule "
                f"text's '{text_reading}'",
                ("roll",),
            )
        for r, c, row, column, printed, exact in _cells(step_dice, table, reading):
            if not within_rounding(printed, exact):
                by = f" ({reading} reading)" if table.roll == "pushed" else ""
                yield Report(
                    entry,
                    f"{_pool(row, column)}: printed {printed}%, the rules give "
                    f"{float(exact):.1f}%{by}",
                    ("rows", r, "percent", c),
                )


@check("RP303", "odds-table-rounding", Level.INFO, index=_odds_index)
def odds_table_rounding(ruleset: Ruleset):
    """An odds table whose cells are not all the exact chances rounded to the nearest whole
    percent: says which way of rounding (down, up), if any, gives every printed cell, and
    how many cells each way gives. One finding per table, beside the cell findings of
    RP301 (pushed tables under the reading they follow).

    Example: "cells follow rounding up (all 20 agree); nearest explains 18", or "no single
    rounding explains every cell (nearest 18 of 20, down 2, up 16)"."""
    step_dice = ruleset.one(StepDice)
    for entry in _odds_tables(ruleset):
        table = entry.document
        reading = _table_reading(ruleset, table).reading
        cells = [(printed, exact) for *_, printed, exact in _cells(step_dice, table, reading)]
        explained = roundings_explaining(cells)
        if explained["nearest"] == len(cells):
            continue
        whole = [r for r in ROUNDINGS if explained[r] == len(cells)]
        if whole:
            message = (
                f"cells follow rounding {' and '.join(whole)} (all {len(cells)} agree); "
                f"nearest explains {explained['nearest']}"
            )
        else:
            counts = ", ".join(
                f"{r} {explained[r]}" + (f" of {len(cells)}" if r == "nearest" else "")
                for r in ROUNDINGS
            )
            message = f"no single rounding explains every cell ({counts})"
        by = f" under the '{reading}' reading" if table.roll == "pushed" else ""
        yield Report(entry, message + by, ("rows",), key=True)


@check("RP304", "pushed-odds-under-text-reading", Level.INFO, index=_odds_index)
def pushed_odds_under_text_reading(ruleset: Ruleset):
    """A pushed odds table that follows another reading of the push than the rule text's
    (RP301 names it), cell by cell under the text's reading: each printed cell that is
    not the rule text's chance rounded to the nearest whole percent, with that chance, so
    a reader of the rule sees what it gives. One finding per table.

    Example: "under the rule text's 'neither-one-nor-success' reading, 20 of 20 cells
    differ (attribute + skill: printed (text's chance)): d6 alone 31% (27.8%); ..."."""
    step_dice = ruleset.one(StepDice)
    text_reading = push_reading(ruleset.one(PushRule))
    for entry in _odds_tables(ruleset):
        table = entry.document
        if table.roll != "pushed" or _table_reading(ruleset, table).reading == text_reading:
            continue
        differing = [
            f"{column}{f' + {row.skill}' if row.skill else ' alone'} {printed}% "
            f"({float(exact):.1f}%)"
            for _, _, row, column, printed, exact in _cells(step_dice, table, text_reading)
            if not within_rounding(printed, exact)
        ]
        if differing:
            total = sum(len(row.percent) for row in table.rows)
            yield Report(
                entry,
                f"under the rule text's '{text_reading}' reading, {len(differing)} of "
                f"{total} cells differ (attribute + skill: printed (text's chance)): "
                + "; ".join(differing),
                ("rows",),
                key=True,
            )


CHECKS = (odds_row_length, printed_odds_differ, odds_table_rounding, pushed_odds_under_text_reading)
"""The game's checks (`Game.checks`), in code order."""
