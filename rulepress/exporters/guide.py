"""How a ruleset reads as a book: chapters of sections, each section a template.

The Markdown guide, the Foundry journal (a JournalEntry per chapter, a page per section)
and the site all walk the same chapters, so a rule reads the same everywhere. Each
section names the Markdown template that renders it and the documents it shows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulepress.compendium.model import Ruleset
from rulepress.models import (
    CorruptionRules,
    CorruptionTriggers,
    CpEarning,
    CpSpending,
    CriticalFailure,
    CufRating,
    Document,
    FearRoll,
    GroupRoll,
    ModifierRule,
    ObedienceConsequences,
    OddsTable,
    OpposedRoll,
    PushRule,
    RuleText,
    ShockRoll,
    Skill,
    SkillTest,
    StepDice,
    TcLadder,
    TcSource,
    ThreatThreshold,
    TimeUnits,
    Trait,
    WeaponProfile,
    WeaponSection,
)
from rulepress.output_names import GENERATED_NAMES, slug

# Chapters appear in this order; a rule text's own chapter name slots in where it matches.
CHAPTER_ORDER = (
    "Introduction",
    "Skill Test",
    "Skills",
    "Combat",
    "Weapons",
    "Dice",
    "Time",
    "Coolness Under Fire",
    "Threat Conditions",
    "Cool",
    "Corruption",
    "Character Points",
    "Character Improvement",
    "Survival",
    "Afterword",
)
# Sections sort by position within a chapter. Rule texts use their `order`; the other
# sections stand at 100 and above, so a rule text can sit before, between or after them.
TYPED_START, TYPED_STEP = 100, 10
# Documents of these kinds each make a section of the chapter named, with the template named.
SINGLE_SECTIONS: dict[type, tuple[str, str]] = {
    SkillTest: ("Skill Test", "skill-test"),
    StepDice: ("Dice", "step-dice"),
    PushRule: ("Dice", "push-rule"),
    ModifierRule: ("Dice", "modifier-rule"),
    GroupRoll: ("Dice", "group-roll"),
    OpposedRoll: ("Dice", "opposed-roll"),
    OddsTable: ("Dice", "odds-table"),
    TimeUnits: ("Time", "time-units"),
    CufRating: ("Coolness Under Fire", "cuf-rating"),
    ThreatThreshold: ("Coolness Under Fire", "threat-threshold"),
    ShockRoll: ("Cool", "shock-roll"),
    FearRoll: ("Cool", "fear-roll"),
    CriticalFailure: ("Cool", "critical-failure"),
    CorruptionRules: ("Corruption", "corruption-rules"),
    CorruptionTriggers: ("Corruption", "corruption-triggers"),
    ObedienceConsequences: ("Corruption", "obedience-consequences"),
    CpSpending: ("Character Points", "cp-spending"),
    CpEarning: ("Character Points", "cp-earning"),
}
SKILL_CATEGORIES = {
    "academic": "Academic Skills",
    "weapon": "Weapon Skills",
    "specialist": "Specialist Skills",
    "talent": "Talent Skills",
}


@dataclass(frozen=True)
class Section:
    """A titled part of a chapter: a Foundry journal page, a guide heading, a site section."""

    id: str
    """Unique within the ruleset; the anchor and the source of the page's Foundry id."""
    title: str
    template: str
    documents: tuple[Document, ...]

    @property
    def document(self) -> Document:
        return self.documents[0]


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str
    sections: tuple[Section, ...]


def chapters(ruleset: Ruleset) -> list[Chapter]:
    """The ruleset's chapters in reading order, drafts left out."""
    by_chapter: dict[str, list[tuple[tuple, Section]]] = {}

    def add(chapter: str, order: tuple, section: Section) -> None:
        by_chapter.setdefault(chapter, []).append((order, section))

    for rule in ruleset.all(RuleText):
        add(rule.chapter, (rule.order, 0), Section(rule.id, rule.title, "rule", (rule,)))
    for index, (kind, (chapter, template)) in enumerate(SINGLE_SECTIONS.items()):
        for position, doc in enumerate(ruleset.all(kind)):
            order = (TYPED_START + index * TYPED_STEP + getattr(doc, "order", position), 1)
            add(chapter, order, Section(doc.id, doc.display_name, template, (doc,)))
    _skills(ruleset, add)
    _weapons(ruleset, add)
    _threats(ruleset, add)
    known = [c for c in CHAPTER_ORDER if c in by_chapter]
    others = sorted(c for c in by_chapter if c not in CHAPTER_ORDER)
    return _unique_ids(
        [
            Chapter(
                slug(title),
                title,
                tuple(
                    section for _, section in sorted(by_chapter[title], key=lambda item: item[0])
                ),
            )
            for title in known + others
        ]
    )


def _unique_ids(parts: list[Chapter]) -> list[Chapter]:
    """Chapter and section ids become anchors, pages and Foundry ids: make each unique
    ("A B" and "A-B" both slug to `a-b`; a rule may share its id with a section), and
    never one of the GENERATED_NAMES."""
    used: set[str] = set(GENERATED_NAMES)

    def claim(wanted: str) -> str:
        candidate, number = wanted, 2
        while candidate in used:
            candidate, number = f"{wanted}-{number}", number + 1
        used.add(candidate)
        return candidate

    unique = []
    for chapter in parts:
        chapter_id = claim(chapter.id)
        sections = tuple(
            replace(s, id=s.id if s.id == chapter_id else claim(s.id)) for s in chapter.sections
        )
        unique.append(Chapter(chapter_id, chapter.title, sections))
    return unique


def _skills(ruleset: Ruleset, add) -> None:
    traits = ruleset.all(Trait)
    if traits:
        add("Skills", (TYPED_START, 0), Section("traits", "Traits", "traits", tuple(traits)))
    for position, (category, title) in enumerate(SKILL_CATEGORIES.items(), 1):
        skills = [s for s in ruleset.all(Skill) if s.category == category]
        if skills:
            add(
                "Skills",
                (TYPED_START + position, 0),
                Section(slug(title), title, "skills", tuple(skills)),
            )


def weapons_by_section(ruleset: Ruleset) -> list[tuple[WeaponSection, list[WeaponProfile]]]:
    """Published sections with their published weapons, in order (one pass over the
    weapons: a large ruleset has many sections)."""
    by_section: dict[str, list[WeaponProfile]] = {}
    for weapon in ruleset.all(WeaponProfile):
        by_section.setdefault(weapon.section, []).append(weapon)
    return [
        (section, by_section[section.id])
        for section in ruleset.all(WeaponSection)
        if section.id in by_section
    ]


def _weapons(ruleset: Ruleset, add) -> None:
    for section, weapons in weapons_by_section(ruleset):
        if weapons:
            add(
                "Weapons",
                (TYPED_START + section.order, 0),
                Section(section.id, section.name, "weapon-section", (section, *weapons)),
            )


def _threats(ruleset: Ruleset, add) -> None:
    sources = ruleset.all(TcSource)
    for position, (effect, title) in enumerate(
        (("adds", "Sources That Add TCs"), ("reduces", "Sources That Reduce TCs"))
    ):
        chosen = tuple(s for s in sources if s.effect == effect)
        if chosen:
            add(
                "Threat Conditions",
                (TYPED_START + 20 * position, 0),
                Section(slug(title), title, "tc-sources", chosen),
            )
    ladders = ruleset.all(TcLadder)
    if ladders:
        add(
            "Threat Conditions",
            (TYPED_START + 40, 0),
            Section(
                "includes-above-ladders", '"Includes Above" Ladders', "tc-ladders", tuple(ladders)
            ),
        )


def section_of(chapters_: list[Chapter]) -> dict[str, tuple[Chapter, Section]]:
    """Where each document id is shown: the first section that holds it."""
    where: dict[str, tuple[Chapter, Section]] = {}
    for chapter in chapters_:
        for section in chapter.sections:
            for doc in section.documents:
                where.setdefault(doc.id, (chapter, section))
    return where
