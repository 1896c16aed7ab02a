"""Faithfulness of the Twilight: 2000 4e ruleset to its source (seed 001, t2k4e.txt).

Every figure is read out of the source text by parsing it here, then compared with the
YAML; no printed number is typed into these tests.
"""

from __future__ import annotations

import re

import pytest

from rulepress.games.t2k4e.models.improvement import CharacterImprovement
from rulepress.games.t2k4e.models.odds_table import OddsTable
from rulepress.games.t2k4e.models.step_dice import (
    GroupRoll,
    ModifierRule,
    OpposedRoll,
    PushRule,
    StepDice,
)
from rulepress.games.t2k4e.models.time_units import TimeUnits
from rulepress.models import RuleText
from tests.helpers import COMPENDIUM, normal

SEED = "t2k4e.txt"
TEXT_KINDS = (
    RuleText,
    StepDice,
    PushRule,
    ModifierRule,
    GroupRoll,
    OpposedRoll,
    TimeUnits,
    CharacterImprovement,
)


def printed_table(source: str, heading: str) -> list[list[str]]:
    """The table printed under `heading`, as rows of cell texts (header row first).

    The source prints a row as "| first |" followed by one "cell |" line per further
    cell; "|---|" lines are separators. The table ends at the first other line.
    """
    lines = source.splitlines()
    start = lines.index(heading) + 1
    rows: list[list[str]] = []
    for line in lines[start:]:
        line = line.strip()
        if not line.endswith("|"):
            break
        if set(line) <= set("|-"):
            continue
        if line.startswith("|"):
            rows.append([line.strip("| ")])
        else:
            rows[-1].append(line[:-1].strip())
    assert rows, f"no table under {heading!r}"
    return rows


@pytest.fixture(scope="module")
def source(seed_text) -> str:
    return seed_text(SEED)


@pytest.fixture(scope="module")
def ruleset(bundled):
    return bundled.compendium.ruleset("t2k4e")


@pytest.fixture(scope="module")
def odds(ruleset) -> dict[str, OddsTable]:
    return {table.roll: table for table in ruleset.all(OddsTable)}


def assert_cells_match(printed: list[list[str]], table: OddsTable) -> None:
    header, *body = printed
    cells = 0
    for printed_row in body:
        skill = None if printed_row[0] == "--" else printed_row[0]
        [row] = [r for r in table.rows if r.skill == skill]
        for column, cell in zip(header[1:], printed_row[1:], strict=True):
            assert cell.endswith("%")
            assert row.percent[table.columns.index(column)] == int(cell[:-1]), (skill, column)
            cells += 1
    assert cells == sum(len(r.percent) for r in table.rows)


def test_every_printed_initial_odds_cell_is_in_the_yaml(source, odds):
    assert_cells_match(printed_table(source, "Initial Roll"), odds["initial"])


def test_every_printed_pushed_odds_cell_is_in_the_yaml(source, odds):
    assert_cells_match(printed_table(source, "Pushed Roll"), odds["pushed"])


def test_odds_tables_keep_the_printed_corner_columns_and_row_order(source, odds):
    for heading, roll in (("Initial Roll", "initial"), ("Pushed Roll", "pushed")):
        header, *body = printed_table(source, heading)
        table = odds[roll]
        assert table.corner == header[0]
        assert table.columns == header[1:]
        printed_skills = [None if row[0] == "--" else row[0] for row in body]
        assert [row.skill for row in table.rows] == printed_skills


def test_every_printed_time_unit_row_is_in_the_yaml(source, ruleset):
    time = ruleset.one(TimeUnits)
    header, *body = printed_table(
        source, next(line for line in source.splitlines() if line.startswith("Time passes"))
    )
    assert time.headers == header
    yaml_rows = {(u.unit, f"{u.duration.min}-{u.duration.max} {u.per}", u.use) for u in time.rows}
    assert yaml_rows == {tuple(row) for row in body}


def test_success_thresholds_are_the_printed_6_and_10(source, ruleset):
    one = re.search(r"Any roll of (\d+) or greater is a success\.", source)
    two = re.search(r"Any roll of (\d+) or greater counts as (\d+) successes\.", source)
    steps = {(s.at_least, s.successes) for s in ruleset.one(StepDice).successes}
    assert steps == {(int(one[1]), 1), (int(two[1]), int(two[2]))}


def test_die_levels_are_the_printed_levels(source, ruleset):
    match = re.search(
        r"between (d\d+), (d\d+), (d\d+), and (d\d+), also known as "
        r"Levels (\w), (\w), (\w), or (\w), respectively",
        source,
    )
    printed = dict(zip(match.groups()[4:], match.groups()[:4], strict=True))
    assert {lv.level: lv.die for lv in ruleset.one(StepDice).levels} == printed


def test_group_roll_gives_the_printed_plus_1_per_helper_to_a_max_of_plus_3(source, ruleset):
    match = re.search(r"\+(\d+) modifier per person helping, to a max of \+(\d+)\.", source)
    group = ruleset.one(GroupRoll)
    assert (group.bonus_per_helper, group.max_bonus) == (int(match[1]), int(match[2]))


def test_push_costs_name_the_printed_attributes(source, ruleset):
    printed = {
        (cost, frozenset(attrs))
        for cost, *attrs in re.findall(r"a point of (\w+) \(if for (\w+) or (\w+)\)", source)
    }
    yaml = {(c.cost, frozenset(c.attributes)) for c in ruleset.one(PushRule).costs}
    assert printed and yaml == printed


def test_push_rerolls_what_the_text_says_by_default(source, ruleset):
    assert "Pick up any dice that neither rolled a 1 or a success" in source
    push = ruleset.one(PushRule)
    assert push.rerolls == "neither-one-nor-success"
    assert any("every-non-success" in r.ruling for r in push.rulings)


def test_opposed_roll_cancels_the_printed_1_success_per_loser_success(source, ruleset):
    match = re.search(r"Every success the loser rolls subtracts (\d+) success", source)
    assert ruleset.one(OpposedRoll).cancel_per_success == int(match[1])


def test_every_rule_text_in_the_yaml_occurs_in_the_source(source, ruleset):
    texts = [d for kind in TEXT_KINDS for d in ruleset.all(kind)]
    assert len(texts) >= len(TEXT_KINDS)
    missing = [d.id for d in texts if normal(d.text) not in normal(source)]
    assert missing == []


def test_every_printed_paragraph_is_kept_in_some_yaml_text(source, ruleset):
    """Nothing is dropped: each sentence line of the source (not a heading, not a table
    cell) is part of some document's verbatim text."""
    kept = " | ".join(normal(d.text) for kind in TEXT_KINDS for d in ruleset.all(kind))
    paragraphs = [
        line
        for line in source.splitlines()
        if line.rstrip().endswith((".", ":")) and not line.lstrip().startswith("|")
    ]
    assert len(paragraphs) >= 10
    assert [p for p in paragraphs if normal(p) not in kept] == []


def test_the_only_t2k4e_findings_are_about_the_printed_odds(bundled):
    """The cells that differ (RP301), how the tables round (RP303), and the pushed table
    under the push rule text's reading (RP304)."""
    folder = COMPENDIUM / "t2k4e"
    mine = [f for f in bundled.findings if f.file and folder in f.file.resolve().parents]
    assert mine
    assert {f.code for f in mine} == {"RP301", "RP303", "RP304"}
