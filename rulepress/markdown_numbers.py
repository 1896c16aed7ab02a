"""A Python-Markdown extension for the site: table cells that hold only a whole number
skip inline processing.

The site's weapon pages are mostly AP tables, 150 cells a weapon. Python-Markdown tries
every inline pattern (emphasis, links, abbreviations...) at every cell: skipping the
numbers takes a fifth or more off `mkdocs build` for 10,000 weapons. No inline pattern
matches a bare number (glossary terms start with a letter), so marking such a cell
atomic changes no output.

mkdocs imports it by name in its own process: it stays free of rulepress's other
imports (pydantic, jinja2), which would cost a small site's build half a second.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

WHOLE_NUMBER = re.compile(r"[+-]?\d+")
BEFORE_INLINE = 25  # the inline processor runs at priority 20; higher runs first


class NumberCells(Treeprocessor):
    """Marks each table cell that holds only a whole number atomic, so inline patterns skip it."""

    def run(self, root: etree.Element) -> None:
        """Mark the number cells of the page."""
        for cell in root.iter("td"):
            if cell.text and len(cell) == 0 and WHOLE_NUMBER.fullmatch(cell.text):
                cell.text = AtomicString(cell.text)


class NumberCellsExtension(Extension):
    """The extension mkdocs loads (`markdown_extensions` in mkdocs.yml)."""

    def extendMarkdown(self, md: Markdown) -> None:
        """Run NumberCells before the inline patterns."""
        md.treeprocessors.register(NumberCells(md), "rulepress-number-cells", BEFORE_INLINE)


def makeExtension(**kwargs: object) -> NumberCellsExtension:  # the name mkdocs looks up
    """The extension, for Python-Markdown's lookup by module name."""
    return NumberCellsExtension(**kwargs)
