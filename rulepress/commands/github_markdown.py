"""Markdown that GitHub shows: the step summary of `validate --format github` and the
pull-request comment of `diff --format markdown`. Both quote data from the pull request,
so every value goes through `github_text`; both are dropped by GitHub whole past a size,
so both are cut to `fitting` their limit, saying how much was cut."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Literal

from rulepress.errors import printable
from rulepress.exporters.escaping import LINE_START, markdown_code

_ZERO_WIDTH = "\u200b"
"""Breaks what GitHub would link, invisibly (`errors.printable` has escaped any that the
data held, so each one left is ours); written as `&#8203;`."""
# What GitHub links or converts by itself, in text it has rendered (so backslashes cannot
# stop it): @user and @org/team (a mention notifies them), #1 and org/repo#1, GH-1 (and
# a custom autolink's PREFIX-1), a scheme's `:` (https://, mailto:) and www., an emoji's
# `:name:`. A zero-width space goes after each such `@`, `#`, `:`, `www` or `-`.
_AUTOLINKED = re.compile(r"[@#]|:(?=[/\w+-])|(?i:www)(?=\.)|(?<=[A-Za-z])-(?=\d)")
# A commit SHA: GitHub links a run of 7 to 40 hex digits. Split into pieces of 6.
_HEX_RUN = re.compile(r"[0-9A-Fa-f]{7,}")
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]|~$])")


def github_text(value: object, context: Literal["text", "code"] = "text") -> str:
    """`value` as literal text in GitHub-flavoured Markdown, for its `context`. What a
    reader sees is `printable(value)`: no line break or control character (a line break
    shows as `\\n`).

    - "text": one line of a paragraph, a heading, a list item or a table cell (one
      escaping serves them all): no HTML (`&` and `<` as entities), no Markdown (its
      punctuation, `|` included, backslash-escaped, and a block marker at the start), and
      no mention, reference, link or emoji that GitHub would make by itself.
    - "code": a code span, backticks included, outside a table (where nothing is
      Markdown, HTML or linked): fenced by more backticks than the text holds in a row."""
    text = printable("" if value is None else str(value))
    if context == "code":
        return markdown_code(text)
    text = _HEX_RUN.sub(_split_hex, text)
    text = _AUTOLINKED.sub(lambda found: found.group() + _ZERO_WIDTH, text)
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    text = _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)
    text = LINE_START.sub(r"\1\\\2", text)
    return text.replace(_ZERO_WIDTH, "&#8203;")


def _split_hex(found: re.Match) -> str:
    run = found.group()
    return _ZERO_WIDTH.join(run[i : i + 6] for i in range(0, len(run), 6))


def fitting(pieces: Iterable[str], room: int, size: Callable[[str], int]) -> list[str]:
    """The first of `pieces` that together measure at most `room` by `size`: the rest is
    never made (a long list's pieces are built only as far as they are kept)."""
    kept: list[str] = []
    for piece in pieces:
        room -= size(piece)
        if room < 0:
            break
        kept.append(piece)
    return kept


def utf8_bytes(text: str) -> int:
    """The size of `text` in a file GitHub reads: UTF-8, as the step summary is written."""
    return len(text.encode("utf-8", "backslashreplace"))


def comment_characters(text: str) -> int:
    """The length of `text` as GitHub may count a comment's: in UTF-16 units, a line
    break as two (CR LF, as a browser's form sends it). Never less than Python's len."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2 + text.count("\n")
