"""Twilight: 2000 4e task resolution (seed 001): step dice, successes, push, modifiers,
group and opposed rolls. Each rule is its own document so its text and figures sit
together and the rules engine can hang its resolution functions on it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import Field

from rulepress.plugin import (
    DIE_SIDES,
    Boundary,
    Document,
    Model,
    Name,
    StatesBoundaries,
    Text,
    dice,
)

StepDie = Literal["d6", "d8", "d10", "d12"]
Attribute = Literal["STR", "AGL", "INT", "EMP"]
Reading = Literal["neither-one-nor-success", "every-non-success"]
STEPS: tuple[str, ...] = ("d6", "d8", "d10", "d12")


class DieLevel(Model):
    """The die an attribute or skill of this level (A to D) rolls."""

    level: Literal["A", "B", "C", "D"]
    die: StepDie


class SuccessStep(Model):
    """A face at or above `at_least` counts `successes` (the highest step that applies)."""

    at_least: Annotated[int, Field(ge=1, le=12)]
    successes: Annotated[int, Field(ge=1, le=10)]


class StepDice(Document, StatesBoundaries):
    """Attribute and skill are each a die from d6 (D) to d12 (A); 6+ succeeds, 10+ twice."""

    KIND = "step-dice"
    kind: Literal["step-dice"]
    name: Name
    text: Text
    levels: Annotated[list[DieLevel], Field(min_length=1, max_length=4)]
    """One die per level, A to D."""
    successes: Annotated[list[SuccessStep], Field(min_length=1, max_length=12)]
    """At most one step per face of a d12: every face's successes are looked up in this
    list, for every cell of every odds table that validation checks."""

    def stated_boundaries(self):
        """The face each success step starts at (`die-face >= 6`), besides any listed."""
        yield from super().stated_boundaries()
        for number, step in enumerate(self.successes):
            counted = "a success" if step.successes == 1 else f"{step.successes} successes"
            yield (
                Boundary(
                    quantity="die-face",
                    comparison=">=",
                    value=step.at_least,
                    text=f"a roll of {step.at_least} or greater counts {counted}",
                ),
                ("successes", number, "at_least"),
            )

    def level_of(self, die: str) -> str:
        """The level letter of a die (d6 is Level D ... d12 is Level A), from `levels`."""
        for level in self.levels:
            if level.die == die:
                return level.level
        raise KeyError(f"no level rolls {die!r}")

    def die_of(self, level: str) -> str:
        """The die a level rolls (Level A is a d12 ... Level D a d6), from `levels`."""
        for row in self.levels:
            if row.level == level:
                return row.die
        raise KeyError(f"no level {level!r}")

    def pool(self, attribute: str, skill: str | None = None) -> list[str]:
        """The dice of a roll, each given as a die or a level letter: the attribute die and
        the skill die, or the attribute alone without the skill ("you can still roll the
        associated attribute"; ruling `actions-needing-a-skill-level`)."""
        return [self._die(attribute), *([self._die(skill)] if skill else [])]

    def _die(self, die_or_level: str) -> str:
        return die_or_level if die_or_level in STEPS else self.die_of(die_or_level)

    def successes_for(self, face: int) -> int:
        """Successes one die counts: the highest step whose threshold the face reaches
        (a 10 is 2 successes, not 3: ruling `successes-highest-step`)."""
        steps = [s.successes for s in self.successes if face >= s.at_least]
        return max(steps, default=0)

    def count(self, faces: Sequence[int]) -> int:
        """Total successes of a roll."""
        return sum(self.successes_for(face) for face in faces)

    def die_successes(self, die: str) -> dict[int, Fraction]:
        """Exact distribution of one die's successes."""
        return dice.mapped(dice.die(DIE_SIDES[die]), self.successes_for)

    def pushed_die_successes(self, die: str, reading: Reading) -> dict[int, Fraction]:
        """Exact distribution of one die's successes after a push: a die that is not a
        success is rolled again unless the reading keeps its 1s."""
        result: dict[int, Fraction] = {}
        for face, chance in dice.die(DIE_SIDES[die]).items():
            kept = self.successes_for(face) > 0 or (
                face == 1 and reading == "neither-one-nor-success"
            )
            outcome = dice.point(self.successes_for(face)) if kept else self.die_successes(die)
            for successes, p in outcome.items():
                result[successes] = result.get(successes, 0) + chance * p
        return result

    def distribution(
        self,
        pool: Sequence[str],
        *,
        pushed: bool = False,
        reading: Reading = "neither-one-nor-success",
    ) -> dict[int, Fraction]:
        """Exact distribution of a pool's successes, initial or pushed (every die that
        may be re-rolled is re-rolled once)."""
        if pushed:
            return dice.total(self.pushed_die_successes(d, reading) for d in pool)
        return dice.total(self.die_successes(d) for d in pool)

    def chance(
        self,
        pool: Sequence[str],
        *,
        pushed: bool = False,
        reading: Reading = "neither-one-nor-success",
    ) -> Fraction:
        """The chance the roll succeeds: at least one success."""
        return dice.at_least(self.distribution(pool, pushed=pushed, reading=reading), 1)

    def roll(self, pool: Sequence[str], rng: random.Random) -> list[int]:
        """A pool rolled with `rng`: one face per die, in the pool's order."""
        return [dice.roll(DIE_SIDES[d], rng) for d in pool]


class PushCost(Model):
    """What a push costs when rolling with these attributes: damage or stress."""

    attributes: Annotated[list[Attribute], Field(min_length=1)]
    cost: Literal["damage", "stress"]


@dataclass(frozen=True)
class PushAllowance:
    """Whether a roll may be pushed, the outcome (the reason in a word) and the successes
    the roll has."""

    allowed: bool
    outcome: Literal["may-push", "enough-successes", "already-pushed", "nothing-to-pick-up"]
    successes: int


@dataclass(frozen=True)
class PushPrice:
    """What one push costs: to the character, and to the gear used."""

    character: str | None
    gear_damage: int
    gear_reliability_loss: int


DEFAULT_READING: Reading = "neither-one-nor-success"
"""Which dice a push re-rolls where a ruleset states no push rule: the T2K4e text's."""


def push_reading(push: PushRule | None) -> Reading:
    """The reading a ruleset's push rule states, or DEFAULT_READING without one."""
    return push.rerolls if push is not None else DEFAULT_READING


class PushRule(Document, StatesBoundaries):
    """Re-roll some dice once, at a cost to the character or the gear used."""

    KIND = "push-rule"
    kind: Literal["push-rule"]
    name: Name
    text: Text
    rerolls: Literal["neither-one-nor-success", "every-non-success"]
    """Which dice a push picks up, as the text states it."""
    costs: list[PushCost]
    gear_takes_damage: bool
    gear_reliability_loss: Annotated[int, Field(ge=0, le=10)]
    when: Annotated[list[Literal["failed", "more-successes-needed"]], Field(min_length=1)]
    """When a roll may be pushed: "If you fail your initial roll or need more successes
    than you got"."""
    pushes_per_roll: Annotated[int, Field(ge=1, le=10)]
    """How many times one roll may be pushed (ruling `push-how-often`)."""

    def may_push(
        self,
        faces: Sequence[int],
        step_dice: StepDice,
        *,
        needed: int = 1,
        pushes: int = 0,
        reading: Reading | None = None,
    ) -> PushAllowance:
        """Whether a roll may be pushed: only if it failed or has fewer successes than
        `needed` (1 for a normal roll, the opposed roll's `normal_roll_needs`), only as
        often as `pushes_per_roll` allows (ruling `push-how-often`), and only if it has a
        die to pick up (ruling `push-with-nothing-to-pick-up`)."""
        got = step_dice.count(faces)
        if pushes >= self.pushes_per_roll:
            return PushAllowance(False, "already-pushed", got)
        failed = got == 0 and "failed" in self.when
        short = 0 < got < needed and "more-successes-needed" in self.when
        if not (failed or short):
            return PushAllowance(False, "enough-successes", got)
        if not self.rerolled(faces, step_dice, reading):
            return PushAllowance(False, "nothing-to-pick-up", got)
        return PushAllowance(True, "may-push", got)

    def rerolled(
        self, faces: Sequence[int], step_dice: StepDice, reading: Reading | None = None
    ) -> list[int]:
        """Indexes of the dice a push picks up: by the text, those that show neither a 1
        nor a success; with `every-non-success`, every die that is not a success. Every
        such die is picked up (ruling `push-picks-up-every-die`)."""
        reading = reading or self.rerolls
        return [
            i
            for i, face in enumerate(faces)
            if step_dice.successes_for(face) == 0
            and not (face == 1 and reading == "neither-one-nor-success")
        ]

    def push(
        self,
        faces: Sequence[int],
        new_faces: Sequence[int],
        step_dice: StepDice,
        reading: Reading | None = None,
    ) -> list[int]:
        """The faces after a push, `new_faces` taking the places of the re-rolled dice."""
        picked = self.rerolled(faces, step_dice, reading)
        if len(new_faces) != len(picked):
            raise ValueError(f"a push re-rolls {len(picked)} dice, {len(new_faces)} faces given")
        result = list(faces)
        for index, face in zip(picked, new_faces, strict=True):
            result[index] = face
        return result

    def price(self, attribute: str, with_gear: bool = False) -> PushPrice:
        """One point of damage (STR, AGL) or stress (INT, EMP); gear used takes the damage
        instead and loses reliability (rulings `push-cost-with-gear`, `reliability-loss-amount`)."""
        cost = next((c.cost for c in self.costs if attribute in c.attributes), None)
        if cost is None:
            raise ValueError(f"no push cost for attribute {attribute!r}")
        if with_gear and self.gear_takes_damage:
            return PushPrice(
                "stress" if cost == "stress" else None,
                1 if cost == "damage" else 0,
                self.gear_reliability_loss,
            )
        return PushPrice(cost, 0, 0)


class ModifierRule(Document, StatesBoundaries):
    """Net all modifiers, then shift one die a step per point, keeping the dice balanced."""

    KIND = "modifier-rule"
    kind: Literal["modifier-rule"]
    name: Name
    text: Text
    steps_per_point: Annotated[int, Field(ge=1, le=4)]
    net_before_shifting: bool
    keep_balanced: bool
    highest_pool: Annotated[list[StepDie], Field(min_length=1, max_length=4)]
    lowest_pool: Annotated[list[StepDie], Field(min_length=1, max_length=4)]
    below_two_lowest: Literal["remove-one-die"]
    """What a penalty does to a pool of two of the lowest die."""

    @staticmethod
    def net(modifiers: Sequence[int]) -> int:
        """All bonuses and penalties summed before any die shifts (a +2 and a -1 is +1)."""
        return sum(modifiers)

    def shift(self, pool: Sequence[str], modifier: int) -> list[str]:
        """Shift a pool [attribute, skill?] one step per point, keeping it balanced: a
        penalty lowers the larger die, a bonus raises the smaller (ties: the attribute die,
        ruling `which-die-shifts`). Never above the highest pool; a penalty on two of the
        lowest die removes one; a penalty on a single lowest die, or a bonus on a single
        highest die, has no effect (rulings `penalty-on-a-single-d6`, `bonus-on-a-single-die`)."""
        # Each step that moves anything moves one die a size or removes one die, so after
        # len(STEPS) steps a die the pool is at its end: a larger modifier means the same
        # (and a modifier of 10**11 is not 10**11 turns of the loop).
        steps = min(abs(modifier) * self.steps_per_point, len(STEPS) * len(pool))
        dice_ = list(pool)
        for _ in range(steps):
            dice_ = self._step_down(dice_) if modifier < 0 else self._step_up(dice_)
        return dice_

    def _step_down(self, pool: list[str]) -> list[str]:
        lowest = STEPS.index(self.lowest_pool[0])
        above = [i for i, d in enumerate(pool) if STEPS.index(d) > lowest]
        if not above:
            return pool[:-1] if len(pool) > len(self.lowest_pool) else pool
        index = max(above, key=lambda i: (STEPS.index(pool[i]), -i))
        return [*pool[:index], STEPS[STEPS.index(pool[index]) - 1], *pool[index + 1 :]]

    def _step_up(self, pool: list[str]) -> list[str]:
        highest = STEPS.index(self.highest_pool[0])
        below = [i for i, d in enumerate(pool) if STEPS.index(d) < highest]
        if not below:
            return pool
        index = min(below, key=lambda i: (STEPS.index(pool[i]), i))
        return [*pool[:index], STEPS[STEPS.index(pool[index]) + 1], *pool[index + 1 :]]


# The group and opposed rolls live in their own module; named here too, where they were.
from rulepress.games.t2k4e.models.rolls import (  # noqa: E402
    GroupRoll,
    OpposedResult,
    OpposedRoll,
)

__all__ = [
    "GroupRoll",
    "ModifierRule",
    "OpposedResult",
    "OpposedRoll",
    "PushAllowance",
    "PushPrice",
    "PushRule",
    "StepDice",
]
"""The kinds and the typed results their rules return."""
