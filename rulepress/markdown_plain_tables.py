"""A Python-Markdown extension for the site: a table of plain cells goes out as ready HTML.

The site's weapon pages are mostly AP tables, 150 cells a weapon. Python-Markdown builds
each cell as an element, runs its inline patterns and tree processors over it, then
serializes it: at 10,000 weapons that is most of what `mkdocs build` spends in
Markdown. A pipe table whose cells hold only plain text (letters, digits, spaces and
a few signs: nothing an inline pattern, an abbreviation or HTML escaping would change)
is written here as the HTML the `tables` extension writes for it, byte for byte, and
stashed as raw HTML. Any other table (alignment, markup, an escaped pipe, a glossary
term, ragged rows) is left to the `tables` extension.

mkdocs imports it by name in its own process: it stays free of rulepress's other
imports, as rulepress.markdown_numbers does.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from markdown import Markdown
from markdown.blockprocessors import BlockProcessor
from markdown.extensions import Extension
from markdown.extensions.abbr import AbbrExtension
from markdown.preprocessors import Preprocessor
from markdown.util import AtomicString

PLAIN_CELL = re.compile(r"(?:[^\W_]|[ +\-.,%/()'\":;×–—])*")
"""What a cell may hold to skip Python-Markdown: no `*_`[]!<>&\\~{}#|^=` and no HTML."""
SEPARATOR_CELL = re.compile(r" *-+ *")
ABBREVIATION = re.compile(r"^[*]\[(?P<abbr>[^\\]*?)\][ ]?:", re.MULTILINE)
"""An abbreviation's definition line, as the `abbr` extension reads it (or more)."""
BEFORE_TABLES = 76  # the tables extension's processor has priority 75; higher runs first


class AbbreviationTerms(Preprocessor):
    """Notes every abbreviation the page defines (the glossary is appended to each page),
    so that a table naming one is left to the `tables` extension and `abbr`."""

    def __init__(self, md: Markdown, terms: set[str]) -> None:
        """Collect into `terms`, the set the table processor reads."""
        super().__init__(md)
        self.terms = terms

    def run(self, lines: list[str]) -> list[str]:
        """Collect the terms; the lines stay as they are."""
        self.terms.clear()
        self.terms.update(m["abbr"] for m in ABBREVIATION.finditer("\n".join(lines)))
        for extension in self.md.registeredExtensions:
            if isinstance(extension, AbbrExtension):
                self.terms.update(extension.abbrs)
        return lines


class PlainTables(BlockProcessor):
    """Writes a pipe table of plain cells as the `tables` extension's HTML."""

    def __init__(self, parser, terms: set[str]) -> None:
        """`terms`: the page's abbreviations (AbbreviationTerms fills it)."""
        super().__init__(parser)
        self.terms = terms
        self._pattern: tuple[frozenset[str], re.Pattern[str] | None] = (frozenset(), None)
        self._rows: list[list[str]] = []

    def _term_pattern(self) -> re.Pattern[str] | None:
        """One pattern of every term, compiled once for a set of terms (every page of a
        site has the same glossary)."""
        terms = frozenset(self.terms)
        if terms != self._pattern[0]:
            alternatives = "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True))
            self._pattern = (terms, re.compile(alternatives) if alternatives else None)
        return self._pattern[1]

    def test(self, parent: etree.Element, block: str) -> bool:
        """Whether `block` is a table this processor writes (its rows kept for `run`)."""
        if not block.startswith("|"):
            return False
        lines = [line.strip(" ") for line in block.split("\n")]
        if len(lines) < 3:  # the tables extension writes an empty row for a bare header
            return False
        rows = []
        for line in lines:
            if len(line) < 2 or line[0] != "|" or line[-1] != "|":
                return False
            rows.append(line[1:-1].split("|"))
        width = len(rows[0])
        if width < 2 or any(len(row) != width for row in rows):
            return False
        if not all(SEPARATOR_CELL.fullmatch(cell) for cell in rows[1]):
            return False
        del rows[1]
        if not all(PLAIN_CELL.fullmatch(cell) for row in rows for cell in row):
            return False
        terms = self._term_pattern()
        if terms is not None and terms.search(block):
            return False
        self._rows = rows
        return True

    def run(self, parent: etree.Element, blocks: list[str]) -> None:
        """Stash the table's HTML where the block was."""
        blocks.pop(0)
        header, *body = self._rows
        lines = ["<table>", "<thead>", "<tr>"]
        lines += [f"<th>{cell.strip(' ')}</th>" for cell in header]
        lines += ["</tr>", "</thead>", "<tbody>"]
        for row in body:
            lines.append("<tr>")
            lines += [f"<td>{cell.strip(' ')}</td>" for cell in row]
            lines.append("</tr>")
        lines += ["</tbody>", "</table>"]
        paragraph = etree.SubElement(parent, "p")
        paragraph.text = AtomicString(self.parser.md.htmlStash.store("\n".join(lines)))


class PlainTablesExtension(Extension):
    """The extension mkdocs loads (`markdown_extensions` in mkdocs.yml)."""

    def extendMarkdown(self, md: Markdown) -> None:
        """Collect the page's abbreviations, then take plain tables before `tables` does."""
        terms: set[str] = set()
        md.preprocessors.register(AbbreviationTerms(md, terms), "rulepress-abbreviations", 0)
        md.parser.blockprocessors.register(
            PlainTables(md.parser, terms), "rulepress-plain-tables", BEFORE_TABLES
        )


def makeExtension(**kwargs: object) -> PlainTablesExtension:  # the name mkdocs looks up
    """The extension, for Python-Markdown's lookup by module name."""
    return PlainTablesExtension(**kwargs)
