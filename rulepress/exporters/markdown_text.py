"""Render guide sections as Markdown, and Markdown as HTML.

Every value from the compendium passes through a filter that escapes it for Markdown
*and* for HTML (`md` for inline text, `prose` for paragraphs, `cell` for table cells),
so a name with `<script>` or a `|` shows as text wherever the Markdown is rendered. The
same templates feed the Markdown guide, the Foundry journal pages and the site.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path

import jinja2
import markdown as markdown_lib

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.exporters import templating
from rulepress.exporters.guide import Section

TEMPLATES = Path(__file__).parent / "templates"
Linker = Callable[[str, str], str]
"""link(document id, label) -> Markdown that links to where the document is shown."""

# `#` too: a heading drops the #s that end its line ("Intro ##" would read "Intro").
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]|~#])")
_LINE_START = re.compile(r"^(\s*\d*)([#>+.)-])")


def md(value: object) -> str:
    """Escape a value for inline Markdown: HTML characters become entities, Markdown
    punctuation is backslash-escaped, newlines become spaces."""
    text = "" if value is None else str(value)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _INLINE_SPECIAL.sub(r"\\\1", text)
    return " ".join(text.split("\n"))


def prose(value: object) -> str:
    """Escape rules text kept as printed: each printed line stays its own paragraph."""
    lines = [md(line.strip()) for line in str(value or "").split("\n")]
    # A printed line that starts like a heading or a list item stays a plain line.
    return "\n\n".join(_LINE_START.sub(r"\1\\\2", line) for line in lines if line)


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


def percent(chance: Fraction | float, digits: int = 1) -> str:
    """A chance (0 to 1) as a percentage."""
    return f"{float(chance) * 100:.{digits}f}%"


def signed(value: int) -> str:
    """A modifier as the rules print it: `+2`, `0`, `-1` (the templates' `signed` filter)."""
    return f"+{value}" if value > 0 else str(value)


def environment(
    user_templates: Path | None = None, plain: Callable[[str], str] | None = None
) -> jinja2.Environment:
    """Markdown templates; a user folder, if given, overrides shipped templates by name.
    `plain`, if given, is what each value's text goes through before it is escaped (the
    Foundry export makes it inert for Foundry's enrichers)."""
    env = templating.environment(
        TEMPLATES / "markdown",
        user_templates,
        plugins="markdown",
        autoescape=False,  # Markdown, not HTML: values are escaped by the md/prose/cell filters
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    inline, lines = (md, prose) if plain is None else (_after(plain, md), _after(plain, prose))
    env.filters.update(md=inline, prose=lines, cell=inline, percent=percent, signed=signed)
    return env


def _after(plain: Callable[[str], str], escape: Callable[[object], str]) -> Callable:
    """escape(plain(text of the value)); nothing stays nothing."""
    return lambda value: escape(None if value is None else plain(str(value)))


def render_section(
    env: jinja2.Environment,
    section: Section,
    ruleset: Ruleset,
    link: Linker,
    heading: int = 3,
) -> str:
    """The Markdown body of one section. Its own heading, at level `heading`, is the
    caller's; headings inside the body go one level deeper."""
    template = env.get_template(f"sections/{section.template}.md.j2")
    text = template.render(
        section=section,
        doc=section.document,
        docs=section.documents,
        ruleset=ruleset,
        link=link,
        get=ruleset.get,
        heading=heading,
        **(kinds.load_hook(section.helpers)(ruleset, env) if section.helpers else {}),
    )
    return text.strip() + "\n"


def to_html(text: str) -> str:
    """Markdown to HTML, tables included (the text was escaped by the templates)."""
    return markdown_lib.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
