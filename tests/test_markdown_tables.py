"""Markdown tables of a source page at import (rulepress.importers.markdown_tables): a
table without its separator row is an error at page:line:col, never a guess or a crash;
the IRIS wiki importer reads a profile's table written as Markdown like its TAB form."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.games.iris.importer import parse_page
from rulepress.plugin import SourceFormatError, read_markdown_table, table_cells
from tests.helpers import base_tree, build_tree, run

PAGE = Path("page.md")


def _table(text: str):
    return read_markdown_table(text.split("\n"), 0, PAGE)


def test_a_table_is_read_with_its_header_and_rows():
    table = _table("| AP | Damage |\n| --- | :-: |\n| 1 | 2 |\n| 2 | 3 |\nafter")
    assert table.header == ("AP", "Damage")
    assert table.rows == (("1", "2"), ("2", "3"))
    assert (table.line, table.row_lines, table.end) == (1, (3, 4), 4)


def test_an_escaped_pipe_stays_in_its_cell():
    assert table_cells(r"| a \| b | c |") == ("a | b", "c")


def test_a_table_without_its_separator_row_is_an_error_at_the_line_it_belongs():
    with pytest.raises(SourceFormatError) as raised:
        _table("| AP | Damage |\n  | 1 | 2 |\n| 2 | 3 |")
    assert str(raised.value).startswith("page.md:2:3: the table whose header row is line 1 ")
    assert "has no separator row" in str(raised.value)


def test_a_header_row_alone_at_the_end_is_an_error_at_the_header():
    with pytest.raises(SourceFormatError, match=r"^page\.md:1:1: .*no separator row"):
        _table("| AP | Damage |")


def test_a_row_of_another_width_is_an_error_at_its_line():
    with pytest.raises(SourceFormatError, match=r"^page\.md:4:1: a row of 3 cells in a table of 2"):
        _table("| AP | Damage |\n|---|---|\n| 1 | 2 |\n| 2 | 3 | 4 |")


ROWS = [(ap, ap + 1, ap + 2, "Base", 10) for ap in range(1, 31)]


def _page(table: str) -> str:
    return (
        "Pistols\n\nWeapon Profile - Wiki Pistol (Tier 1)\nWiki Pistol\n"
        "Magazine: 3\tReload: 3\tWeight: 2\tCost: 1Bar\tRarity: Common\n" + table + "\n"
    )


def _markdown(separator: bool = True) -> str:
    lines = ["| AP | Damage | Defense | Move | Range |"]
    if separator:
        lines.append("| --- | --- | --- | --- | --- |")
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in ROWS]
    return "\n".join(lines)


def _tabbed() -> str:
    lines = ["AP\tDamage\tDefense\tMove\tRange"]
    lines += ["\t".join(str(cell) for cell in row) for row in ROWS]
    return "\n".join(lines)


def test_a_profile_table_in_markdown_reads_as_its_tab_form():
    _, from_markdown = parse_page(_page(_markdown()), PAGE)
    _, from_tabs = parse_page(_page(_tabbed()), PAGE)
    assert from_markdown[0].rows == from_tabs[0].rows
    assert from_markdown[0].rows[0] == {
        "ap": 1,
        "damage": 2,
        "defense": 3,
        "move": "Base",
        "range": 10,
    }
    assert len(from_markdown[0].rows) == 30


def test_importing_a_profile_table_without_its_separator_row_is_an_error_at_its_place(tmp_path):
    tree = base_tree()
    tree["demo/weapon-sections/pistols.yaml"] = tree.pop("demo/sections/pistols.yaml")
    compendium = build_tree(tmp_path / "c", tree)
    (tmp_path / "page.md").write_text(_page(_markdown(separator=False)), encoding="utf-8")
    before = {path: path.read_bytes() for path in compendium.rglob("*") if path.is_file()}
    result = run("import", "wiki", "page.md", "--ruleset", str(compendium / "demo"), cwd=tmp_path)
    assert result.returncode == 2
    assert "error: page.md:7:1: the table whose header row is line 6 has no separator row" in (
        result.stderr
    )
    assert {path: path.read_bytes() for path in compendium.rglob("*") if path.is_file()} == before
