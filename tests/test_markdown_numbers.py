"""The site's Markdown extension: bare numbers in table cells skip inline processing and
the HTML stays exactly what it was."""

from __future__ import annotations

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

from rulepress.markdown_numbers import NumberCellsExtension

EXTENSIONS = ["abbr", "tables", "sane_lists", "toc"]
GLOSSARY = "\n*[AP]: Action points\n*[TC]: Threat condition\n"
CELLS = st.one_of(
    st.integers(-1000, 1000).map(str),
    st.integers(0, 99).map(lambda n: f"+{n}"),
    st.sampled_from(
        ["Base", "AP", "*5*", "**12**", "`7`", "1 Bar", "&amp;", "<b>3</b>", "5\\*", "2 AP"]
    ),
)


def table(rows: list[list[str]]) -> str:
    lines = ["| AP | Damage | Move |", "| --- | --- | --- |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n" + GLOSSARY


@settings(deadline=None)  # no timed tests: a shared machine is slow at times
@given(st.lists(st.lists(CELLS, min_size=3, max_size=3), min_size=1, max_size=8))
def test_the_html_is_the_same_with_and_without_the_extension(rows):
    text = table(rows)
    plain = markdown.markdown(text, extensions=EXTENSIONS)
    assert markdown.markdown(text, extensions=[*EXTENSIONS, NumberCellsExtension()]) == plain


class SeenCells(Treeprocessor):
    """Notes each cell's text as the inline processor will find it."""

    def run(self, root):
        self.md.seen = [
            (cell.text, isinstance(cell.text, AtomicString)) for cell in root.iter("td")
        ]


def test_only_whole_numbers_are_left_out_of_inline_processing():
    md = markdown.Markdown(extensions=["tables", NumberCellsExtension()])
    md.treeprocessors.register(SeenCells(md), "seen", 21)  # after ours, before inline (20)
    md.convert(table([["12", "-5", "+3"], ["Base", "*5*", "1 Bar"]]))
    assert md.seen == [
        ("12", True),
        ("-5", True),
        ("+3", True),
        ("Base", False),
        ("*5*", False),
        ("1 Bar", False),
    ]
