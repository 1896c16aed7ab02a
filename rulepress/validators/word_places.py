"""Where a word of a document's prose stands in its file, for the checks that report words
(RP231 misspelled-word, RP232 undefined-term), found in time linear in the file.

The loader keeps no file's text once parsed, so the text is read again (once per
version of the file) with a table of where each line starts: a word's offset in the
file becomes its line and column by bisection. Each text's words are matched with the
file's words after the text's place once, not once per reported word. And a file
reports at most `MAX_WORD_REPORTS` words per check, then one report of how many more
there are: a document of thousands of misspellings says so in one line.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulepress.compendium.model import Entry
from rulepress.compendium.yaml_source import Position, YamlProblem, decode_utf8
from rulepress.files import read_regular
from rulepress.validators.registry import Report

WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")
"""A word as the prose checks read it: letters, with inner apostrophes (don't,
referee’s); hyphens and digits split words (equal-to, 2d6)."""
_LETTERS = re.compile(r"[A-Za-z]+")
"""A run of letters: a word without apostrophes is found as a whole run of them."""
MAX_WORD_REPORTS = 50
"""The words one check reports in one file; the rest are counted in one more report."""


@dataclass(frozen=True)
class FileText:
    """A file's text and the offset where each of its lines starts."""

    text: str
    line_starts: tuple[int, ...]

    def position(self, offset: int) -> Position:
        """The line and column (from 1) of the character at `offset`."""
        line = bisect.bisect_right(self.line_starts, offset)
        return Position(line, offset - self.line_starts[line - 1] + 1)


def file_text(file: Path) -> FileText | None:
    """The file's text, read once per version of the file (`serve` validates again after
    an edit, in the same process); None when it cannot be read."""
    try:
        stat = file.stat()
    except OSError:
        return None
    return _read(file, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=64)
def _read(file: Path, mtime: int, size: int) -> FileText | None:
    """The text the loader read (a regular file of at most 2 MiB, UTF-8)."""
    try:
        text = decode_utf8(read_regular(file))
    except (OSError, YamlProblem):
        return None
    starts = [0, *(match.end() for match in re.finditer("\n", text))]
    return FileText(text, tuple(starts))


class WordPlaces:
    """Where the words of one entry's texts stand in its file. A plain or quoted scalar
    keeps its words as written, and so does a block scalar, so a text's n-th "teh" is the
    n-th "teh" of the file after the text's start; a word not found there (an escape
    spells part of it) has no place of its own (None: the text's place)."""

    def __init__(self, entry: Entry) -> None:
        """Places in `entry`'s file; its text is read when a place is first asked for."""
        self.entry = entry
        self._file: FileText | None = None
        self._text_key: tuple | None = None
        self._begin = 0
        self._nth: dict[int, tuple[str, int]] = {}
        self._found: dict[str, list[int]] = {}

    def position(self, path: tuple, value: str, offset: int) -> Position | None:
        """Where the word at `offset` of the text `value` (at `path`) stands in the file."""
        if not self._index(path, value):
            return None
        match = WORD.match(value, offset)
        if match is None or offset not in self._nth or self._nth[offset][0] != match.group():
            return self._search(value, offset)  # a word with an apostrophe (rare): alone
        word, nth = self._nth[offset]
        places = self._found.get(word, [])
        return self._file.position(places[nth]) if nth < len(places) else None

    def _search(self, value: str, offset: int) -> Position | None:
        """The place of the word at `offset` by searching the file for it alone: the
        same occurrence counted from the text's start, as letters between non-letters."""
        match = WORD.match(value, offset)
        if match is None or self._file is None:
            return None
        pattern = re.compile(rf"(?<![A-Za-z]){re.escape(match.group())}(?![A-Za-z])")
        nth = len(pattern.findall(value, 0, offset))
        limit = self._begin + 2 * len(value) + 200
        for number, found in enumerate(pattern.finditer(self._file.text, self._begin, limit)):
            if number == nth:
                return self._file.position(found.start())
        return None

    def _index(self, path: tuple, value: str) -> bool:
        """Match the letter runs of one text with the file's, once for all its words (the
        n-th run "teh" of the text is the n-th of the file, whatever stands around it)."""
        if self._text_key == (path, value):
            return self._file is not None
        self._text_key, self._nth, self._found = (path, value), {}, {}
        self._file = file_text(self.entry.file)
        start = self.entry.position(path)
        if (
            self._file is None
            or not self.entry.source.has(path)
            or start.line > len(self._file.line_starts)
        ):
            self._file = None
            return False
        self._begin = begin = self._file.line_starts[start.line - 1] + start.col - 1
        counts: dict[str, int] = {}
        for match in _LETTERS.finditer(value):
            word = match.group()
            self._nth[match.start()] = (word, counts.get(word, 0))
            counts[word] = counts.get(word, 0) + 1
        limit = begin + 2 * len(value) + 200  # no farther than an escaped text could be
        for match in _LETTERS.finditer(self._file.text, begin, limit):
            self._found.setdefault(match.group(), []).append(match.start())
        return True


@dataclass(frozen=True)
class WordReport:
    """A word a check reports: which text, where in it, and what is wrong."""

    message: str
    path: tuple
    value: str
    offset: int


def reports_at_words(entry: Entry, found: Iterable[WordReport], what: str) -> Iterator[Report]:
    """The first MAX_WORD_REPORTS of `found` (one entry's) as reports at their words, then
    one report, at the first word left out, of how many more `what` the file holds."""
    places = WordPlaces(entry)
    listed = 0
    first_left_out: WordReport | None = None
    left_out = 0
    for report in found:
        if listed < MAX_WORD_REPORTS:
            listed += 1
            at = places.position(report.path, report.value, report.offset)
            yield Report(entry, report.message, report.path, at=at)
            continue
        first_left_out = first_left_out or report
        left_out += 1
    if first_left_out is not None:
        first = first_left_out
        yield Report(
            entry,
            f"{left_out} more {what} in this file are not listed, from here on (only the "
            f"first {MAX_WORD_REPORTS} are)",
            first.path,
            at=places.position(first.path, first.value, first.offset),
        )
