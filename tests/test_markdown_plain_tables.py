"""The plain-tables extension: a table of plain cells goes out as the `tables`
extension's own HTML, byte for byte, and any other table is left to that extension."""

from __future__ import annotations

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.markdown_numbers import NumberCellsExtension
from rulepress.markdown_plain_tables import PlainTablesExtension

EXTENSIONS = ["abbr", "tables", "sane_lists", "toc", NumberCellsExtension()]
GLOSSARY = "\n*[AP]: Action points\n*[TC]: Threat condition\n"
CELLS = st.one_of(
    st.integers(-1000, 1000).map(str),
    st.sampled_from(
        [
            "Base", "AP", "2 AP", "*5*", "**12**", "`7`", "1 Bar", "&amp;", "<b>3</b>",
            "5\\*", "", "d6+d6", "16.7%", "Tier (1)", "a_b", "[x](y)", "Kraków", "3 × 2",
        ]
    ),
)  # fmt: skip


def table(header: list[str], rows: list[list[str]], separator: str = "---") -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + f" {separator} |" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "Before.\n\n" + "\n".join(lines) + "\n\nAfter.\n" + GLOSSARY


def html(text: str, *extensions) -> str:
    return markdown.markdown(text, extensions=[*EXTENSIONS, *extensions], output_format="html")


@settings(deadline=None)  # no timed tests: a shared machine is slow at times
@given(
    st.lists(CELLS, min_size=2, max_size=4).flatmap(
        lambda header: st.tuples(
            st.just(header),
            st.lists(st.lists(CELLS, min_size=len(header), max_size=len(header)), max_size=6),
        )
    )
)
def test_the_html_is_the_same_with_and_without_the_extension(header_and_rows):
    text = table(*header_and_rows)
    assert html(text, PlainTablesExtension()) == html(text)


def taken(text: str) -> bool:
    """Whether the extension wrote the table itself (stashed it as raw HTML)."""
    md = markdown.Markdown(extensions=[*EXTENSIONS, PlainTablesExtension()])
    md.convert(text)
    return any(block.startswith("<table>") for block in md.htmlStash.rawHtmlBlocks)


def test_an_ap_table_of_plain_cells_is_written_by_the_extension():
    rows = [[str(ap), str(ap + 2), "Base" if ap > 2 else "-5", "10"] for ap in range(1, 5)]
    assert taken(table(["Damage", "Defense", "Move", "Range"], rows))


def test_other_tables_are_left_to_the_tables_extension():
    plain = [["1", "2"], ["3", "4"]]
    assert not taken(table(["AP", "Damage"], plain))  # a glossary term: abbr must see it
    assert not taken(table(["Die", "Damage"], [["1", "*5*"]]))  # markup
    assert not taken(table(["Die", "Damage"], plain, separator=":---:"))  # alignment
    assert not taken(table(["Die", "Damage"], [["1 \\| 2", "3"]]))  # an escaped pipe
    assert not taken(table(["Die", "Damage"], [["1", "2", "3"]]))  # a ragged row
    assert not taken(table(["Die", "Damage"], []))  # no rows: the extension adds an empty one
    assert not taken(table(["Die", "Damage"], [["&amp;", "<b>3</b>"]]))  # HTML and entities
