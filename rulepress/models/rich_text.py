"""The Markdown subset of a `RichText` field (models.base), parsed by markdown-it-py.

The subset: paragraphs (a blank line between them), bullet and numbered lists (nested
at most MAX_LIST_DEPTH deep), `*emphasis*`, `**strong**`, backslash escapes, and links to
documents of the same ruleset written `[label](doc:<document id>)`. Everything else is
not parsed, so it shows as the characters typed: raw HTML, images, headings, quotes, code,
tables, rules, entities, autolinks, links anywhere but `doc:` (`https:`, `javascript:`,
`data:`, relative), and Foundry's enrichers (`@UUID[...]`, `[[/r 1d6]]`, `@Embed[...]`).
The parser is markdown-it-py's "zero" preset (which parses nothing but paragraphs and
text, and never HTML) with only those rules turned on; `outside_subset` parses with the
full CommonMark rules to tell an author what will show literally (RP233).

A parsed text is a tree of the dataclasses below; each output renders that tree with its
own escaping (rulepress.exporters.rich_text), never the source text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # markdown-it is imported when a text is parsed, not with the models
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

DOC_LINK = re.compile(r"^doc:([a-z0-9]+(?:-[a-z0-9]+)*)$")
"""A link's destination in the subset: `doc:` and a document's id (a slug)."""
MAX_LIST_DEPTH = 8
"""How deep lists may nest. markdown-it stops parsing blocks deeper than its maxNesting
(20 levels of tokens, 8 lists) and drops what follows, so a deeper text is refused."""
_MAX_NESTING = 20


@functools.cache
def _subset() -> MarkdownIt:
    """The parser of the subset."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("zero", {"maxNesting": _MAX_NESTING})
    parser.enable(["list", "emphasis", "link", "escape"])
    parser.validateLink = lambda url: DOC_LINK.match(url) is not None
    parser.normalizeLink = lambda url: url  # a slug needs no encoding; another is not a link
    return parser


@functools.cache
def _full() -> MarkdownIt:
    """Every CommonMark construct (and tables), HTML and links of any scheme included: what
    an author might have meant, to say what of it shows as typed."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"html": True}).enable("table").disable("text_join")
    parser.validateLink = lambda url: True
    return parser


@dataclass(frozen=True)
class Text:
    """Characters shown as they are (escapes already read: `\\*` is `*`)."""

    text: str


@dataclass(frozen=True)
class Emphasis:
    """`*text*` (`strong`: `**text**`)."""

    children: tuple[Inline, ...]
    strong: bool = False


@dataclass(frozen=True)
class DocLink:
    """`[label](doc:target)`: a link to the document `target`, shown as `label` (plain
    text: emphasis inside a link's label is not kept, as a Foundry link label has none)."""

    target: str
    label: str


Inline = Text | Emphasis | DocLink


@dataclass(frozen=True)
class Paragraph:
    """A paragraph: its line breaks are spaces."""

    children: tuple[Inline, ...]


@dataclass(frozen=True)
class ListBlock:
    """A bullet list, or a numbered one from `start`; `loose` when its items are separated
    by blank lines (each item's text is then a paragraph)."""

    items: tuple[tuple[Block, ...], ...]
    start: int | None = None
    loose: bool = False


Block = Paragraph | ListBlock


class TooDeep(ValueError):
    """A text whose lists nest deeper than MAX_LIST_DEPTH."""


@functools.lru_cache(maxsize=4096)
def parse(text: str) -> tuple[Block, ...]:
    """The blocks of `text` in the subset (cached: the checks and every output read the
    same texts). Raises TooDeep for lists nested deeper than MAX_LIST_DEPTH."""
    tokens = _subset().parse(text)
    if any(token.level >= _MAX_NESTING - 1 for token in tokens):
        raise TooDeep(f"lists nest at most {MAX_LIST_DEPTH} deep")
    blocks, _ = _blocks(tokens, 0, None)
    return tuple(blocks)


def doc_links(text: str) -> Iterator[str]:
    """The document id of each `doc:` link of `text`, in order (none if it cannot be
    parsed: loading refuses that text)."""
    try:
        blocks = parse(text)
    except TooDeep:
        return
    yield from (link.target for link in _links(blocks))


def _links(nodes) -> Iterator[DocLink]:
    for node in nodes:
        if isinstance(node, DocLink):
            yield node
        elif isinstance(node, Paragraph | Emphasis):
            yield from _links(node.children)
        elif isinstance(node, ListBlock):
            for item in node.items:
                yield from _links(item)


def _blocks(tokens: list[Token], at: int, closing: str | None) -> tuple[list[Block], int]:
    """The blocks from tokens[at] up to the token of type `closing`, and the index after it."""
    blocks: list[Block] = []
    while at < len(tokens) and tokens[at].type != closing:
        token = tokens[at]
        if token.type == "inline":
            blocks.append(Paragraph(tuple(_inlines(token.children or [], 0, None)[0])))
            at += 1
        elif token.type in ("bullet_list_open", "ordered_list_open"):
            items: list[tuple[Block, ...]] = []
            end = token.type.replace("_open", "_close")
            start = int(token.attrGet("start") or 1) if token.type[0] == "o" else None
            loose = False
            at += 1
            while tokens[at].type == "list_item_open":
                loose = loose or any(
                    t.type == "paragraph_open" and not t.hidden for t in tokens[at + 1 : at + 2]
                )
                item, at = _blocks(tokens, at + 1, "list_item_close")
                items.append(tuple(item))
                at += 1
            blocks.append(ListBlock(tuple(items), start, loose))
            at += 1 if tokens[at].type == end else 0
        else:  # paragraph_open / paragraph_close: the inline token between is the paragraph
            at += 1
    return blocks, at


def _inlines(tokens: list[Token], at: int, closing: str | None) -> tuple[list[Inline], int]:
    """The inline nodes from tokens[at] up to the token of type `closing`."""
    nodes: list[Inline] = []
    while at < len(tokens) and tokens[at].type != closing:
        token = tokens[at]
        if token.type in ("em_open", "strong_open"):
            children, at = _inlines(tokens, at + 1, token.type.replace("_open", "_close"))
            nodes.append(Emphasis(tuple(children), strong=token.type == "strong_open"))
        elif token.type == "link_open":
            children, at = _inlines(tokens, at + 1, "link_close")
            target = DOC_LINK.match(str(token.attrGet("href")))
            nodes.append(DocLink(target.group(1) if target else "", _plain(children)))
        elif token.type in ("softbreak", "hardbreak"):
            nodes.append(Text("\n"))
        else:  # text (escapes, once read, are text too)
            nodes.append(Text(token.content))
        at += 1
    return _joined(nodes), at


def _plain(nodes: list[Inline]) -> str:
    return "".join(
        node.text if isinstance(node, Text) else _plain(list(node.children)) for node in nodes
    )


def _joined(nodes: list[Inline]) -> list[Inline]:
    """Adjacent Texts as one (a line break is a space; the white space around it goes)."""
    joined: list[Inline] = []
    for node in nodes:
        if isinstance(node, Text) and joined and isinstance(joined[-1], Text):
            joined[-1] = Text(joined[-1].text + node.text)
        else:
            joined.append(node)
    return [
        Text(re.sub(r"[ \t]*\n[ \t]*", " ", node.text)) if isinstance(node, Text) else node
        for node in joined
    ]


# -- what shows literally ------------------------------------------------------------------

_CONSTRUCTS = {
    "html_block": "raw HTML",
    "html_inline": "raw HTML",
    "image": "an image",
    "heading_open": "a heading",
    "blockquote_open": "a quote",
    "hr": "a horizontal rule",
    "code_block": "a code block",
    "fence": "a code block",
    "code_inline": "code",
    "table_open": "a table",
}
LINK_TITLE = "a link title"
"""A `doc:` link's `"title"`: the outputs leave it out (the rest shows as typed)."""
_ENRICHER = re.compile(r"[@&][A-Za-z][\w.]*\[|\[\[")
"""What starts a Foundry enricher: `@UUID[`, `@Embed[`, `&Reference[`, `[[`."""


def outside_subset(text: str) -> dict[str, int]:
    """What `text` writes that the subset does not have (so it shows as typed), each with
    the line of the text (from 1) it first stands on."""
    found: dict[str, int] = {}
    for token in _full().parse(text):
        line = (token.map[0] + 1) if token.map else 1
        what = _CONSTRUCTS.get(token.type)
        if what:
            found.setdefault(what, line)
        for child in token.children or []:
            what = _inline_construct(child)
            if what:
                found.setdefault(what, line)
        if token.type == "inline" and _ENRICHER.search(token.content):
            mark = _ENRICHER.search(token.content).group()
            found.setdefault(f"a Foundry enricher (`{mark}`)", line)
    return found


def _inline_construct(token: Token) -> str | None:
    if token.type in _CONSTRUCTS:
        return _CONSTRUCTS[token.type]
    if token.type == "text_special" and token.info == "entity":  # kept apart: no text_join
        return "an HTML entity"
    if token.type == "link_open":
        href = str(token.attrGet("href"))
        if token.markup in ("autolink", "linkify"):
            return "an autolink"
        if DOC_LINK.match(href) is None:
            return f"a link to `{href[:60]}` (only `doc:<document id>` links)"
        if token.attrGet("title"):
            return LINK_TITLE
    return None
