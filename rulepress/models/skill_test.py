"""The IRIS skill test (seed 003, "Skill Test Reference")."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rulepress.models.base import Document, Name, Text
from rulepress.models.common import Die, Example

Face = Annotated[int, Field(ge=1, le=20)]
Ap = Annotated[int, Field(ge=0, le=10)]


class SkillTest(Document):
    """Roll one die per skill rank; faces earn AP; add the higher of the skill's two traits."""

    KIND = "skill-test"
    kind: Literal["skill-test"]
    name: Name
    die: Die
    dice_per_rank: Annotated[int, Field(ge=1, le=10)]
    ap_by_face: dict[Face, Ap]
    """AP each face earns; a face not listed earns nothing."""
    trait_bonus: Literal["higher-of-skill-traits"]
    """Which trait rank is added to the dice's AP."""
    text: Text
    examples: list[Example] = []
