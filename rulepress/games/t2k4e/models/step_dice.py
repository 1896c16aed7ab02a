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

    def successes_for(self, face: int) -> int:
        """Successes one die counts: the highest step whose threshold the face reaches."""
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

    def rerolled(
        self, faces: Sequence[int], step_dice: StepDice, reading: Reading | None = None
    ) -> list[int]:
        """Indexes of the dice a push picks up: by the text, those that show neither a 1
        nor a success; with `every-non-success`, every die that is not a success."""
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


class GroupRoll(Document):
    """One character rolls for a group and gains a bonus per helper, to a maximum."""

    KIND = "group-roll"
    kind: Literal["group-roll"]
    name: Name
    text: Text
    bonus_per_helper: Annotated[int, Field(ge=0, le=10)]
    max_bonus: Annotated[int, Field(ge=0, le=10)]

    def bonus(self, helpers: int) -> int:
        """+1 per helper, to a maximum of +3 on the helpers' bonus alone (ruling
        `group-bonus-and-other-modifiers`)."""
        if helpers < 0:
            raise ValueError("helpers cannot be negative")
        return min(helpers * self.bonus_per_helper, self.max_bonus)


class OpposedRoll(Document):
    """Both sides roll; the side with more successes wins, the loser's successes cancel."""

    KIND = "opposed-roll"
    kind: Literal["opposed-roll"]
    name: Name
    text: Text
    cancel_per_success: Annotated[int, Field(ge=0, le=10)]

    def compare(self, acting: int, opposing: int) -> OpposedResult:
        """Compare both sides' successes: the side with more wins, with its successes less
        one per success of the loser's (`cancel_per_success`); equal successes are a tie
        that no one wins (ruling `opposed-tie`)."""
        if acting < 0 or opposing < 0:
            raise ValueError("successes cannot be negative")
        if acting == opposing:
            return OpposedResult("tie", 0)
        winner, loser = max(acting, opposing), min(acting, opposing)
        net = max(winner - loser * self.cancel_per_success, 0)
        return OpposedResult("acting-wins" if acting > opposing else "opposing-wins", net)


@dataclass(frozen=True)
class OpposedResult:
    """An opposed roll settled: who won (the outcome), and the winner's successes left
    after the loser's cancelled theirs (0 on a tie)."""

    outcome: Literal["acting-wins", "opposing-wins", "tie"]
    successes: int
