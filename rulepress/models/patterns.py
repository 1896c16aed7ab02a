"""Patterns: text of the settings that names placeholders in braces (`{ruleset} (Acme)`).

A pattern is untrusted (it comes from the content repository), so it is never handed to
`str.format`, whose format specs (`{ruleset:>99999999999}`), conversions (`{ruleset!r}`)
and attribute or index access (`{ruleset.__class__}`) would let it build huge texts or
reach Python objects. It is parsed here: `{name}` for a name the setting allows, `{{` and
`}}` for a brace, and nothing else; `fill` only puts the values in.
"""

from __future__ import annotations

import functools
import re
from typing import Annotated, Any

from pydantic import AfterValidator

from rulepress.errors import closest

_PART = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
"""A brace's part of a pattern: an escaped brace, a placeholder, or a lone brace."""
_NOT_A_NAME = {
    ":": "takes no format spec (':...')",
    "!": "takes no conversion ('!...')",
    ".": "is a bare name, with no attribute access ('.')",
    "[": "is a bare name, with no index ('[...]')",
}


@functools.lru_cache(maxsize=256)
def parts(pattern: str, allowed: tuple[str, ...]) -> tuple[tuple[bool, str], ...]:
    """(is a placeholder, text or name) of each part of `pattern`, in order; a ValueError
    saying what is wrong when it names anything but `allowed` as bare `{name}`."""
    found: list[tuple[bool, str]] = []
    written = 0
    for match in _PART.finditer(pattern):
        found.append((False, pattern[written : match.start()]))
        written = match.end()
        brace = match.group()
        if brace in ("{{", "}}"):
            found.append((False, brace[0]))
        elif match.group(1) is None:
            raise ValueError(f"a lone {brace!r}; write a brace as {{{{ or }}}}")
        else:
            found.append((True, _placeholder(match.group(1), allowed)))
    found.append((False, pattern[written:]))
    return tuple(part for part in found if part[0] or part[1])


def _placeholder(inside: str, allowed: tuple[str, ...]) -> str:
    """The name a placeholder's braces hold, when it is a bare name of `allowed`."""
    known = ", ".join(f"{{{name}}}" for name in allowed)
    name = re.split(r"[:!.\[]", inside, maxsplit=1)[0]
    if not name or name.isdecimal():  # str.format's positional fields
        raise ValueError(f"{{{inside}}}: a placeholder names what it stands for, one of {known}")
    if name != inside:
        wrong = _NOT_A_NAME[inside[len(name)]]
        raise ValueError(f"{{{inside}}}: a placeholder {wrong}; write {{{name}}}")
    if name not in allowed:
        close = closest(name, allowed)
        hint = f" (did you mean {{{close}}}?)" if close else ""
        raise ValueError(f"unknown placeholder {{{name}}}{hint}; known: {known}")
    return name


def fill(pattern: str, **values: str) -> str:
    """`pattern` with each placeholder replaced by its value (and `{{`, `}}` by a brace):
    substitution only. A pattern naming anything but `values` is a ValueError."""
    return "".join(
        values[text] if is_name else text for is_name, text in parts(pattern, tuple(values))
    )


def pattern_of(base: Any, allowed: tuple[str, ...]) -> Any:
    """The type of a setting holding `base` (a text type) that may name `allowed` in
    braces, checked by `parts`; with none allowed, a text without braces."""

    def checked(value: str | None) -> str | None:
        if value is not None and not allowed and ("{" in value or "}" in value):
            raise ValueError("this setting is no pattern: it takes no placeholders or braces")
        if value is not None:
            parts(value, allowed)
        return value

    return Annotated[base, AfterValidator(checked)]
