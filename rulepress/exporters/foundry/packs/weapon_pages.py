"""A weapon section's Foundry journal page, written as HTML: its tables are the ones its
weapons' Items show (rendered once, shared), and converting them from Markdown was
nearly all of a large export's time. The weapon section kind's `journal` hook."""

from __future__ import annotations

from markupsafe import Markup

from rulepress.compendium.model import Ruleset
from rulepress.exporters.foundry.packs.common import WeaponTables
from rulepress.exporters.guide import Section
from rulepress.models import WeaponProfile


def weapon_section_journal(section: Section, ruleset: Ruleset, links, tables: WeaponTables) -> str:
    """The weapon section kind's `journal` hook: its skill's link, then its weapons' tables."""
    weapons = section.documents[1:]
    skill = ruleset.get(section.document.skill)
    link = links.html(section.document.skill, skill.name)
    return weapon_section_page(weapons, link, tables)


def weapon_section_page(
    weapons: tuple[WeaponProfile, ...], skill_link: Markup, tables: WeaponTables
) -> str:
    """The journal page of a weapon section: its skill, then each weapon's tables."""
    page = tables.html.get_template("weapon-section.html.j2").render(
        skill_link=skill_link, weapons=[(weapon, tables[weapon]) for weapon in weapons]
    )
    return page.strip()
