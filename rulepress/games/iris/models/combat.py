"""IRIS skills in combat (seed 003, "Combat Rules"): each use a skill's combat note
describes, with the conditions it states, and the answer to "may I use it now?"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from rulepress.plugin import Model, Name, NonNegative, Slug, Text

Phase = Literal["before-combat", "combat-start", "in-combat"]
"""When in a fight a use is asked after: before combat begins, at the beginning of the
combat (acting order and Initiative), or during it."""


class CombatUse(Model):
    """One use of a skill in or around combat, as its combat note states it: when it may
    be made, and what it needs first."""

    id: Slug
    text: Text
    """The note's sentence(s) this use is read from, as printed."""
    phases: Annotated[list[Phase], Field(min_length=1)]
    """When the use may be made."""
    out_of_sight_rounds: NonNegative = 0
    """Full rounds the Character must first have stayed out of the enemy's sight."""
    resists: list[Name] = []
    """The Conditions the use resists, as the note names them."""


@dataclass(frozen=True)
class CombatSituation:
    """Where a Character stands in a fight: its phase, and how many full rounds they
    have stayed out of the enemy's sight."""

    phase: Phase
    rounds_out_of_sight: int = 0


@dataclass(frozen=True)
class CombatUsability:
    """Whether a skill's use may be made in a situation, and each reason it may not."""

    skill: str
    use: str
    allowed: bool
    reasons: tuple[str, ...] = ()
