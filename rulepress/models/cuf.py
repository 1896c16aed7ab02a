"""Coolness Under Fire (seed 000): deriving CUF and the three threat thresholds."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rulepress.models.base import Document, Model, Name, Text
from rulepress.models.common import Die, Example
from rulepress.models.figures import StatedFigure

Multiple = Annotated[int, Field(ge=1, le=10)]


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


class Check(Model):
    difficulty: Literal["Easy", "Average", "Difficult", "Formidable", "Impossible"]
    asset: Annotated[list[Literal["cuf", "willpower", "leadership", "charisma"]], Field(min_length=1)]
    """Ratings summed into the check's asset ("AVERAGE:[CUF + WILL]" is an Average task)."""


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


class ThreatThreshold(Document):
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

    def stated_figures(self):
        yield StatedFigure(
            "comparison that ends threshold penalties", self.penalties_end.tcs,
            ("penalties_end", "tcs"),
        )
