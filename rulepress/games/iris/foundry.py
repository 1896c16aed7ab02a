"""IRIS's weapons in Foundry, written as HTML: a weapon's stats and AP tables, shown by its
Item (the weapon kind's `description_context` hook) and by its section's journal page
(the weapon section kind's `journal` hook). They are rendered once and shared
(`Shared`): converting them from Markdown was nearly all of a large export's time."""

from __future__ import annotations

from markupsafe import Markup, escape

from rulepress.games.iris.models.weapon import WeaponProfile
from rulepress.plugin import Ruleset, Section
from rulepress.plugin.foundry import Shared


def weapon_tables(weapon: WeaponProfile, currency: str, shared: Shared) -> Markup:
    """The weapon's tables, rendered the first time and the same markup after (keyed by the
    object, which the pieces hold while they keep its tables)."""
    return shared.get(
        ("weapon-tables", currency),
        (weapon,),
        lambda: Markup(
            shared.html.get_template("weapon-tables.html.j2").render(
                weapon=weapon, currency=currency, rows=table_rows(weapon, shared)
            )
        ),
    )


def table_rows(weapon: WeaponProfile, shared: Shared) -> Markup:
    """The AP table's rows as HTML (`rows` of weapon-tables.html.j2), one `<tr>` line per
    row: the cells a `{{ row.ap }}` each would write (made inert and escaped as the
    template's own values are), made without Jinja, whose cost per cell was most of a
    large export's (300,000 rows in 10,000 weapons). A template of a user's that loops
    over `weapon.table` itself still can."""
    cell = shared.html.finalize
    shown: dict[object, str] = {}  # a column's few texts (`Base`), each escaped once

    def text(value: object) -> object:
        if type(value) is int:
            return value
        if value not in shown:
            shown[value] = str(escape(cell(value)))
        return shown[value]

    lines = []
    for ap, damage, defense, move, reach in weapon.table:
        if not (type(ap) is type(damage) is type(defense) is type(reach) is int):
            ap, damage, defense, reach = text(ap), text(damage), text(defense), text(reach)
        lines.append(
            f"<tr><td>{ap}</td><td>{damage}</td><td>{defense}</td><td>{text(move)}</td>"
            f"<td>{reach}</td></tr>\n"
        )
    return Markup("".join(lines))


def weapon_description(weapon: WeaponProfile, ruleset: Ruleset, shared: Shared) -> dict:
    """The weapon kind's `description_context` hook: `weapon-item.html.j2` sees the weapon
    as `weapon` and its tables as `tables`."""
    return {"weapon": weapon, "tables": weapon_tables(weapon, ruleset.info.currency or "", shared)}


def weapon_section_journal(section: Section, ruleset: Ruleset, links, shared: Shared) -> str:
    """The weapon section kind's `journal` hook: its skill's link, then its weapons' tables."""
    weapons = section.documents[1:]
    skill = ruleset.get(section.document.skill)
    link = links.html(section.document.skill, skill.name)
    return weapon_section_page(weapons, link, ruleset.info.currency or "", shared)


def weapon_section_page(
    weapons: tuple[WeaponProfile, ...], skill_link: Markup, currency: str, shared: Shared
) -> str:
    """The journal page of a weapon section: its skill, then each weapon's tables."""
    page = shared.html.get_template("weapon-section.html.j2").render(
        skill_link=skill_link,
        weapons=[(weapon, weapon_tables(weapon, currency, shared)) for weapon in weapons],
    )
    return page.strip()
