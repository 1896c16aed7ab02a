"""The IRIS skill test (seed 003, "Skill Test Reference")."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import Field

from rulepress.plugin import DIE_SIDES, Die, Document, Example, Name, Text, dice

Face = Annotated[int, Field(ge=1, le=20)]
Ap = Annotated[int, Field(ge=0, le=10)]
MAX_RANK = 60
"""The highest skill rank the rules are worked for (`roll iris` and `odds iris` refuse a
higher one): with the largest dice the data allows (ten d20s a rank, up to 10 AP a face)
a rank-60 distribution has 6,001 outcomes and takes a second or two."""


@dataclass(frozen=True)
class SkillTestResult:
    """The AP of one skill test: what the dice earned, plus the trait bonus, and the faces
    they were earned from (when the test was resolved from faces)."""

    dice_ap: int
    trait_bonus: int
    faces: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        """The test's AP: the dice's plus the trait bonus."""
        return self.dice_ap + self.trait_bonus


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

    def face_ap(self, face: int) -> int:
        """AP one die earns (seed 003: a 4 or 5 gives 1, a 6 gives 2, 1-3 nothing)."""
        if not 1 <= face <= DIE_SIDES[self.die]:
            raise ValueError(f"a {self.die} cannot show {face}")
        return self.ap_by_face.get(face, 0)

    def dice_for(self, rank: int) -> int:
        """How many dice a skill rank rolls: none at rank 0, a skill not unlocked, whose
        test still scores its trait bonus (ruling `rank-zero-skill-test`)."""
        if rank < 0:
            raise ValueError("a rank cannot be negative")
        if rank > MAX_RANK:
            raise ValueError(f"rank {rank} is above the highest rank, {MAX_RANK}")
        return rank * self.dice_per_rank

    def resolve(self, faces: Sequence[int], trait_ranks: Sequence[int] = ()) -> SkillTestResult:
        """The AP of the faces rolled, plus the higher of the skill's two trait ranks: equal
        ranks give that rank, none given adds 0 (ruling `trait-bonus-without-ranks`)."""
        faces = tuple(faces)
        return SkillTestResult(
            sum(self.face_ap(face) for face in faces), max(trait_ranks, default=0), faces
        )

    def roll(self, rank: int, trait_ranks: Sequence[int], rng: random.Random) -> SkillTestResult:
        """Roll the dice for `rank` with `rng` (seeded, it replays) and resolve them."""
        faces = [dice.roll(DIE_SIDES[self.die], rng) for _ in range(self.dice_for(rank))]
        return self.resolve(faces, trait_ranks)

    def distribution(self, rank: int, *, trait_bonus: int = 0) -> dict[int, Fraction]:
        """Exact distribution of the total AP for a rank and a fixed trait bonus."""
        sums = dice.repeated(self._die_ap(), self.dice_for(rank))
        return {ap + trait_bonus: chance for ap, chance in sums.items()}

    def chances(self, rank: int, targets: Sequence[int], *, trait_bonus: int = 0) -> list[Fraction]:
        """The chance of reaching each target AP (total AP >= target: a score equal to the
        target succeeds, ruling `target-reached-on-equal`), without working out the whole
        distribution."""
        thresholds = [target - trait_bonus for target in targets]
        return dice.repeated_at_least(self._die_ap(), self.dice_for(rank), thresholds)

    def chance(self, rank: int, target: int, *, trait_bonus: int = 0) -> Fraction:
        """The chance the test succeeds: its total AP reaches the target."""
        return self.chances(rank, [target], trait_bonus=trait_bonus)[0]

    def _die_ap(self) -> dict[int, Fraction]:
        """The distribution of one die's AP."""
        return dice.mapped(dice.die(DIE_SIDES[self.die]), lambda f: self.ap_by_face.get(f, 0))
