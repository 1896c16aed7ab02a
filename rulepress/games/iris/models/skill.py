"""IRIS skills (seed 003, "Skills List" and "Combat Rules")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from rulepress.plugin import Document, Name, Text, ref

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

    @field_validator("traits")
    @classmethod
    def _two_different(cls, traits: list[str]) -> list[str]:
        """ "Acuity or Acuity" is no choice: the source's skills each name two traits."""
        if traits[0] == traits[1]:
            raise PydanticCustomError(
                "same_trait_twice",
                "trait '{trait}' is given twice; a skill has two different traits",
                {"trait": traits[0]},
            )
        return traits

    def trait_ranks(self, ranks: Mapping[str, int]) -> list[int]:
        """The ranks of this skill's two traits, picked from a character's trait ranks
        (keyed by trait id, in any case: `{"Acuity": 5, "resolve": 3}`), for
        a skill test to add the higher of: the skill names its traits, not the caller. A
        trait of the skill missing from `ranks` is a KeyError naming it."""
        by_key = {key.casefold(): rank for key, rank in ranks.items()}
        missing = [trait for trait in self.traits if trait.casefold() not in by_key]
        if missing:
            raise KeyError(
                f"{self.name} adds the higher of {' or '.join(self.traits)}: "
                f"no rank given for {', '.join(missing)}"
            )
        return [by_key[trait.casefold()] for trait in self.traits]
