"""A `RichText` value (rulepress.models.rich_text) rendered for each output from its parse
tree, never from its source: every text and link label goes through the escaping of the
output (rulepress.exporters.escaping), so what is not in the subset shows as typed.

- `rich_markdown`: the subset written again as Markdown, for the Markdown guide, the site
  (mkdocs renders it) and Foundry's journal pages (converted by markdown_text.to_html);
  a `doc:` link is what the output's Linker writes for that document.
- `rich_html`: HTML, for the templates that write Foundry HTML directly.

`plain` is what each text goes through before it is escaped: `inert` for Foundry, so no
enricher starts in the data; only the links rulepress writes (`@UUID[...]{label}`) are
live. The Jinja filter `rich` renders a RichText field in a template (`rich_filters`).
"""

from __future__ import annotations

from collections.abc import Callable

import jinja2
from markupsafe import Markup

from rulepress.exporters.escaping import html_text, markdown_text
from rulepress.models import rich_text
from rulepress.models.rich_text import Block, DocLink, Emphasis, Inline, Paragraph

Linker = Callable[[str, str], str]
"""link(document id, label) -> the output's link to where the document is shown."""
Plain = Callable[[str], str]
INDENT = "    "
"""A list item's following lines: four spaces, which Python-Markdown needs to nest."""


def _unchanged(text: str) -> str:
    return text


# -- Markdown ------------------------------------------------------------------------------


def rich_markdown(value: object, link: Linker, plain: Plain = _unchanged) -> str:
    """`value` (RichText) as Markdown: paragraphs, lists, `*emphasis*`, `**strong**`,
    every text escaped by markdown_text, each `doc:` link `link(id, label)`."""
    return _markdown_blocks(rich_text.parse(str(value)), link, plain)


def _markdown_blocks(blocks: tuple[Block, ...], link: Linker, plain: Plain) -> str:
    return "\n\n".join(_markdown_block(block, link, plain) for block in blocks)


def _markdown_block(block: Block, link: Linker, plain: Plain) -> str:
    if isinstance(block, Paragraph):
        return _markdown_inlines(block.children, link, plain, block_start=True).rstrip()
    items = []
    for number, item in enumerate(block.items, block.start or 0):
        marker = "-" if block.start is None else f"{number}."
        body = _markdown_blocks(item, link, plain) if block.loose else _tight(item, link, plain)
        lines = body.split("\n")
        rest = [f"{INDENT}{line}" if line else "" for line in lines[1:]]
        items.append("\n".join([f"{marker} {lines[0]}".rstrip(), *rest]))
    return ("\n\n" if block.loose else "\n").join(items)


def _tight(item: tuple[Block, ...], link: Linker, plain: Plain) -> str:
    """A tight item's blocks: its text, then a nested list on the next line."""
    return "\n".join(_markdown_block(block, link, plain) for block in item)


def _markdown_inlines(
    nodes: tuple[Inline, ...], link: Linker, plain: Plain, block_start: bool = False
) -> str:
    out = []
    for index, node in enumerate(nodes):
        if isinstance(node, DocLink):
            out.append(link(node.target, plain(node.label)))
        elif isinstance(node, Emphasis):
            mark = "**" if node.strong else "*"
            out.append(f"{mark}{_markdown_inlines(node.children, link, plain)}{mark}")
        else:
            escaped = markdown_text(plain(node.text))
            # markdown_text drops the white space a block may not start with; inside a
            # line the space before the text is a word's end, and stays.
            keep_space = not (block_start and index == 0) and node.text[:1].isspace()
            out.append(" " + escaped if keep_space and escaped[:1] != " " else escaped)
    return "".join(out)


# -- HTML ----------------------------------------------------------------------------------


def rich_html(value: object, link: Linker | None = None, plain: Plain = _unchanged) -> Markup:
    """`value` (RichText) as HTML: `<p>`, `<ul>`/`<ol>`, `<em>`, `<strong>`, every text
    escaped by html_text; a `doc:` link is `link(id, label)` (HTML), or its label as
    text when there is no `link`."""
    return Markup(_html_blocks(rich_text.parse(str(value)), link, plain, paragraphs=True))


def _html_blocks(blocks: tuple[Block, ...], link, plain: Plain, paragraphs: bool) -> str:
    parts = []
    for block in blocks:
        if isinstance(block, Paragraph):
            text = _html_inlines(block.children, link, plain)
            parts.append(f"<p>{text}</p>" if paragraphs else text)
            continue
        tag = "ul" if block.start is None else "ol"
        start = f' start="{block.start}"' if block.start not in (None, 1) else ""
        items = "\n".join(
            f"<li>{_html_blocks(item, link, plain, block.loose)}</li>" for item in block.items
        )
        parts.append(f"<{tag}{start}>\n{items}\n</{tag}>")
    return "\n".join(parts)  # as Python-Markdown writes it: a block's text ends at its line


def _html_inlines(nodes: tuple[Inline, ...], link, plain: Plain) -> str:
    out = []
    for node in nodes:
        if isinstance(node, DocLink):
            label = plain(node.label)
            out.append(str(link(node.target, label)) if link else html_text(label))
        elif isinstance(node, Emphasis):
            tag = "strong" if node.strong else "em"
            out.append(f"<{tag}>{_html_inlines(node.children, link, plain)}</{tag}>")
        else:
            out.append(html_text(plain(node.text)))
    return "".join(out)


# -- the templates' filter -----------------------------------------------------------------


def markdown_filter(plain: Plain = _unchanged) -> Callable:
    """The `rich` filter of the Markdown templates: `{{ doc.text | rich }}` links each
    document with the template's own `link` (the section's Linker); `rich(link)` with
    another."""

    @jinja2.pass_context
    def rich(context: jinja2.runtime.Context, value: object, link: Linker | None = None) -> str:
        chosen = link or context.get("link") or (lambda _target, label: markdown_text(label))
        return rich_markdown(value, chosen, plain)

    return rich


def html_filter(plain: Plain = _unchanged) -> Callable:
    """The `rich` filter of the HTML templates: `{{ document.text | rich }}` shows each
    link's label as text; `rich(link)` links with `link(id, label)`, which returns HTML
    (the journal's `links.html`)."""

    def rich(value: object, link: Linker | None = None) -> Markup:
        return rich_html(value, link, plain)

    return rich
