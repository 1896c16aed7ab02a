"""IRIS's checks on the shape of weapon tables: every AP row once, in order, figures
rising with AP, and a published weapon complete."""

from __future__ import annotations

from collections import Counter

from rulepress.games.iris.checks.weapons import weapon_entries
from rulepress.games.iris.models.weapon import ApRow, WeaponProfile
from rulepress.plugin import Level, Report, Ruleset, check

AP_RANGE = range(1, 31)
RISING_COLUMNS = ("damage", "defense", "move", "range")
STEPPED_COLUMNS = ("move", "range")
STATS = ("reload", "weight", "cost", "rarity")


def _column(table: list[ApRow], column: str) -> list[int]:
    """A column's figures, row by row (`Base` move as 0)."""
    if column == "move":
        return [row.move_value for row in table]
    return [getattr(row, column) for row in table]


@check("RP206", "ap-row-missing", Level.ERROR, reads="document")
def ap_row_missing(ruleset: Ruleset):
    """A published weapon table lacks a row for some AP from 1 to 30.

    Example: the rows jump from `ap: 11` to `ap: 13`."""
    for entry in weapon_entries(ruleset):
        present = {row.ap for row in entry.document.table}
        missing = [ap for ap in AP_RANGE if ap not in present]
        if missing and entry.document.table:
            yield Report(
                entry, f"AP table has no row for AP {ap_spans(missing)}", ("table",), key=True
            )


@check("RP207", "ap-row-repeated", Level.ERROR, reads="document")
def ap_row_repeated(ruleset: Ruleset):
    """A weapon table has two rows for the same AP, so a lookup would be ambiguous.

    Example: two rows say `ap: 12`."""
    for entry in weapon_entries(ruleset, drafts=True):
        seen: set[int] = set()
        for index, row in enumerate(entry.document.table):
            if row.ap in seen:
                yield Report(entry, f"AP {row.ap} has more than one row", ("table", index, "ap"))
            seen.add(row.ap)


@check("RP208", "ap-row-order", Level.ERROR, reads="document")
def ap_row_order(ruleset: Ruleset):
    """Weapon table rows are not in AP order. Tables are read row by row, so a row out of
    place reads as the wrong AP.

    Example: the row for AP 14 stands before the row for AP 13."""
    for entry in weapon_entries(ruleset, drafts=True):
        rows = entry.document.table
        for index in range(1, len(rows)):
            if rows[index].ap < rows[index - 1].ap:
                yield Report(
                    entry,
                    f"row for AP {rows[index].ap} comes after AP {rows[index - 1].ap}",
                    ("table", index, "ap"),
                )
                break


@check("RP209", "figure-falls", Level.WARNING, reads="document")
def figure_falls(ruleset: Ruleset):
    """A figure that should rise (or hold) as AP rises falls instead: damage, defense,
    move (`Base` counts as 0) and range never get worse with more AP in any table.

    Example: damage 12 at AP 15 and 11 at AP 16."""
    for entry in weapon_entries(ruleset):
        table = entry.document.table
        for column in RISING_COLUMNS:
            values = _column(table, column)
            for index in range(1, len(table)):
                before, after = values[index - 1], values[index]
                if after < before:
                    yield Report(
                        entry,
                        f"{column} falls from {before} at AP "
                        f"{table[index - 1].ap} to {after} at AP "
                        f"{table[index].ap}",
                        ("table", index, column),
                    )


def _steps_index(document) -> object:
    """What off-band-step reads of a document: a published weapon's stepped columns."""
    if not isinstance(document, WeaponProfile):
        return None
    rows = tuple((row.ap, row.move_value, row.range) for row in document.table)
    return (document.is_draft, rows)


@check("RP210", "off-band-step", Level.WARNING, index=_steps_index)
def off_band_step(ruleset: Ruleset):
    """A stepped column (move, range) changes at an AP where no other weapon's table
    changes. The tables step in bands of AP; a lone step elsewhere is usually a row
    copied one line too early or too late.

    Example: every table changes move at AP 6, 11, 16, 21 or 26, and one changes at 20."""
    weapons = [e for e in weapon_entries(ruleset) if len(e.document.table) > 1]
    steps = {
        (id(e), column): _step_rows(e.document, column)
        for e in weapons
        for column in STEPPED_COLUMNS
    }
    # How many tables step at each AP; a table's own steps are taken off for its check.
    stepping: Counter[int] = Counter()
    own: dict[int, set[int]] = {}
    for entry in weapons:
        own[id(entry)] = {
            entry.document.table[i].ap for c in STEPPED_COLUMNS for i in steps[(id(entry), c)]
        }
        stepping.update(own[id(entry)])
    for entry in weapons:
        others = {ap for ap, count in stepping.items() if count - (ap in own[id(entry)]) > 0}
        if not others:
            continue  # nothing to compare with: no band is known
        for column in STEPPED_COLUMNS:
            for index in steps[(id(entry), column)]:
                ap = entry.document.table[index].ap
                if ap not in others:
                    yield Report(
                        entry,
                        f"{column} changes at AP {ap}, where no other table "
                        f"changes (bands start at AP {ap_spans(sorted(others))})",
                        ("table", index, column),
                    )


def _step_rows(profile: WeaponProfile, column: str) -> list[int]:
    """Indexes of the rows where `column` differs from the row before."""
    values = _column(profile.table, column)
    return [i for i in range(1, len(values)) if values[i] != values[i - 1]]


@check("RP212", "incomplete-profile", Level.ERROR, reads="document")
def incomplete_profile(ruleset: Ruleset):
    """A published weapon lacks its name, a stat, or its table; or it gives both (or
    neither of) `magazine` and `attacks`. Mark a placeholder `status: draft` instead.

    Example: a published weapon with `cost:` left out."""
    for entry in weapon_entries(ruleset):
        profile = entry.document
        for field in ("name", *STATS):
            if getattr(profile, field) is None:
                yield Report(entry, f"published weapon has no {field}", ())
        if profile.magazine is None and profile.attacks is None:
            yield Report(entry, "give one of `magazine` and `attacks`", ())
        elif profile.magazine is not None and profile.attacks is not None:
            yield Report(entry, "give only one of `magazine` and `attacks`", ("attacks",), key=True)
        if not profile.table:
            yield Report(entry, "published weapon has no AP table", ())


def ap_spans(values: list[int]) -> str:
    """[1, 2, 3, 7] -> '1-3, 7'."""
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
