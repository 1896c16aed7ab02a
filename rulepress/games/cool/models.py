"""The percentile Cool stat (seed 002): shock rolls and fear rolls."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from rulepress.plugin import (
    Boundary,
    Document,
    Example,
    Model,
    Name,
    Slug,
    StatesBoundaries,
    Text,
    dice,
)

PERCENTILE = 100


MAX_DURATION_DICE, MAX_DURATION_SIDES, MAX_DURATION_BONUS = 10, 100, 100
"""What a rolled duration can be: bounded so that its exact distribution is quick."""


class Duration(Model):
    """A rolled duration such as 1d6+1 rounds."""

    # [0-9], not \d, which would take the digits of every script
    dice: Annotated[str, Field(pattern=r"^[0-9]+d[0-9]+([+-][0-9]+)?$")]
    unit: Literal["rounds", "turns"]

    @field_validator("dice")
    @classmethod
    def _within_bounds(cls, text: str) -> str:
        # 12 characters hold the largest ("10d100+100"); more would be read as numbers first
        if len(text) > 12 or not _bounded(*_dice_parts(text)):
            raise PydanticCustomError(
                "less_than_equal",
                "a duration rolls 1 to {dice} dice of 1 to {sides} sides, "
                "plus or minus at most {bonus}",
                {
                    "dice": MAX_DURATION_DICE,
                    "sides": MAX_DURATION_SIDES,
                    "bonus": MAX_DURATION_BONUS,
                },
            )
        return text

    def _parts(self) -> tuple[int, int, int]:
        return _dice_parts(self.dice)

    def distribution(self) -> dict[int, Fraction]:
        """The exact chance of each duration the dice give."""
        count, sides, bonus = self._parts()
        return {v + bonus: p for v, p in dice.repeated(dice.die(sides), count).items()}

    def roll(self, rng: random.Random) -> int:
        """A duration rolled with `rng` (seeded, it replays)."""
        count, sides, bonus = self._parts()
        return sum(dice.roll(sides, rng) for _ in range(count)) + bonus


_HP_FRACTIONS = {0.25: "quarter-hp", 0.5: "half-hp", 0.75: "three-quarters-hp", 1.0: "hp"}
"""The names a fraction of total hit-points has as a boundary's value."""


class ShockTrigger(Model):
    """A wound or a total of damage that calls for a shock roll, as a fraction of HP."""

    id: Slug
    text: Text
    when: Literal["single-wound-at-least", "total-damage-passes"]
    fractions_of_hp: Annotated[list[Annotated[float, Field(gt=0, le=1)]], Field(min_length=1)]


class ShockRoll(Document, StatesBoundaries):
    """A Cool roll against shock after a heavy wound; failure stuns."""

    KIND = "shock-roll"
    kind: Literal["shock-roll"]
    name: Name
    text: Text
    triggers: Annotated[list[ShockTrigger], Field(min_length=1)]
    wound_penalty: Literal["damage-taken"]
    """What a wound subtracts from the Cool target (see rulings)."""
    on_failure: Text
    recovery: Text
    critical_failure: Text
    unconscious: Duration
    examples: list[Example] = []

    def stated_boundaries(self):
        """Each trigger's boundary (`single-wound >= half-hp`, `total-damage > quarter-hp`),
        besides any listed in `boundaries`."""
        yield from super().stated_boundaries()
        for number, trigger in enumerate(self.triggers):
            quantity, comparison = (
                ("single-wound", ">=")
                if trigger.when == "single-wound-at-least"
                else ("total-damage", ">")
            )
            for index, fraction in enumerate(trigger.fractions_of_hp):
                yield (
                    Boundary(
                        quantity=quantity,
                        comparison=comparison,
                        value=_HP_FRACTIONS.get(fraction, f"{round(fraction * 100)}-percent-hp"),
                        text=trigger.text,
                    ),
                    ("triggers", number, "fractions_of_hp", index),
                )

    def required(self, wound: int, damage_before: int, hit_points: int) -> bool:
        """Whether a wound calls for a shock roll: a single wound of at least half the
        hit points, or total damage passing a mark (1/4 or 1/2) it had not passed before
        (ruling `damage-marks-each-once`); the marks are not rounded (ruling
        `damage-marks-unrounded`)."""
        total = damage_before + wound
        for trigger in self.triggers:
            marks = [fraction * hit_points for fraction in trigger.fractions_of_hp]
            if trigger.when == "single-wound-at-least" and any(wound >= m for m in marks):
                return True
            if trigger.when == "total-damage-passes" and any(
                damage_before <= m < total for m in marks
            ):
                return True
        return False

    def target(self, cool: int, damage_taken: int) -> int:
        """The roll's target, the highest percentile roll that succeeds: Cool less the
        wound penalty, the damage taken (ruling `wound-penalty-amount`), with no floor
        (ruling `target-not-floored`)."""
        return cool - damage_taken

    def resolve(self, roll: int, target: int, critical: CriticalFailure) -> ShockResult:
        """The shock roll's result: `steady` at or under the target, else `shock` (stunned
        this round, act last, roll to act); `unconscious` on a critical failure."""
        _check_roll(roll)
        if critical.is_critical(roll):
            outcome: ShockOutcome = "unconscious"
        else:
            outcome = "steady" if roll <= target else "shock"
        return ShockResult(roll, target, outcome)

    def resolve_recovery(
        self, roll: int, cool: int, damage_taken: int, critical: CriticalFailure
    ) -> ShockResult:
        """The cool roll a character in shock makes to act the following round, whose
        outcome is `steady` (recovered, can act), `shock` (still in shock, cannot act) or
        `unconscious`. It is the same roll, with the same wound penalty (ruling
        `shock-recovery-roll-penalty`), and a critical failure knocks out here too (ruling
        `shock-critical-on-recovery`)."""
        return self.resolve(roll, self.target(cool, damage_taken), critical)


class FearRoll(Document, StatesBoundaries):
    """A Cool roll against fear; failure frightens by the margin, critical failure panics."""

    KIND = "fear-roll"
    kind: Literal["fear-roll"]
    name: Name
    text: Text
    triggers: Annotated[list[Text], Field(min_length=1)]
    on_failure: Text
    penalty: Literal["failure-margin"]
    critical_failure: Text
    frozen: Duration
    recovery: Text
    ends: Text
    ends_out_of_danger: bool
    """Whether fear and panic end by themselves once the character is out of danger: "Fear
    or panic automatically ends whenever the character(s) are considered to be no longer
    in danger"."""
    acting_order: Text
    examples: list[Example] = []

    def fear_ends(self, *, in_danger: bool) -> bool:
        """Whether fear or panic ends now, with no roll: when the character is no longer in
        danger (the referee's call, given as `in_danger`, ruling
        `fear-roll-triggers-referee`); the state and its penalty end with it (ruling
        `fear-carried-through`)."""
        return self.ends_out_of_danger and not in_danger

    def state_after(self, outcome: FearOutcome, *, in_danger: bool) -> FearOutcome:
        """The state a fear roll's outcome leaves once the referee judges the danger:
        `not-afraid` when fear ends (`fear_ends`), else the outcome unchanged."""
        return (
            "not-afraid"
            if outcome != "not-afraid" and self.fear_ends(in_danger=in_danger)
            else outcome
        )

    def panic(self, *, can_escape: bool, rng: random.Random | None = None) -> PanicResult:
        """What a panic does: the character flees the scene if they can; if they cannot
        escape they are frozen to the spot for `frozen` (1d6+1 turns, rolled with `rng` when
        given; a turn is a round, ruling `turns-and-rounds`)."""
        if can_escape:
            return PanicResult("flees", None, None)
        return PanicResult("frozen", self.frozen, self.frozen.roll(rng) if rng else None)

    def target(self, cool: int, damage_taken: int = 0) -> int:
        """The roll's target, the highest percentile roll that succeeds: Cool less the
        wound penalty, the damage taken (as for the shock roll); the failure margin is
        measured from it (ruling `fear-margin-from-penalised-target`)."""
        return cool - damage_taken

    def recovers(
        self, roll: int, cool: int, critical: CriticalFailure, damage_taken: int = 0
    ) -> bool:
        """Whether the re-roll made in the following turn ends fear or panic: it must pass
        Cool less the wound penalty, without the fear's own margin penalty (ruling
        `recovery-roll-unpenalised`); a critical failure never recovers, and leaves the
        state as it was (ruling `fear-recovery-critical`). A frozen character makes it too,
        and a success ends the freeze (ruling `frozen-can-recover`)."""
        _check_roll(roll)
        return not critical.is_critical(roll) and roll <= self.target(cool, damage_taken)

    def resolve(self, roll: int, target: int, critical: CriticalFailure) -> FearResult:
        """The fear roll's result against a target (see `target`): not afraid at or under
        it (ruling `fear-roll-at-cool-passes`); frightened, penalised by the failure
        margin, over it; panicked on a critical failure, keeping its margin (ruling
        `panic-keeps-the-margin`)."""
        _check_roll(roll)
        if critical.is_critical(roll):
            return FearResult(roll, target, "panicked", max(roll - target, 0))
        if roll <= target:
            return FearResult(roll, target, "not-afraid", 0)
        return FearResult(roll, target, "frightened", roll - target)


class CriticalFailure(Document, StatesBoundaries):
    """What counts as a critical failure on a percentile roll (the source never says)."""

    KIND = "critical-failure"
    kind: Literal["critical-failure"]
    name: Name
    text: Text
    lowest_roll: Annotated[int, Field(ge=1, le=100)]
    """A roll at or above this (on 1-100) is a critical failure."""

    def is_critical(self, roll: int) -> bool:
        """Whether a percentile roll is a critical failure: at or above `lowest_roll`
        (ruling `critical-failure-range`)."""
        return roll >= self.lowest_roll


ShockOutcome = Literal["steady", "shock", "unconscious"]
FearOutcome = Literal["not-afraid", "frightened", "panicked"]


@dataclass(frozen=True)
class ShockResult:
    """A shock roll resolved: the percentile roll, the target it had to stay at or under,
    and the outcome."""

    roll: int
    target: int
    outcome: ShockOutcome

    @property
    def acts(self) -> bool:
        """Whether the character can act this round: only when steady. In shock "they are
        stunned for that round and cannot act"; after a recovery roll, "A failed roll
        means they are still in shock and can't act"."""
        return self.outcome == "steady"


@dataclass(frozen=True)
class FearResult:
    """A fear roll resolved: the percentile roll, its target, the outcome (the state it
    leaves the character in) and by how much it missed."""

    roll: int
    target: int
    outcome: FearOutcome
    margin: int
    """How far the roll missed its target; every action is penalised by it."""

    @property
    def penalty(self) -> int:
        """The penalty on every action: the margin, negated."""
        return -self.margin


@dataclass(frozen=True)
class PanicResult:
    """What a panic leads to: the outcome (`flees`, or `frozen` when the character cannot
    escape), the freeze's duration and, when rolled, the turns it lasts."""

    outcome: Literal["flees", "frozen"]
    frozen: Duration | None
    turns: int | None


def _dice_parts(text: str) -> tuple[int, int, int]:
    """`2d6+1` -> (2, 6, 1)."""
    count, rest = text.split("d")
    sides, _, bonus = rest.replace("-", "+-").partition("+")
    return int(count), int(sides), int(bonus or 0)


def _bounded(count: int, sides: int, bonus: int) -> bool:
    return (
        1 <= count <= MAX_DURATION_DICE
        and 1 <= sides <= MAX_DURATION_SIDES
        and abs(bonus) <= MAX_DURATION_BONUS
    )


def _check_roll(roll: int) -> None:
    if not 1 <= roll <= PERCENTILE:
        raise ValueError(f"a percentile roll is 1-100, not {roll}")


__all__ = [
    "CriticalFailure",
    "FearResult",
    "FearRoll",
    "PanicResult",
    "ShockResult",
    "ShockRoll",
]
"""The kinds and the typed results their rules return."""
