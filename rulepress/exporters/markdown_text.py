"""Render guide sections as Markdown, and Markdown as HTML.

Every value from the compendium passes through a filter that escapes it for Markdown
*and* for HTML (`md` for inline text, `prose` for paragraphs, `cell` for table cells),
so a name with `<script>` or a `|` shows as text wherever the Markdown is rendered. The
same templates feed the Markdown guide, the Foundry journal pages and the site.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import jinja2
import markdown as markdown_lib

from rulepress.compendium.model import Ruleset
from rulepress.errors import printable
from rulepress.exporters import templating
from rulepress.exporters.guide import Section
from rulepress.exporters.memo import RenderMemo, reused, templates_key
from rulepress.models import OddsTable, PushRule, Skill, StepDice, TcSource, WeaponProfile
from rulepress.rules.odds import best_reading, exact_percent, push_reading, within_rounding

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


_GITHUB_SPECIAL = re.compile(r"([\\`*_\[\]|~$])")
# What GitHub links by itself in text: @user and @org/team (a mention notifies them),
# #12 and org/repo#12 (a reference), and bare web addresses. A zero-width space breaks
# each, invisibly.
_GITHUB_LINKED = re.compile(r"([@#]|://|www\.)")


def github_text(value: object) -> str:
    """Data for one line of a GitHub comment, shown as literal text: no line break or
    control character (errors.printable), no HTML (`&` and `<` as entities), no Markdown
    (its punctuation backslash-escaped, and a block marker at the start), and no mention,
    reference or link that GitHub would make by itself."""
    text = printable("" if value is None else str(value))
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    text = _GITHUB_SPECIAL.sub(r"\\\1", text)
    text = _GITHUB_LINKED.sub(lambda found: _zero_width_after(found.group()), text)
    return _LINE_START.sub(r"\1\\\2", text)


def _zero_width_after(linked: str) -> str:
    return linked[:1] + "&#8203;" + linked[1:] if linked[0] in "@#:" else "www&#8203;."


def prose(value: object) -> str:
    """Escape rules text kept as printed: each printed line stays its own paragraph."""
    lines = [md(line.strip()) for line in str(value or "").split("\n")]
    # A printed line that starts like a heading or a list item stays a plain line.
    return "\n\n".join(_LINE_START.sub(r"\1\\\2", line) for line in lines if line)


def percent(chance: Fraction | float, digits: int = 1) -> str:
    """A chance (0 to 1) as a percentage."""
    return f"{float(chance) * 100:.{digits}f}%"


def signed(value: int) -> str:
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
    memo: RenderMemo | None = None,
) -> str:
    """The Markdown body of one section. Its own heading, at level `heading`, is the
    caller's; headings inside the body go one level deeper. With a `memo`, weapons the
    previous export rendered alike are taken from it."""
    template = env.get_template(f"sections/{section.template}.md.j2")
    text = template.render(
        section=section,
        doc=section.document,
        docs=section.documents,
        ruleset=ruleset,
        link=link,
        get=ruleset.get,
        heading=heading,
        weapon_block=WeaponBlocks(env, ruleset.info.currency or "", memo),
        **_helpers(ruleset),
    )
    return text.strip() + "\n"


class WeaponBlocks:
    """weapon_block(weapon, heading): a weapon's anchors, heading and tables, rendered by
    `sections/weapon.md.j2`, which sees only the weapon, the currency and the heading
    level: what it gives depends on nothing else, so a rebuild may reuse it."""

    def __init__(self, env: jinja2.Environment, currency: str, memo: RenderMemo | None) -> None:
        self.env, self.currency, self.memo = env, currency, memo

    def __call__(self, weapon: WeaponProfile, heading: int) -> str:
        return reused(self.memo, weapon_block, weapon, heading, self)

    def memo_key(self) -> str:
        return templates_key(self.env, self.currency)


def weapon_block(weapon: WeaponProfile, heading: int, blocks: WeaponBlocks) -> str:
    template = blocks.env.get_template("sections/weapon.md.j2")
    return template.render(weapon=weapon, currency=blocks.currency, heading=heading)


@dataclass(frozen=True)
class OddsCell:
    text: Fraction
    """P(at least one success) in percent, by the rule text's reading of the push."""
    other: Fraction
    """The same with every die that is not a success re-rolled."""
    agrees: bool


def _helpers(ruleset: Ruleset) -> dict[str, Callable]:
    """Figures the templates show that the rules compute, never typed by hand."""
    step_dice = ruleset.one(StepDice)
    push = ruleset.one(PushRule)
    text_reading = push_reading(push)
    other_reading = (
        "every-non-success" if text_reading != "every-non-success" else "neither-one-nor-success"
    )

    def odds(table: OddsTable, skill: str | None, column: str) -> OddsCell:
        text = exact_percent(step_dice, table, skill, column, text_reading)
        other = exact_percent(step_dice, table, skill, column, other_reading)
        printed = table.rows[[r.skill for r in table.rows].index(skill)].percent[
            table.columns.index(column)
        ]
        best = (
            text
            if table.roll == "initial"
            else exact_percent(step_dice, table, skill, column, best_reading(step_dice, table)[0])
        )
        return OddsCell(text / 100, other / 100, within_rounding(printed, best))

    def skills_using(trait_id: str) -> list[Skill]:
        return [skill for skill in ruleset.all(Skill) if trait_id in skill.traits]

    return {"odds": odds, "skills_using": skills_using, "tc_amount": tc_amount}


def tc_amount(source: TcSource) -> str:
    """A TC source's amount as a player reads it: `2 TC`, `1 to 4 TC`, `-1 TC per ally`."""
    if source.tc == "referee":
        text = "set by the referee"
    elif isinstance(source.tc, int):
        text = f"{source.tc} TC"
    else:
        text = f"{source.tc.min} to {source.tc.max} TC"
    if source.per:
        text += f" per {source.per.replace('-', ' ')}"
    if source.outstanding_success_tc is not None:
        text += f" ({source.outstanding_success_tc} TC on an Outstanding Success)"
    return text


def to_html(text: str) -> str:
    """Markdown to HTML, tables included (the text was escaped by the templates)."""
    return markdown_lib.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
