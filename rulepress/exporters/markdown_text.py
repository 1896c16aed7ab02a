"""Render guide sections as Markdown, and Markdown as HTML.

Every value from the compendium passes through a filter that escapes it for its place
(rulepress.exporters.escaping: `md` for text, `prose` for paragraphs, `cell` for table
cells, `code` for a code span, `link_url` for a link's destination; `rich` renders a
RichText field, rulepress.exporters.rich_text), so a name with
`<script>`, a `|` or a backtick shows as text wherever the Markdown is rendered. The same
templates feed the Markdown guide, the Foundry journal pages and the site.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import jinja2
import markdown as markdown_lib

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.exporters import templating
from rulepress.exporters.escaping import MARKDOWN_FILTERS, URL_FILTERS
from rulepress.exporters.guide import Section
from rulepress.exporters.rich_text import markdown_filter
from rulepress.translations.words import SOURCE

TEMPLATES = Path(__file__).parent / "templates"
Linker = Callable[[str, str], str]
"""link(document id, label) -> Markdown that links to where the document is shown."""


def percent(chance: Fraction | float, digits: int = 1) -> str:
    """A chance (0 to 1) as a percentage."""
    return f"{float(chance) * 100:.{digits}f}%"


def signed(value: int) -> str:
    """A modifier as the rules print it: `+2`, `0`, `-1` (the templates' `signed` filter)."""
    return f"+{value}" if value > 0 else str(value)


def environment(
    user_templates: Path | None = None,
    plain: Callable[[str], str] | None = None,
    language: str = SOURCE,
) -> jinja2.Environment:
    """Markdown templates; a user folder, if given, overrides shipped templates by name.
    `plain`, if given, is what each value's text goes through before it is escaped (the
    Foundry export makes it inert for Foundry's enrichers). rulepress's own words are
    in `language` (templating.with_words)."""
    env = templating.environment(
        TEMPLATES / "markdown",
        user_templates,
        plugins="markdown",
        language=language,
        autoescape=False,  # Markdown, not HTML: values are escaped by the md/prose/cell filters
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    for name, escape in MARKDOWN_FILTERS.items():
        env.filters[name] = escape if plain is None else _after(plain, escape)
    env.filters.update(URL_FILTERS, percent=percent, signed=signed)
    env.filters["rich"] = markdown_filter() if plain is None else markdown_filter(plain)
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
