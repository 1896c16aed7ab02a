"""Coolness Under Fire (seed 000): deriving CUF and the three threat thresholds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import Field

from rulepress.plugin import (
    Boundary,
    Die,
    Document,
    Example,
    Model,
    Name,
    StatedFigure,
    StatesBoundaries,
    Text,
    dice,
)

Multiple = Annotated[int, Field(ge=1, le=10)]

Rating = Literal["cuf", "willpower", "leadership", "charisma"]
"""The ratings a threat threshold's check may name (the export format's first version)."""

TestRating = Literal["cuf", "willpower", "leadership", "persuasion", "charisma"]
"""The ratings a TC source's test names: CUF, the Willpower and Charisma attributes, and
the Leadership and Persuasion skills ("AVERAGE:[LEADERSHIP+ CHA] or a
DIFFICULT:[PERSUASION+CHA]")."""

SKILLS = frozenset({"leadership", "persuasion"})
"""The ratings that are skills: a check naming one is a Skill roll (ruling
`skill-rolls-name-a-skill` on the threat threshold)."""


class CalmState(Model):
    """The state below every threshold: TCs at or under CUF, no check and no penalty."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
    name: Name
    text: Text


class CufRating(Document):
    """CUF = the average of (1d10 + Initiative modifiers) and Willpower."""

    KIND = "cuf-rating"
    kind: Literal["cuf-rating"]
    name: Name
    text: Text
    die: Die
    add: Text
    """What is added to the die ("all of the modifiers for Initiative in V2/V2.2")."""
    average_with: Literal["willpower"]
    rounding: Literal["down", "up", "half-up"]
    """How a half is rounded when averaging (the source does not say: see rulings)."""
    calm: CalmState = CalmState(
        id="calm", name="Calm", text="TCs at or under CUF: no threat check and no penalty."
    )
    """The state below every threshold, which the source does not name (ruling
    `calm-state`)."""

    def rating(self, roll: int, initiative_modifiers: int | Sequence[int], willpower: int) -> int:
        """CUF: the die roll plus Initiative modifiers, averaged with Willpower, a half
        rounded as `rounding` says (ruling `cuf-average-rounding`). Several modifiers
        ("Special Forces, Airborne") are all added (ruling `initiative-modifiers-add`); a
        rating below 0 is 0 (ruling `cuf-not-below-zero`)."""
        if not isinstance(initiative_modifiers, int):
            initiative_modifiers = sum(initiative_modifiers)
        doubled = roll + initiative_modifiers + willpower
        if self.rounding == "down":
            return max(doubled // 2, 0)
        return max(-(-doubled // 2), 0)  # "up" and "half-up" agree: only halves are in question

    def distribution(
        self, initiative_modifiers: int | Sequence[int], willpower: int
    ) -> dict[int, Fraction]:
        """Exact distribution of CUF for a character's modifiers and Willpower."""
        return dice.mapped(
            dice.die(int(self.die.removeprefix("d"))),  # a "d10" has 10 sides
            lambda roll: self.rating(roll, initiative_modifiers, willpower),
        )


DIFFICULTY = {
    "Easy": Fraction(2),
    "Average": Fraction(1),
    "Difficult": Fraction(1, 2),
    "Formidable": Fraction(1, 4),
    "Impossible": Fraction(1, 8),
}
"""What each v2.2 difficulty multiplies a check's asset by: the source prints no task
table (ruling `d20-difficulty-multipliers` on the threat threshold)."""


@dataclass(frozen=True)
class CheckRoll:
    """A d20 task rolled: the faces, the one kept (the higher under a BANE), the target it
    had to meet, whether it passed, and the skill penalty added to the kept die."""

    faces: tuple[int, ...]
    kept: int
    target: int
    passed: bool
    penalty: int = 0

    @property
    def total(self) -> int:
        """The kept die with the penalty added: what is compared with the target."""
        return self.kept + self.penalty

    @property
    def bane(self) -> bool:
        """Whether the roll was made under a BANE (two d20s)."""
        return len(self.faces) == 2


class Check(Model):
    """A Twilight: 2000 v2.2 task: roll 1d20 at or under the asset times the difficulty."""

    difficulty: Literal["Easy", "Average", "Difficult", "Formidable", "Impossible"]
    asset: Annotated[list[Rating], Field(min_length=1)]
    """Ratings summed into the check's asset ("AVERAGE:[CUF + WILL]" is an Average task)."""

    @property
    def skill_roll(self) -> bool:
        """Whether the check is a Skill roll, which a threshold's skill penalty and BANE
        apply to: its asset names a skill (ruling `skill-rolls-name-a-skill` on the
        threat threshold)."""
        return any(name in SKILLS for name in self.asset)

    def target(self, ratings: dict[str, int]) -> int:
        """The check's target, the highest d20 roll that passes: the asset times the
        difficulty's multiplier, fractions dropped (rulings `d20-difficulty-multipliers`,
        `d20-target-rounds-down` on the threat threshold)."""
        missing = [name for name in self.asset if name not in ratings]
        if missing:
            raise ValueError(f"the check needs {', '.join(missing)}")
        return int(sum(ratings[name] for name in self.asset) * DIFFICULTY[self.difficulty])

    def passes(self, roll: int, ratings: dict[str, int]) -> bool:
        """A d20 roll at or under the target passes, a 1 or a 20 alike (ruling
        `d20-no-automatic-result` on the threat threshold)."""
        return roll <= self.target(ratings)

    def chance(
        self, ratings: dict[str, int], *, bane: bool = False, effects: CheckResult | None = None
    ) -> Fraction:
        """The chance the check passes; with a BANE roll 2d20 and keep the higher (worse)
        die. `effects` as for `resolve`."""
        penalty = 0
        if effects is not None and self.skill_roll:
            bane = bane or effects.bane
            penalty = effects.skill_penalty
        target = max(0, min(self.target(ratings) - penalty, 20))
        single = Fraction(target, 20)
        return single * single if bane else single

    def resolve(
        self,
        faces: Sequence[int],
        ratings: dict[str, int],
        *,
        bane: bool = False,
        effects: CheckResult | None = None,
    ) -> CheckRoll:
        """Resolve the d20 faces rolled: one face, or under a BANE two, of which the higher
        (worse) is kept; the kept face, plus a skill penalty, passes at or under the
        target. `effects` are those a threshold check's result brings
        (`ThreatThreshold.result(passed)`): on a Skill roll its BANE and its penalty "added
        to the dice roll" apply (ruling `skill-rolls-name-a-skill` on the threat
        threshold)."""
        faces = tuple(faces)
        penalty = 0
        if effects is not None and self.skill_roll:
            bane = bane or effects.bane
            penalty = effects.skill_penalty
        wanted = 2 if bane else 1
        if len(faces) != wanted:
            need = "two d20s (a BANE)" if bane else "one d20"
            raise ValueError(f"the check rolls {need}, not {len(faces)} faces")
        for face in faces:
            if not 1 <= face <= 20:
                raise ValueError(f"a d20 cannot show {face}")
        kept = max(faces)
        target = self.target(ratings)
        return CheckRoll(faces, kept, target, kept + penalty <= target, penalty)

    def roll(
        self,
        ratings: dict[str, int],
        rng: random.Random,
        *,
        bane: bool = False,
        effects: CheckResult | None = None,
    ) -> CheckRoll:
        """Roll the check with `rng` (seeded, it replays): one d20, or two under a BANE."""
        if effects is not None and self.skill_roll:
            bane = bane or effects.bane
        faces = [dice.roll(20, rng) for _ in range(2 if bane else 1)]
        return self.resolve(faces, ratings, bane=bane, effects=effects)


class SkillCheck(Check):
    """A v2.2 task a TC source names, with the ratings the text gives it, Persuasion
    included ("a DIFFICULT:[PERSUASION+CHA] test")."""

    asset: Annotated[list[TestRating], Field(min_length=1)]


class CheckResult(Model):
    """What a threshold check's failure or success brings."""

    text: Text
    suppression: Literal["next-round", "rounds-over-threshold"] | None = None
    """Suppressed for the next round, or one round per TC over the threshold."""
    bane: bool = False
    flee_or_surrender: bool = False
    skill_penalty: Annotated[int, Field(ge=0, le=10)] = 0
    """Added to skill rolls (v2.2 rolls under, so + is worse)."""
    initiative_penalty: Annotated[int, Field(ge=-10, le=0)] = 0


class PenaltyEnd(Model):
    """When a successful check's penalties stop: TCs compared with a multiple of CUF."""

    tcs: Literal["at-most", "below"]
    multiple: Multiple
    text: Text


class ThreatThreshold(Document, StatesBoundaries):
    """Fear, Fright or Fight-or-Flight: what happens when TCs exceed `exceeds` times CUF."""

    KIND = "threat-threshold"
    kind: Literal["threat-threshold"]
    name: Name
    order: int
    exceeds: Multiple
    """The state starts when TCs exceed this multiple of CUF."""
    text: Text
    check: Check
    on_failure: CheckResult
    on_success: CheckResult
    penalties_end: PenaltyEnd
    examples: list[Example] = []

    def threshold(self, cuf: int) -> int:
        """The TC total this state starts above."""
        return self.exceeds * cuf

    def reached(self, tcs: int, cuf: int) -> bool:
        """TCs exceed `exceeds` times CUF."""
        return tcs > self.threshold(cuf)

    def result(self, passed: bool) -> CheckResult:
        """What the check's result brings, passed or failed."""
        return self.on_success if passed else self.on_failure

    def suppression_rounds(self, tcs: int, cuf: int, passed: bool) -> int:
        """Rounds of suppression the check's result brings: the next round, or one round
        per TC over the threshold ("suppression" or "freeze" being one effect: ruling
        `suppression-or-freeze`)."""
        suppression = self.result(passed).suppression
        if suppression == "next-round":
            return 1
        if suppression == "rounds-over-threshold":
            return max(tcs - self.threshold(cuf), 0)
        return 0

    def penalties_last(self, tcs: int, cuf: int) -> bool:
        """Whether a passed check's penalties still apply at this TC total: at most or
        below the multiple, as each state prints (ruling `penalties-end-below`)."""
        end = self.penalties_end.multiple * cuf
        return tcs > end if self.penalties_end.tcs == "at-most" else tcs >= end

    def stated_boundaries(self):
        """The TC totals this state starts above (`exceeds`) and its penalties end at
        (`penalties_end`), besides any listed in `boundaries`."""
        yield from super().stated_boundaries()
        yield (
            Boundary(
                quantity="tcs",
                comparison=">",
                value=f"{self.exceeds}x-cuf",
                text=f"{self.name} starts when TCs exceed {self.exceeds} x CUF",
            ),
            ("exceeds",),
        )
        end = self.penalties_end
        yield (
            Boundary(
                quantity="tcs",
                comparison="<=" if end.tcs == "at-most" else "<",
                value=f"{end.multiple}x-cuf",
                text=end.text,
            ),
            ("penalties_end", "tcs"),
        )

    def stated_figures(self):
        """The comparison that ends this state's penalties, which every state should state
        alike: for the conflicting-figures check."""
        yield StatedFigure(
            "comparison that ends threshold penalties",
            self.penalties_end.tcs,
            ("penalties_end", "tcs"),
        )
