"""IRIS skills (seed 003, "Skills List" and "Combat Rules")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from rulepress.games.iris.models.combat import CombatSituation, CombatUsability, CombatUse
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
    combat_uses: list[CombatUse] = []
    """The uses the combat note describes, each with the conditions it states."""

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

    def combat_use(self, use: str, situation: CombatSituation) -> CombatUsability:
        """Whether this skill's `use` (an id of its `combat_uses`) may be made in the
        situation: in one of the use's phases, after the full rounds out of the enemy's
        sight it needs (at least that many: ruling `stealth-after-a-full-round` on the
        skill); a use the note gives no time for is one made in combat (ruling
        `combat-uses-default-in-combat` on the skill); Expertise's detection is not
        forbidden in combat, its strategy is (ruling `expertise-in-combat` on the skill).
        The answer is whether, never a bonus (ruling `expertise-bonuses-unstated` on the
        skill)."""
        found = next((u for u in self.combat_uses if u.id == use), None)
        if found is None:
            known = ", ".join(u.id for u in self.combat_uses) or "none"
            raise KeyError(f"{self.name} has no combat use {use!r} (its uses: {known})")
        if situation.rounds_out_of_sight < 0:
            raise ValueError("rounds out of sight cannot be negative")
        reasons = []
        if situation.phase not in found.phases:
            reasons.append(f"{self.name} ({use}) is used {' or '.join(found.phases)}")
        if situation.rounds_out_of_sight < found.out_of_sight_rounds:
            reasons.append(
                f"{self.name} ({use}) needs {found.out_of_sight_rounds} full round(s) "
                f"out of the enemy's sight first, not {situation.rounds_out_of_sight}"
            )
        return CombatUsability(self.id, use, not reasons, tuple(reasons))

    def resists(self, condition: str) -> bool:
        """Whether one of this skill's combat uses resists the Condition named (any case):
        only the Conditions its note names (ruling `endurance-resists-named-conditions` on
        the skill)."""
        wanted = condition.casefold()
        return any(wanted == c.casefold() for u in self.combat_uses for c in u.resists)
