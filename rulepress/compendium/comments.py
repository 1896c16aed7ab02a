"""The comments of a YAML file, in order, found by the loader's own scanner.

PyYAML's scanner (libyaml's when present, as the loader reads) skips comments, but every
token it gives has a start and an end: whatever stands between two tokens is blanks,
line breaks and comments, so a `#` found there starts a comment, and a `#` inside a quoted
or block scalar never does. A block scalar's token also covers its header line
(`key: |  # note`), where a comment may follow the indicators; that one is read from the
header. `fmt` compares the comments of a file before and after formatting, so that it can
refuse rather than lose one.
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

import yaml

from rulepress.compendium.yaml_source import Position, loader_for

_BLOCK_HEADER = re.compile(r"[|>][0-9+-]*[ \t]+(#[^\r\n\x85\u2028\u2029]*)")
_MARKER_REST = re.compile(r"[ \t]*(#|\r\n|[\r\n\x85\u2028\u2029]|$)?")
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # YAML's, as the scanner counts lines


class Comment(NamedTuple):
    """One comment: its text from `#` to the end of its line (trailing blanks left out),
    and where its `#` stands."""

    text: str
    position: Position


def comments(text: str) -> list[Comment]:
    """Every comment of `text` in the order it appears. Raises yaml's YAMLError when the
    text cannot be scanned: parse the file first."""
    starts = _line_starts(text)
    found: list[Comment] = []
    previous_end = 0
    for token in yaml.scan(text, Loader=loader_for(text)):
        start, end = _offset(token.start_mark, starts), _offset(token.end_mark, starts)
        found += _comments_between(text, previous_end, start, starts)
        block_scalar = isinstance(token, yaml.ScalarToken) and token.style in ("|", ">")
        if block_scalar and (header := _BLOCK_HEADER.match(text, start)):
            found.append(_comment(header.group(1), header.start(1), starts))
        previous_end = max(previous_end, end)
    return found + _comments_between(text, previous_end, len(text), starts)


def _line_starts(text: str) -> list[int]:
    return [0] + [match.end() for match in _LINE_BREAK.finditer(text)]


def _offset(mark, starts: list[int]) -> int:
    return starts[min(mark.line, len(starts) - 1)] + mark.column


def _comments_between(text: str, start: int, end: int, starts: list[int]) -> list[Comment]:
    found = []
    while (hash_at := text.find("#", start, end)) >= 0:
        line_break = _LINE_BREAK.search(text, hash_at, end)
        line_end = line_break.start() if line_break else end
        found.append(_comment(text[hash_at:line_end], hash_at, starts))
        start = line_end
    return found


def _comment(text: str, at: int, starts: list[int]) -> Comment:
    line = bisect.bisect_right(starts, at) - 1
    return Comment(text.rstrip(), Position(line + 1, at - starts[line] + 1))


def without_document_markers(text: str) -> str:
    """`text` without its `---` and `...` markers, so that the comments beside and after
    them stand where ruamel's round trip keeps comments (it drops those after `...` and
    before `---`). A marker with only a comment or nothing after it on its line goes with
    the blanks that follow it; one with content after it (`--- {...}`) is blanked in place.
    A file with a directive (`%YAML`) needs its `---` and is left as it is. The canonical
    form writes no markers."""
    tokens = list(yaml.scan(text, Loader=loader_for(text)))
    if any(isinstance(token, yaml.DirectiveToken) for token in tokens):
        return text
    starts = _line_starts(text)
    pieces, kept_from = [], 0
    for token in tokens:
        if isinstance(token, yaml.DocumentStartToken | yaml.DocumentEndToken):
            at = _offset(token.start_mark, starts)
            rest = _MARKER_REST.match(text, at + 3)
            alone = rest.group(1) is not None  # nothing but a comment or a line break follows
            pieces += [text[kept_from:at], "" if alone else "   "]
            kept_from = (rest.start(1) if rest.group(1) == "#" else rest.end()) if alone else at + 3
    return "".join([*pieces, text[kept_from:]])


def first_difference(before: list[Comment], after: list[Comment]) -> int | None:
    """The index of the first comment where the two sequences' texts part (one dropped,
    changed, added or moved past another); None when they agree, in order."""
    for index in range(max(len(before), len(after))):
        if index >= len(before) or index >= len(after) or before[index].text != after[index].text:
            return index
    return None
