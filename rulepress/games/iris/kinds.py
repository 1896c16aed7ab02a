"""IRIS's document kinds: one entry each, in the order of their sections and packs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rulepress.games.iris.models.character_points import CpEarning, CpSpending
from rulepress.games.iris.models.corruption import (
    CorruptionRules,
    CorruptionTriggers,
    ObedienceConsequences,
)
from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.games.iris.models.trait import Trait
from rulepress.games.iris.models.weapon import WeaponProfile, WeaponSection, weapons_by_section
from rulepress.plugin import (
    DiffWording,
    FoundryItems,
    FoundryTable,
    Guide,
    Kind,
    Macro,
    Part,
    TableRow,
    slug,
)

TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The game's templates: `markdown/sections/...`, `foundry/...`, `foundry/macros/...`."""

# Hooks in higher layers, named here and imported only where used.
COMMANDS = "rulepress.games.iris.commands"
CHARTS, HELPERS = "rulepress.games.iris.charts", "rulepress.games.iris.helpers"
RULES, WEAPON_PAGES = "rulepress.games.iris.rules", "rulepress.games.iris.foundry"


def _all_in_one(id_: str, title: str):
    def parts(documents: Sequence, ruleset) -> list[Part]:
        return [Part(id_, title, tuple(documents))] if documents else []

    return parts


SKILL_CATEGORIES = {
    "academic": "Academic Skills",
    "weapon": "Weapon Skills",
    "specialist": "Specialist Skills",
    "talent": "Talent Skills",
}


def _skills_by_category(skills: Sequence[Skill], ruleset) -> list[Part]:
    parts = []
    for position, (category, title) in enumerate(SKILL_CATEGORIES.items(), 1):
        chosen = tuple(skill for skill in skills if skill.category == category)
        if chosen:
            parts.append(Part(slug(title), title, chosen, position))
    return parts


def _weapon_sections(sections: Sequence[WeaponSection], ruleset) -> list[Part]:
    """A section per weapon section that has published weapons: the section, then them."""
    return [
        Part(section.id, section.name, (section, *weapons), section.order)
        for section, weapons in weapons_by_section(ruleset)
    ]


def _weapon_attributes(weapon: WeaponProfile, ruleset) -> list[tuple[str, str, object]]:
    skill_id = ruleset.get(weapon.section).skill
    skill = ruleset.get(skill_id)
    currency = ruleset.info.currency or ""
    return [
        ("tier", "Tier", weapon.tier),
        weapon.capacity,
        ("reload", "Reload", weapon.reload),
        ("cost", f"Cost ({currency})" if currency else "Cost", weapon.cost),
        ("rarity", "Rarity", weapon.rarity),
        ("skill", "Skill", skill.display_name if skill else skill_id),
    ]


def _level_rows(table, text) -> list[TableRow]:
    """One result per row, covering its levels (up to the next row's, or to its own `to`),
    named for its range ("Corruption 10-11")."""
    return [
        TableRow(span.low, span.high, f"Corruption {span}", text(row))
        for row, span in zip(table.rows, table.spans(), strict=True)
    ]


def _trigger_rows(table: CorruptionTriggers) -> list[TableRow]:
    return _level_rows(table, lambda row: row.events)


def _consequence_rows(table: ObedienceConsequences) -> list[TableRow]:
    return _level_rows(table, lambda row: " -or- ".join(row.options))


def _corruption_lookup_rules(ruleset) -> dict:
    """Each table looked up by Corruption level, with its rows: the lookup macro finds
    the RollTable by name, or else reads the row itself."""
    by_model = ((CorruptionTriggers, _trigger_rows), (ObedienceConsequences, _consequence_rows))
    tables = [(table, rows(table)) for model, rows in by_model for table in ruleset.all(model)]
    return {
        "tables": [
            {
                "name": table.display_name,
                "rows": [
                    {"low": r.low, "high": r.high, "name": r.name, "text": r.text} for r in rows
                ],
            }
            for table, rows in tables
        ]
    }


# Foundry core icons (each in the list of core icons foundryvtt/pf2e checks its packs
# against, build/core-icons.json), by the weapon section a weapon is in.
WEAPON_ICONS = {
    "pistols": "icons/weapons/guns/gun-pistol-brown.webp",
    "shotguns": "icons/weapons/guns/gun-double-barrel.webp",
    "sniper-rifles": "icons/weapons/guns/rifle-fluted.webp",
    "rapid-fire-weapons": "icons/weapons/guns/rifle-brown.webp",
    "smgs": "icons/weapons/guns/gun-topbarrel.webp",
    "melee": "icons/weapons/daggers/knife-engraved-black.webp",
    "unarmed": "icons/weapons/fist/fist-knuckles-brass.webp",
}
"""A section the list does not name (a publisher's own) keeps Foundry's sword."""


def _weapon_placing(weapon: WeaponProfile) -> tuple:
    """What other pieces read of a weapon: where it is shown and under which name. Its
    section's page and its Item are keyed by the weapon itself; the skill test macro,
    which shows every weapon's table, is never kept. A skill or trait is read by other
    documents' pieces (a weapon's Item shows its skill): no `steady` hook."""
    return (
        weapon.id,
        weapon.name,
        weapon.display_name,
        weapon.section,
        weapon.order,
        weapon.is_draft,
    )


def _weapon_icon(weapon: WeaponProfile, ruleset) -> str:
    return WEAPON_ICONS.get(weapon.section, "icons/svg/sword.svg")


def weapon_summary(weapon: WeaponProfile) -> str:
    """A new weapon's line in `diff`: its name, tier and whether it is a draft."""
    draft = ", draft" if weapon.is_draft else ""
    return f"{weapon.display_name} (tier {weapon.tier}{draft})"


def _headers(table) -> str:
    return f"{table.headers[0]} / {table.headers[1]}"


def _skill_test_rules(ruleset) -> dict:
    rule = ruleset.one(SkillTest)
    return {
        "die": rule.die,
        "dicePerRank": rule.dice_per_rank,
        "apByFace": {str(face): ap for face, ap in sorted(rule.ap_by_face.items())},
        "weapons": [
            {
                "id": weapon.id,
                "name": weapon.display_name,
                "moveColumn": weapon.move_column,
                "rows": [list(row) for row in weapon.table],
            }
            for weapon in ruleset.all(WeaponProfile)
            if not weapon.is_draft and weapon.table
        ],
    }


AP_ROWS = ("ap", "id")
LEVEL_ROWS = ("level", "id")
"""Weapon tables' rows are matched by their AP, level tables' by their level, in `diff`."""

KINDS = (
    Kind(
        Trait,
        guide=Guide(
            "Skills",
            "traits",
            parts=_all_in_one("traits", "Traits"),
            helpers=f"{HELPERS}:skills_of_traits",
        ),
        templates=TEMPLATES,
    ),
    Kind(
        Skill,
        guide=Guide("Skills", "skills", parts=_skills_by_category),
        new=f"{COMMANDS}:new_skill_command",
        templates=TEMPLATES,
    ),
    Kind(
        SkillTest,
        guide=Guide("Skill Test", "skill-test", 100),
        macro=Macro("iris-skill-test", "Skill Test", _skill_test_rules),
        chart=f"{CHARTS}:skill_test_charts",
        calculator="rulepress.games.iris.calculator:skill_test_calculator",
        roll=f"{COMMANDS}:roll_iris",
        odds=f"{COMMANDS}:odds_iris",
        example=f"{RULES}:skill_test_example",
        example_reads=("trait",),
        figures=f"{RULES}:skill_test_figures",
        templates=TEMPLATES,
    ),
    Kind(
        WeaponSection,
        guide=Guide(
            "Weapons",
            "weapon-section",
            parts=_weapon_sections,
            page_per_section=True,
            anchor_per_document=True,
            helpers=f"{HELPERS}:weapon_blocks",
            journal=f"{WEAPON_PAGES}:weapon_section_journal",
        ),
        changes=DiffWording("weapon section"),
        templates=TEMPLATES,
    ),
    Kind(
        WeaponProfile,
        new=f"{COMMANDS}:new_weapon_command",
        foundry=FoundryItems(
            "weapons",
            "Weapons",
            _weapon_attributes,
            icon=_weapon_icon,
            folder=lambda weapon, ruleset: ruleset.get(weapon.section),
            description="weapon-item",
            weight="weight",
            macro="iris-skill-test",
            description_context=f"{WEAPON_PAGES}:weapon_description",
        ),
        steady=_weapon_placing,
        group=lambda weapon: weapon.section,  # the tier checks compare a section's weapons
        changes=DiffWording(
            summary=weapon_summary,
            name_alone=True,
            row_keys=AP_ROWS,
            field_words=(("ap", "AP"), ("table", "")),
        ),
        templates=TEMPLATES,
    ),
    Kind(
        CorruptionRules,
        guide=Guide("Corruption", "corruption-rules", 230),
        templates=TEMPLATES,
    ),
    Kind(
        CorruptionTriggers,
        guide=Guide("Corruption", "corruption-triggers", 240),
        foundry=FoundryTable(
            "tables",
            "Tables",
            _trigger_rows,
            _headers,
            lookup="level",
            icon="icons/svg/terror.svg",
        ),
        macro=Macro("corruption-lookup", "Corruption lookup", _corruption_lookup_rules),
        changes=DiffWording(row_keys=LEVEL_ROWS),
        templates=TEMPLATES,
    ),
    Kind(
        ObedienceConsequences,
        guide=Guide("Corruption", "obedience-consequences", 250),
        foundry=FoundryTable(
            "tables",
            "Tables",
            _consequence_rows,
            _headers,
            lookup="level",
            icon="icons/svg/skull.svg",
        ),
        changes=DiffWording(row_keys=LEVEL_ROWS),
        templates=TEMPLATES,
    ),
    Kind(
        CpSpending,
        guide=Guide("Character Points", "cp-spending", 260),
        changes=DiffWording("CP table", row_keys=("id", "benefit")),
        templates=TEMPLATES,
    ),
    Kind(
        CpEarning,
        guide=Guide("Character Points", "cp-earning", 270),
        changes=DiffWording("CP table", row_keys=("id", "source")),
        templates=TEMPLATES,
    ),
)
"""IRIS's kinds, in the order their sections and packs appear."""
