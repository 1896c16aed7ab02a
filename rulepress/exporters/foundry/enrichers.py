"""Data text made inert for Foundry's text enrichers, keeping what a reader sees.

Foundry's TextEditor.enrichHTML (v12, v13) turns patterns in journal pages, item
descriptions, table results and chat messages into live elements: content links
`@UUID[...]{label}` (also `@Compendium[...]`, `@Actor[...]`, `@Macro[...]`...), embeds
`@Embed[...]`, inline rolls `[[/r 1d20]]` and `[[...]]`, and whatever systems register
(dnd5e `&Reference[...]` and `[[/check ...]]`, pf2e `@Check[...]`, coc7 `@coc7.check[...]`).
It parses the HTML, walks its text nodes and matches each node's *decoded* text
(textContent): HTML character references (`&#64;UUID&#91;`) are decoded before the match,
so they neutralise nothing.

Every one of these patterns needs `[[`, or `@` or `&` directly before a word. A WORD
JOINER (U+2060: no width, no line break, nothing to see) between two `[`, and after an `@`
or `&` that a word (or the end of the value, where template text may follow) comes
after, breaks them all; the text reads the same. Every data value written into Foundry
HTML goes through `inert` before it is escaped; the exporter's own `@UUID` links are
written around inert labels, so they alone stay live. The macros' `esc()` does the same
for what they post to chat.
"""

from __future__ import annotations

import re

WORD_JOINER = "\u2060"
_ENRICHER_START = re.compile(r"(?<=[@&])(?=\w|\Z)|(?<=\[)(?=\[|\Z)")


def inert(text: str) -> str:
    """`text` that no enricher pattern matches, showing the same characters."""
    return _ENRICHER_START.sub(WORD_JOINER, text)
