"""The percentile Cool stat (seed 002): shock rolls and fear rolls."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rulepress.models.base import Document, Model, Name, Slug, Text
from rulepress.models.common import Example


class Duration(Model):
    """A rolled duration such as 1d6+1 rounds."""

    dice: Annotated[str, Field(pattern=r"^\d+d\d+([+-]\d+)?$")]
    unit: Literal["rounds", "turns"]


class ShockTrigger(Model):
    id: Slug
    text: Text
    when: Literal["single-wound-at-least", "total-damage-passes"]
    fractions_of_hp: Annotated[list[Annotated[float, Field(gt=0, le=1)]], Field(min_length=1)]


class ShockRoll(Document):
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


class FearRoll(Document):
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
    acting_order: Text
    examples: list[Example] = []


class CriticalFailure(Document):
    """What counts as a critical failure on a percentile roll (the source never says)."""

    KIND = "critical-failure"
    kind: Literal["critical-failure"]
    name: Name
    text: Text
    lowest_roll: Annotated[int, Field(ge=1, le=100)]
    """A roll at or above this (on 1-100) is a critical failure."""
