"""mkdocs hooks of every rules site: loaded by mkdocs (`hooks:` in the generated
mkdocs.yml), never imported by rulepress.

Material prints the site's name, description, copyright line and repository address
into its pages as they are, unescaped in some places and escaped in others. They come
from the publisher's settings, so they are made markup-safe once here: escaped text that
Jinja's `e` filter leaves alone, so every place shows the text, and none runs it as HTML.
"""

from __future__ import annotations

import posixpath
import re

from markupsafe import Markup

from rulepress.exporters.escaping import html_attribute, html_url

ESCAPED = {
    "site_name": html_attribute,
    "site_description": html_attribute,
    "copyright": html_attribute,
    "repo_url": html_url,
}
"""The settings' texts that Material prints, and the escaping of each."""


def on_config(config):
    """Escape the settings' texts that Material prints."""
    for name, escape in ESCAPED.items():
        text = config.get(name)
        if isinstance(text, str) and not isinstance(text, Markup):
            config[name] = escape(text)
    return config


def on_page_markdown(markdown, page, config, files):
    """A page's edit link is the YAML file it was built from (`edit_url` in the front
    matter that rulepress wrote), or none: mkdocs would point at the generated Markdown."""
    page.edit_url = page.meta.get("edit_url") or None
    return markdown


_SEARCH_DIALOG = re.compile(r'(<div class="md-search" data-md-component="search" role="dialog")>')
_SEARCH_LABEL = re.compile(
    r'<input type="text" class="md-search__input" name="query" aria-label="([^"]*)"'
)


def on_post_page(output, page, config):
    """Put back the tables of figures held out of the search index (`on_page_content`),
    name the theme's search dialog (WCAG 4.1.2: a dialog needs a name) with its search
    field's label, which the theme has already translated and escaped, and lead the
    language switcher to this page in each language."""
    output = _put_back(output, page)
    output = _alternates(output, page, config)
    label = _SEARCH_LABEL.search(output)
    if label is None:
        return output
    return _SEARCH_DIALOG.sub(lambda m: f'{m[1]} aria-label="{label[1]}">', output, count=1)


def on_post_template(output_content, template_name, config):
    """The theme's own pages (404.html) have the search dialog too."""
    return on_post_page(output_content, None, config)


_ALTERNATE = re.compile(r'href="#rulepress-alternate-(\d+)"')
_ALTERNATE_HEAD = re.compile(r'\s*<link rel="alternate" href="#rulepress-alternate-\d+" [^>]*>')


def _alternates(output, page, config):
    """The language switcher's links (`extra.alternate`, whose links rulepress writes as
    `#rulepress-alternate-N`, which Material prints as they are) made the way from this
    page to the same page in site N (`extra.rulepress_alternates`: the way to each site's
    root, and the pages whose path is another there), relative, so it works from a file
    too. A theme page (404.html) leads to each site's home. The `<link rel="alternate">`
    Material puts in the head for each language is left out: its script fetches the
    `sitemap.xml` beside each (none beside a page: a 404 for every language on every
    page) and, finding one at a site's root, sends the switcher to that site's home."""
    plan = config["extra"].get("rulepress_alternates")
    if not plan:
        return output
    output = _ALTERNATE_HEAD.sub("", output)
    here = page.url if page is not None else "index.html"
    moved = plan["moved"].get(page.file.src_uri, {}) if page is not None else {}
    folder = posixpath.dirname(here) or "."

    def link(match):
        number = match[1]
        target = "index.html" if page is None else moved.get(number, here)
        path = posixpath.relpath(plan["roots"][int(number)] + target, folder)
        return f'href="{html_url(path)}"'

    return _ALTERNATE.sub(link, output)


_ABBR = re.compile(r"<abbr(?= title=)")
_HEADING_OR_TABLE = re.compile(r"<h([1-6])[^>]*>(.*?)</h\1>|<table>(.*?)</table>", re.S)
_TAG = re.compile(r"<[^>]+>")
_HEADERLINK = re.compile(r'<a class="headerlink".*?</a>', re.S)
_ROW = re.compile(r"<tr>(\s*)<td([^>]*)>(.*?)</td>", re.S)


def on_page_content(html_text, page, config, files):
    """What a keyboard and a screen reader need that Markdown cannot say: a glossary term
    takes the focus (the theme then opens its definition, as on hover), and each table
    gets a caption (its heading's words) and headers that say what they head. Then the
    tables of figures are held out of what the search plugin reads (`_hold_out`)."""
    held: list[str] = []
    html_text = _hold_out(_tables(_ABBR.sub('<abbr tabindex="0"', html_text)), held)
    page.rulepress_held_tables = held  # put back by on_post_page
    return html_text


def _tables(html_text: str) -> str:
    """Caption each table with the heading above it ("Pistol: by AP" for a second table
    under the same heading, named by its first column), scope its column headers, and
    make the first cell of each row the row's header when the table has several rows."""
    heading, tables_under_heading = "", 0
    parts = []
    last = 0
    for match in _HEADING_OR_TABLE.finditer(html_text):
        if match.group(1):
            text = _TAG.sub("", _HEADERLINK.sub("", match.group(2))).strip()
            heading, tables_under_heading = text, 0
            continue
        body = match.group(3)
        tables_under_heading += 1
        first_header = _TAG.sub("", body.split("</th>", 1)[0]).strip()
        caption = heading or first_header
        if tables_under_heading > 1 and first_header:
            caption = f"{heading}: by {first_header}"
        body = body.replace("<th>", '<th scope="col">').replace(
            "<th style", '<th scope="col" style'
        )
        if body.count("<tr>") > 2:  # a header row and more than one row of figures
            body = _ROW.sub(r'<tr>\1<th scope="row"\2>\3</th>', body)
        parts.append(html_text[last : match.start()])
        parts.append(f"<table>\n<caption>{caption}</caption>{body}</table>")
        last = match.end()
    parts.append(html_text[last:])
    return "".join(parts)


_CAPTIONED_TABLE = re.compile(r"<table>\n<caption>.*?</table>", re.S)
_BODY_CELL = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>", re.S)
_FIGURE = re.compile(r"[+-]?\d+(?:[.,]\d+)?%?")
_HELD = "<!--rulepress-held-table-{}-->"
_HELD_MARK = re.compile(r"<!--rulepress-held-table-(\d+)-->")


def _hold_out(html_text: str, held: list[str]) -> str:
    """Replace each table of figures (more than two rows, most cells bare numbers: an AP
    table) by a comment, its HTML appended to `held`. Players search for names and rules
    text, not for the cells of such a table; the heading above it stays indexed, so a
    search for the weapon still lands on it. This is what Material's `data-search-exclude` does, but
    its search plugin would still parse every tag of the table (half of `mkdocs build`
    at 10,000 weapons): held out, the table costs it nothing."""

    def hold(match: re.Match[str]) -> str:
        table = match[0]
        body = table.split("<tbody>", 1)[-1]
        if body.count("<tr>") <= 2:
            return table
        cells = _BODY_CELL.findall(body)
        if 2 * sum(1 for cell in cells if _FIGURE.fullmatch(cell)) <= len(cells):
            return table
        held.append(table)
        return _HELD.format(len(held) - 1)

    return _CAPTIONED_TABLE.sub(hold, html_text)


def _put_back(output: str, page) -> str:
    """The page's HTML with its held-out tables where they were."""
    held = getattr(page, "rulepress_held_tables", None)
    if not held:
        return output
    page.rulepress_held_tables = []
    return _HELD_MARK.sub(lambda m: held[int(m[1])] if int(m[1]) < len(held) else m[0], output)
