"""IRIS corruption (seed 003, "Corruption"): rules, the trigger table, the obedience table."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rulepress.models.base import Document, Model, Name, Slug, Text
from rulepress.models.common import StatesBoundaries
from rulepress.models.figures import StatedFigure

Level = Annotated[int, Field(ge=0, le=100)]


class PresenceTrigger(Model):
    """One thing that makes the Presence manifest."""

    id: Slug
    text: Text
    when: Literal[
        "event-at-or-below-corruption",
        "stamina-below-corruption",
        "stamina-below-zero",
        "death-coma",
        "black-out",
        "iris-extraction",
        "corruption-above-max-stamina",
    ]


class TargetRaise(Model):
    """A circumstance that raises the Willpower test's target AP."""

    id: Slug
    text: Text
    to_corruption_plus: Annotated[int, Field(ge=0, le=100)]


class Effect(Model):
    """What a choice or a test result changes (Stamina, Corruption, obedience)."""

    text: Text
    stamina: int = 0
    corruption: int = 0
    must_obey: bool = False
    dispels_for_session: bool = False


class CorruptionRules(Document, StatesBoundaries):
    """How corruption accrues, what triggers the Presence, and the Willpower test against it."""

    KIND = "corruption-rules"
    kind: Literal["corruption-rules"]
    name: Name
    text: Text
    """The introduction, as printed."""
    per_aug: int
    """Corruption gained for each Aug installed."""
    per_trait_rank: int
    """Corruption gained for each Trait rank above the natural number."""
    uncounted: Text
    presence_triggers: list[PresenceTrigger]
    target_text: Text
    target_raises: list[TargetRaise]
    timing: Text
    resist_pass: Effect
    resist_fail: Effect
    obey: Effect

    def level(
        self,
        augs: int,
        trait_ranks_gained: int,
        *,
        per_aug: int | None = None,
        per_trait_rank: int | None = None,
    ) -> int:
        """Corruption from Augs installed and Trait ranks gained above the natural number.
        The per-Aug and per-rank figures default to these rules' own (ruling
        `corruption-per-purchase`); pass the CP table's to play by those."""
        if augs < 0 or trait_ranks_gained < 0:
            raise ValueError("counts cannot be negative")
        aug = self.per_aug if per_aug is None else per_aug
        rank = self.per_trait_rank if per_trait_rank is None else per_trait_rank
        return augs * aug + trait_ranks_gained * rank

    def target(self, corruption: int, circumstances: set[str] = frozenset()) -> int:
        """The Willpower test's target, the AP it must reach: the Corruption level, raised
        to Corruption+5 when any listed circumstance applies (they do not stack:
        `target-raises-do-not-stack`)."""
        unknown = circumstances - {r.id for r in self.target_raises}
        if unknown:
            raise ValueError(f"unknown circumstance(s): {', '.join(sorted(unknown))}")
        raises = [r.to_corruption_plus for r in self.target_raises if r.id in circumstances]
        return corruption + max(raises, default=0)

    def resist(self, ap: int, target: int) -> Effect:
        """What resisting brings: the pass effect when the test's AP reaches the target,
        else the fail effect."""
        return self.resist_pass if ap >= target else self.resist_fail

    def stated_figures(self):
        """The corruption figures these rules state, for the conflicting-figures check."""
        yield StatedFigure("corruption gained per Aug", self.per_aug, ("per_aug",))
        yield StatedFigure(
            "corruption gained per Trait rank", self.per_trait_rank, ("per_trait_rank",)
        )


class TriggerRow(Model):
    """Events that trigger the Presence for a character at or above this corruption level."""

    level: Level
    events: Text


class CorruptionTriggers(Document):
    """The Corruption Triggers table: event severity by corruption level."""

    KIND = "corruption-triggers"
    kind: Literal["corruption-triggers"]
    name: Name
    headers: Annotated[list[Name], Field(min_length=2, max_length=2)]
    """The column headings with their printed explanations."""
    rows: Annotated[list[TriggerRow], Field(min_length=1)]

    def triggers(self, event_level: int, corruption: int) -> bool:
        """Whether an event of a row's level triggers the Presence: its level must be at or
        below the Character's Corruption level."""
        return event_level <= corruption

    def rows_triggering(self, corruption: int) -> list[TriggerRow]:
        """Every row whose events trigger the Presence at this Corruption level."""
        return [row for row in self.rows if self.triggers(row.level, corruption)]


class ConsequenceRow(Model):
    """The choices an obeying character has at this corruption level (printed joined by -or-)."""

    level: Level
    options: Annotated[list[Text], Field(min_length=1)]


class ObedienceConsequences(Document):
    """The Obedience Consequences table: what obeying means by corruption level."""

    KIND = "obedience-consequences"
    kind: Literal["obedience-consequences"]
    name: Name
    headers: Annotated[list[Name], Field(min_length=2, max_length=2)]
    rows: Annotated[list[ConsequenceRow], Field(min_length=1)]

    def row_for(self, corruption: int) -> ConsequenceRow | None:
        """The highest row at or below the Corruption level (ruling `consequence-row-by-level`);
        none below the first row."""
        eligible = [row for row in self.rows if row.level <= corruption]
        return max(eligible, key=lambda row: row.level, default=None)
