"""Markdown tables in a source page, read for an importer: a header row, its separator
row (`| --- | --- |`), then the rows, one line each.

A table without its separator row is no table to a Markdown reader (its lines are a
paragraph of pipes), and guessing which line was meant for the header would mis-read
the page in silence: it is a SourceFormatError at the line where the separator belongs,
as a finding reads (`page:line:col: message`), never a traceback or a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_SEPARATOR_CELL = re.compile(r"\s*:?-+:?\s*")
"""A cell of a separator row: dashes, with a colon at either end for the alignment."""


class SourceFormatError(Exception):
    """A source page that does not follow its format, at a line and column as a finding
    reads (`page:line:col: message`)."""

    def __init__(self, path: Path, line: int, message: str, col: int = 1):
        """The message starts with `page:line:col`."""
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path, self.line, self.col, self.message = path, line, col, message


@dataclass(frozen=True)
class MarkdownTable:
    """A Markdown table of a page: its header's cells, its rows' cells, and where each is."""

    line: int
    """The line of the header row, from 1."""
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    row_lines: tuple[int, ...]
    """The line of each row, from 1."""
    end: int
    """The index (from 0) of the first line after the table."""


def is_table_row(line: str) -> bool:
    """Whether a line is a row of a Markdown table: it starts with a pipe."""
    return line.lstrip().startswith("|")


def table_cells(line: str) -> tuple[str, ...]:
    """The cells of a table row, stripped: split at each pipe not escaped (`\\|`), the
    pipes at either end of the row dropped."""
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return tuple(cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", text))


def is_separator_row(line: str) -> bool:
    """Whether a table row is a separator row: every cell dashes (`| --- | :-: |`)."""
    return is_table_row(line) and all(_SEPARATOR_CELL.fullmatch(cell) for cell in table_cells(line))


def read_markdown_table(lines: list[str], index: int, path: Path) -> MarkdownTable:
    """The table whose header row is `lines[index]`, to its last row (the next line that is
    not a table row ends it). SourceFormatError when the line under the header is not a
    separator row (at that line: the table would be read with a row for its header, or
    not at all), or a separator or a row has another number of cells than the header."""
    header = table_cells(lines[index])
    below = index + 1
    if below >= len(lines) or not is_separator_row(lines[below]):
        at = below + 1 if below < len(lines) and lines[below].strip() else index + 1
        raise SourceFormatError(
            path,
            at,
            f"the table whose header row is line {index + 1} has no separator row "
            f"(| --- | --- |) under it: add one, or the header is read as a row",
            _column(lines[at - 1]),
        )
    _same_width(lines, below, header, path, "separator row")
    rows: list[tuple[str, ...]] = []
    row_lines: list[int] = []
    cursor = below + 1
    while cursor < len(lines) and is_table_row(lines[cursor]):
        if is_separator_row(lines[cursor]):
            raise SourceFormatError(
                path, cursor + 1, "a second separator row inside a table", _column(lines[cursor])
            )
        _same_width(lines, cursor, header, path, "row")
        rows.append(table_cells(lines[cursor]))
        row_lines.append(cursor + 1)
        cursor += 1
    return MarkdownTable(index + 1, header, tuple(rows), tuple(row_lines), cursor)


def _same_width(lines: list[str], index: int, header: tuple[str, ...], path: Path, what: str):
    found = len(table_cells(lines[index]))
    if found != len(header):
        raise SourceFormatError(
            path,
            index + 1,
            f"a {what} of {found} cells in a table of {len(header)} columns",
            _column(lines[index]),
        )


def _column(line: str) -> int:
    """The column (from 1) of a line's first character that is not white space."""
    return len(line) - len(line.lstrip()) + 1


def markdown_tables(text: str, path: Path) -> list[MarkdownTable]:
    """Every Markdown table of a page, in page order (SourceFormatError as
    `read_markdown_table` raises it)."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    tables = []
    index = 0
    while index < len(lines):
        if is_table_row(lines[index]):
            table = read_markdown_table(lines, index, path)
            tables.append(table)
            index = table.end
        else:
            index += 1
    return tables
