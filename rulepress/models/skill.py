"""IRIS skills (seed 003, "Skills List" and "Combat Rules")."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rulepress.models.base import Document, Name, Text, ref

SkillCategory = Literal["academic", "weapon", "specialist", "talent"]


class Skill(Document):
    """A skill, its category and the two traits whose higher rank a test adds."""

    KIND = "skill"
    kind: Literal["skill"]
    name: Name
    category: SkillCategory
    order: int
    traits: Annotated[list[ref("trait")], Field(min_length=2, max_length=2)]
    """The two traits, in the order printed ("Acuity or Resolve")."""
    combat_note: Text | None = None
    """What the skill does in combat, where the source says."""
