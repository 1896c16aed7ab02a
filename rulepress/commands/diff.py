"""`rulepress diff OLD NEW`: the changes rulepress.history finds, said in the game's words
as text, Markdown (a pull-request comment) or JSON."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from dataclasses import asdict

from rulepress.commands.github_markdown import comment_characters, fitting, github_text
from rulepress.errors import printable
from rulepress.history import Change

COMMENT_CHARACTERS = 60_000
"""GitHub refuses a comment over 65,536 characters: the Markdown is kept under this, which
leaves a workflow room to add a line of its own."""


def format_changes(changes: list[Change], fmt: str, old: str, new: str) -> str:
    """The changes as `diff` prints them: text lines, JSON, or Markdown for a pull-request
    comment (every value shown as literal text, at most COMMENT_CHARACTERS)."""
    if fmt == "json":
        return json.dumps(
            {"old": old, "new": new, "changes": [asdict(c) for c in changes]},
            indent=2,
            ensure_ascii=False,
        )
    if not changes:
        return "no changes to the rules" if fmt == "text" else "**No changes to the rules.**"
    if fmt == "markdown":
        return _comment(changes, old, new)
    return "\n".join(printable(f"{c.ruleset}: {c.text}") for c in changes)


_CUT_ROOM = 1_000
"""The most characters the line saying what was cut takes (it names OLD and NEW)."""


def _comment(changes: list[Change], old: str, new: str) -> str:
    """The pull-request comment: a heading, then each ruleset's changes as a list. Every
    value (names come from the pull request, and so may OLD and NEW) shows as literal
    text. The changes past the limit are cut and counted, with where to read them all."""
    head = f"### Rules changes ({github_text(old)} -> {github_text(new)})\n"
    room = COMMENT_CHARACTERS - comment_characters(head) - _CUT_ROOM
    kept = fitting(_pieces(changes), room, comment_characters)
    text = head + "".join(kept)
    if len(kept) < len(changes):  # a piece per change
        command = github_text(f"rulepress diff {shlex.quote(old)} {shlex.quote(new)}", "code")
        text += (
            f"\n**{len(changes) - len(kept)} more changes not shown** (GitHub refuses a "
            f"comment over 65,536 characters): {command} lists them all.\n"
        )
    return text


def _pieces(changes: list[Change]) -> Iterator[str]:
    """The comment's body, a piece per change: its line, after its ruleset's heading when
    it is the first of its ruleset (the changes come grouped by ruleset)."""
    rulesets = dict.fromkeys(c.ruleset for c in changes)
    for ruleset in rulesets:
        first = True
        for change in (c for c in changes if c.ruleset == ruleset):
            heading = f"\n**{github_text(ruleset)}**\n\n" if first else ""
            first = False
            yield f"{heading}- {github_text(change.text)}\n"
