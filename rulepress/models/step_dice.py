"""Twilight: 2000 4e task resolution (seed 001): step dice, successes, push, modifiers,
group and opposed rolls. Each rule is its own document so its text and figures sit
together and the rules engine can hang its resolution functions on it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rulepress.models.base import Document, Model, Name, Text
from rulepress.models.common import Die

StepDie = Literal["d6", "d8", "d10", "d12"]
Attribute = Literal["STR", "AGL", "INT", "EMP"]


class DieLevel(Model):
    level: Literal["A", "B", "C", "D"]
    die: StepDie


class SuccessStep(Model):
    """A face at or above `at_least` counts `successes` (the highest step that applies)."""

    at_least: Annotated[int, Field(ge=1, le=12)]
    successes: Annotated[int, Field(ge=1, le=10)]


class StepDice(Document):
    """Attribute and skill are each a die from d6 (D) to d12 (A); 6+ succeeds, 10+ twice."""

    KIND = "step-dice"
    kind: Literal["step-dice"]
    name: Name
    text: Text
    levels: Annotated[list[DieLevel], Field(min_length=1)]
    successes: Annotated[list[SuccessStep], Field(min_length=1)]


class PushCost(Model):
    attributes: Annotated[list[Attribute], Field(min_length=1)]
    cost: Literal["damage", "stress"]


class PushRule(Document):
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


class ModifierRule(Document):
    """Net all modifiers, then shift one die a step per point, keeping the dice balanced."""

    KIND = "modifier-rule"
    kind: Literal["modifier-rule"]
    name: Name
    text: Text
    steps_per_point: Annotated[int, Field(ge=1, le=4)]
    net_before_shifting: bool
    keep_balanced: bool
    highest_pool: Annotated[list[Die], Field(min_length=1, max_length=4)]
    lowest_pool: Annotated[list[Die], Field(min_length=1, max_length=4)]
    below_two_lowest: Literal["remove-one-die"]
    """What a penalty does to a pool of two of the lowest die."""


class GroupRoll(Document):
    """One character rolls for a group and gains a bonus per helper, to a maximum."""

    KIND = "group-roll"
    kind: Literal["group-roll"]
    name: Name
    text: Text
    bonus_per_helper: Annotated[int, Field(ge=0, le=10)]
    max_bonus: Annotated[int, Field(ge=0, le=10)]


class OpposedRoll(Document):
    """Both sides roll; the side with more successes wins, the loser's successes cancel."""

    KIND = "opposed-roll"
    kind: Literal["opposed-roll"]
    name: Name
    text: Text
    cancel_per_success: Annotated[int, Field(ge=0, le=10)]
