"""`rulepress diff OLD NEW`: the changes rulepress.history finds, said in the game's words
as text, Markdown (a pull-request comment) or JSON."""

from __future__ import annotations

import json
from dataclasses import asdict

from rulepress.errors import printable
from rulepress.exporters.markdown_text import github_text
from rulepress.history import Change


def format_changes(changes: list[Change], fmt: str, old: str, new: str) -> str:
    """The changes as `diff` prints them: text lines, JSON, or Markdown for a pull-request
    comment (every value shown as literal text)."""
    if fmt == "json":
        return json.dumps(
            {"old": old, "new": new, "changes": [asdict(c) for c in changes]},
            indent=2,
            ensure_ascii=False,
        )
    if not changes:
        return "no changes to the rules" if fmt == "text" else "**No changes to the rules.**"
    if fmt == "markdown":
        # Posted as a pull-request comment: every value (names come from the pull
        # request, and so may OLD and NEW) shows as literal text.
        lines = [f"### Rules changes ({github_text(old)} -> {github_text(new)})", ""]
        for ruleset in dict.fromkeys(c.ruleset for c in changes):
            lines += [f"**{github_text(ruleset)}**", ""]
            lines += [f"- {github_text(c.text)}" for c in changes if c.ruleset == ruleset]
            lines.append("")
        return "\n".join(lines).rstrip() + "\n"
    return "\n".join(printable(f"{c.ruleset}: {c.text}") for c in changes)
