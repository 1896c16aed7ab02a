"""T2K4e character improvement (seed 001, "Character Improvement"): what earns experience,
when it is spent, what it buys, and the conditions for raising a skill or a specialty."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from rulepress.plugin import Document, Model, Name, Slug, Text

Level = Literal["A", "B", "C", "D"]
LEVEL_ORDER: tuple[str, ...] = ("D", "C", "B", "A")
"""Skill levels from lowest to highest: "d6, d8, d10, and d12, also known as Levels D, C,
B, or A, respectively"."""

Trait = Literal["attribute", "skill", "specialty"]
Purchase = Literal["raise-skill", "new-skill", "new-specialty"]


class XpSource(Model):
    """One thing the text says earns experience points."""

    id: Slug
    text: Text


class Teaching(Model):
    """Instruction that stands in for successful use: how long, and by whom."""

    duration: Annotated[int, Field(ge=1, le=100)]
    unit: Literal["round", "stretch", "shift"]
    teacher: Literal["higher-skill-level"]
    """Who may teach: "someone with a higher skill level than you"."""


class CharacterImprovement(Document):
    """Experience: earned for what the text lists, spent at rest or sleep on skills and
    specialties, never on attributes."""

    KIND = "character-improvement"
    kind: Literal["character-improvement"]
    name: Name
    text: Text
    earned_for: Annotated[list[XpSource], Field(min_length=1)]
    xp_per_source: Annotated[int, Field(ge=1, le=10)]
    """XP each listed source gives in a session (ruling `xp-one-per-source`)."""
    spend_when: Annotated[list[Literal["rest", "sleep"]], Field(min_length=1)]
    buys: Annotated[list[Purchase], Field(min_length=1)]
    fixed: list[Trait]
    """What XP can never raise: "Your attributes cannot be improved after character
    generation"."""
    new_skill_level: Level
    needs_successful_use: bool
    """Whether a raise or a new skill needs the skill used successfully since the last
    increase (or teaching instead)."""
    teaching: Teaching
    specialty_needs_teacher: bool

    def xp_earned(self, sources: Iterable[str]) -> int:
        """The XP a session earns: `xp_per_source` for each listed source that happened
        (each counted once a session, ruling `xp-one-per-source`)."""
        known = {source.id for source in self.earned_for}
        happened = set(sources)
        if unknown := sorted(happened - known):
            raise ValueError(f"not a source of experience: {', '.join(unknown)}")
        return len(happened) * self.xp_per_source

    def can_spend(self, activity: str) -> bool:
        """Whether XP may be spent now: "Whenever you rest or sleep, you can spend XP"."""
        return activity in self.spend_when

    def with_teacher(self, student: str | None, teacher: str | None) -> bool:
        """Whether instruction by this teacher counts for this student's skill: the
        teacher's level must be strictly higher (ruling `teacher-strictly-higher`); any
        level is higher than none, for a new skill (ruling `teacher-for-a-new-skill`)."""
        if teacher is None:
            return False
        return student is None or _rank(teacher) > _rank(student)

    def can_raise(
        self,
        trait: Trait,
        level: str | None = None,
        *,
        used_successfully: bool = False,
        teacher: str | None = None,
        teacher_has_specialty: bool = False,
    ) -> Improvement:
        """Whether XP may raise this trait now, and to what. `level` is the skill's level
        (none for a skill the character does not have); `used_successfully` means at least
        once since its last increase (for a new skill, an attribute-alone roll for it, ruling
        `new-skill-use-untrained`); `teacher` is the level of someone who instructed the
        character for the teaching time (1 shift). An attribute never rises; a skill rises
        one level (ruling `one-level-per-raise`), a new one starts at Level D, never above
        Level A (ruling `no-raise-above-a`); a specialty needs a teacher who has it (ruling
        `specialty-teacher`). XP prices are not stated (ruling `xp-prices-not-stated`)."""
        if trait in self.fixed:
            return Improvement(trait, False, None, None, "fixed")
        if trait == "specialty":
            if "new-specialty" not in self.buys:
                return Improvement(trait, False, None, None, "not-bought")
            if self.specialty_needs_teacher and not teacher_has_specialty:
                return Improvement(trait, False, None, None, "needs-teacher")
            return Improvement(trait, True, None, "teacher", "allowed")
        if level is not None and level not in LEVEL_ORDER:
            raise ValueError(f"a skill level is A, B, C or D, not {level!r}")
        purchase = "new-skill" if level is None else "raise-skill"
        if purchase not in self.buys:
            return Improvement(trait, False, None, None, "not-bought")
        if level == LEVEL_ORDER[-1]:
            return Improvement(trait, False, None, None, "highest-level")
        new = self.new_skill_level if level is None else LEVEL_ORDER[_rank(level) + 1]
        if not self.needs_successful_use:
            return Improvement(trait, True, new, None, "allowed")
        if used_successfully:
            return Improvement(trait, True, new, "use", "allowed")
        if self.with_teacher(level, teacher):
            return Improvement(trait, True, new, "teacher", "allowed")
        return Improvement(trait, False, None, None, "needs-use-or-teacher")


def _rank(level: str) -> int:
    return LEVEL_ORDER.index(level)


@dataclass(frozen=True)
class Improvement:
    """Whether XP may improve a trait: the trait, whether it is allowed, the skill level it
    reaches (none for a specialty or a refusal), what qualified it (`use` or `teacher`),
    and the outcome, the reason in one word."""

    trait: str
    allowed: bool
    level: str | None
    via: Literal["use", "teacher"] | None
    outcome: Literal[
        "allowed", "fixed", "not-bought", "highest-level", "needs-use-or-teacher", "needs-teacher"
    ]
