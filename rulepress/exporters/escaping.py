"""One escaping function per output context: every value from the compendium or the
settings reaches an output through the function of the place it is written into.

| Context                                   | Function               | Jinja filter |
| ----------------------------------------- | ---------------------- | ------------ |
| Markdown text (inline, or a block's start) | `markdown_text`        | `md`         |
| Markdown paragraphs (printed lines)       | `markdown_prose`       | `prose`      |
| Markdown table cell                       | `markdown_cell`        | `cell`       |
| Markdown code span                        | `markdown_code`        | `code`       |
| Markdown link: destination / whole link   | `markdown_url`, `markdown_link` | `link_url` |
| Markdown abbreviation (glossary) line     | `markdown_abbreviation` |             |
| HTML text                                 | `html_text`            |              |
| HTML attribute value                      | `html_attribute`       | `attribute`  |
| URL in an HTML attribute                  | `html_url`             | `href`       |
| JSON inside `<script>`                    | `script_json`          |              |
| YAML front matter                         | `yaml_front_matter`    |              |
| A RichText field (its Markdown subset)    | `rich_text.rich_markdown`, `rich_html` | `rich` |

Markdown text is escaped for Markdown *and* for HTML, since Markdown passes HTML through:
a value shows as the characters it holds wherever the Markdown is rendered (the site,
Foundry's journal pages, GitHub). Jinja's autoescape (the Foundry HTML templates) is
`html_attribute`'s escaping: markupsafe's, which every HTML context can hold. mkdocs.yml
is written by a YAML emitter, never by hand, so a setting cannot end its value there.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Mapping

from markupsafe import Markup, escape

from rulepress.models.ruleset import GLOSSARY_TERM

# `#` too: a heading drops the #s that end its line ("Intro ##" would read "Intro").
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]|~#])")
LINE_START = re.compile(r"^(\s*\d*)([#>+.)-])")
"""What a printed line may start with that Markdown reads as a block (a heading, a quote,
a list item, a rule): prose escapes it on every line."""
# What a value starting a block (a paragraph, a list item's text) would turn into a list
# item or a rule: `- `, `+ `, `1. `, `2) `, `---`. Narrower than LINE_START, so that a
# figure such as `-1` or `1.5` keeps its bytes.
_LIST_OR_RULE = re.compile(r"^(?:\d{1,9}[.)]|[-+]+)(?=\s|$)")


def markdown_text(value: object) -> str:
    """A value as one line of Markdown text, shown as its characters in any place of a
    line: HTML characters become entities, Markdown punctuation is backslash-escaped,
    a newline becomes a space, the white space before it goes (indentation would make a
    code block, where the escapes show), and a list or rule marker at its start is
    escaped."""
    text = "" if value is None else str(value)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = " ".join(_INLINE_SPECIAL.sub(r"\\\1", text).split("\n")).lstrip()
    marker = _LIST_OR_RULE.match(text)
    if marker is None:
        return text
    if text[0].isdigit():  # `1.` -> `1\.`
        return text[: marker.end() - 1] + "\\" + text[marker.end() - 1 :]
    return "\\" + text  # `- x` -> `\- x`, `---` -> `\---`


def markdown_prose(value: object) -> str:
    """Rules text kept as printed: each printed line its own paragraph of Markdown text,
    a line that starts like a heading, quote or list item kept a plain line."""
    lines = [markdown_text(line.strip()) for line in str(value or "").split("\n")]
    return "\n\n".join(LINE_START.sub(r"\1\\\2", line) for line in lines if line)


def markdown_cell(value: object) -> str:
    """A value in a Markdown table cell: Markdown text, whose escaping already covers a
    cell's own ends (`|` is escaped, a line break becomes a space)."""
    return markdown_text(value)


def markdown_code(value: object) -> str:
    """A value as a Markdown code span (outside tables) holding any text: fenced with
    one backtick more than its longest run of backticks, padded with a space where it
    starts or ends with a backtick or a space (CommonMark strips one from each side).
    Inside a code span nothing is Markdown or HTML; a newline becomes a space."""
    text = " ".join(("" if value is None else str(value)).split("\n"))
    if not text:
        return ""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    padded = text[0] in "` " or text[-1] in "` "
    pad = " " if padded else ""
    return f"{fence}{pad}{text}{pad}{fence}"


# Characters that would end a link's destination, start its title, split a table row or
# mean something to an HTML attribute: written as %XX, which every reader decodes.
_URL_UNSAFE = re.compile(r"[\s<>()\\`'\"|\[\]{}^]")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


def _checked_url(target: str) -> str:
    """A URL that is relative or http(s), its unsafe characters percent-encoded. Any other
    scheme (`javascript:`, `data:`) is refused: the settings allow http(s) only, and the
    exporters make relative links, so another is a bug to stop at."""
    scheme = _SCHEME.match(target)
    if scheme and scheme.group(1).lower() not in ("http", "https"):
        raise ValueError(f"not an http(s) or relative URL: {target!r}")
    return _URL_UNSAFE.sub(lambda found: f"%{ord(found.group()):02X}", target)


def markdown_url(target: object) -> str:
    """A Markdown link's destination: relative or http(s), nothing in it that ends it."""
    return _checked_url(str(target))


def markdown_link(text: object, target: object) -> str:
    """A Markdown link `[text](target)`, its text Markdown text, its target a URL."""
    return f"[{markdown_text(text)}]({markdown_url(target)})"


_GLOSSARY_TERM = re.compile(GLOSSARY_TERM)


def markdown_abbreviation(term: str, definition: str) -> str:
    """A glossary line (`*[TERM]: definition`) of the abbr extension, which shows the
    definition as the term's title attribute: no Markdown there, but an entity stays one
    and a definition of `""` means none, so `&` and `"` are written as entities and the
    definition shows as typed. The term is the model's (plain words, one space apart);
    another is refused."""
    if not _GLOSSARY_TERM.match(term):
        raise ValueError(f"not a glossary term: {term!r}")
    text = " ".join(definition.split("\n")).strip()
    text = text.replace("&", "&amp;").replace('"', "&quot;")
    return f"*[{term}]: {text}"


def html_text(value: object) -> str:
    """A value as HTML text (between tags, never in an attribute): `&`, `<`, `>` escaped."""
    return html.escape("" if value is None else str(value), quote=False)


def html_attribute(value: object) -> Markup:
    """A value as a quoted HTML attribute's value, or as text: `& < > " '` escaped, once
    (markup already escaped stays as it is). Jinja's autoescape does the same."""
    return escape("" if value is None else value)


def html_url(target: object) -> Markup:
    """A URL as an HTML attribute's value (href, src, a refresh's url): relative or
    http(s) only, its unsafe characters percent-encoded, then escaped for the attribute."""
    return html_attribute(_checked_url(str(target)))


# JSON is JavaScript, but for these: U+2028 and U+2029 end a line (so a `//` comment) in
# a script, and `<`, `>`, `&` can close a <script> or open an HTML comment around it.
_SCRIPT_UNSAFE = {ord(ch): f"\\u{ord(ch):04x}" for ch in "\u2028\u2029<>&"}


def script_json(value: object, **dumps: object) -> str:
    """`value` as JSON that stays the same value inside an HTML `<script>` or any
    JavaScript: nothing in it can end the script. `dumps` are json.dumps's options."""
    return json.dumps(value, **dumps).translate(_SCRIPT_UNSAFE)  # type: ignore[arg-type]


def yaml_front_matter(fields: Mapping[str, object]) -> str:
    """A Markdown file's YAML front matter (`---` lines) holding `fields`, "" when there are
    none. Each value is written as JSON, which YAML reads as it is: text cannot end the
    block or add a key."""
    if not fields:
        return ""
    lines = "".join(
        f"{key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in fields.items()
    )
    return f"---\n{lines}---\n\n"


MARKDOWN_FILTERS: dict[str, Callable[[object], str]] = {
    "md": markdown_text,
    "prose": markdown_prose,
    "cell": markdown_cell,
    "code": markdown_code,
}
"""The filters of text in Markdown templates (which the Foundry export makes inert first)."""
URL_FILTERS: dict[str, Callable[[object], str]] = {
    "link_url": markdown_url,
    "attribute": html_attribute,
    "href": html_url,
}
"""The filters of link destinations and of HTML written into Markdown or HTML templates."""
