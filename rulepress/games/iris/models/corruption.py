"""IRIS corruption (seed 003, "Corruption"): rules, the trigger table, the obedience table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field, model_validator

from rulepress.games.iris.models.presence import (
    CharacterState,
    Effect,
    Presence,
    PresenceSession,
)
from rulepress.plugin import (
    Document,
    Model,
    Name,
    Slug,
    Span,
    StatedFigure,
    StatesBoundaries,
    Text,
    level_problems,
    level_spans,
    raise_problems,
)

Level = Annotated[int, Field(ge=0, le=100)]


class LevelRow(Model):
    """A row of a table looked up by Corruption level: from its `level` up to the next
    row's, or to its own `to` (the last row of a table whose levels end at 100)."""

    level: Level
    to: Level | None = None
    """The row's last level, both ends included, where the next row's level does not say
    it (a last row covering 99-100 is `level: 99, to: 100`); without it, the level before
    the next row's, and the last row only its own level."""


class LevelTable(Model):
    """A table whose `rows` are LevelRows (each kind declares its own): they overlap
    nowhere and leave no level out between them."""

    def spans(self) -> list[Span]:
        """The levels each row covers, in order."""
        return level_spans([r.level for r in self.rows], [r.to for r in self.rows])

    @model_validator(mode="after")
    def _rows_cover_their_levels_once(self) -> LevelTable:
        levels, ends = [r.level for r in self.rows], [r.to for r in self.rows]
        raise_problems(type(self).__name__, level_problems(levels, ends))
        return self


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


RaiseCondition = Literal[
    "exhausted", "corruption-above-max-stamina", "entering-death-coma", "iris-extraction"
]
"""When a target raise applies: Stamina 0 or less, Corruption above maximum Stamina,
Health 0 or less, IRIS being extracted (what `CorruptionRules.presence` evaluates)."""


class TargetRaise(Model):
    """A circumstance that raises the Willpower test's target AP."""

    id: Slug
    text: Text
    when: RaiseCondition
    to_corruption_plus: Annotated[int, Field(ge=0, le=100)]


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
    """Which ranks do not count, as printed."""
    counted_trait_ranks: Literal["above-natural", "all"]
    """Which Trait ranks `level_of` counts: those above the natural number the Director
    grants at Character creation (the `uncounted` sentence), or all of them."""
    presence_triggers: list[PresenceTrigger]
    target_text: Text
    target_raises: list[TargetRaise]
    timing: Text
    resist_pass: Effect
    resist_fail: Effect
    obey: Effect
    willpower_skill: Slug | None = None
    """The skill whose test is the Willpower test (ruling `willpower-test-is-a-skill-test`);
    None where the rules name none."""

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

    def level_of(
        self,
        trait_ranks: Mapping[str, int],
        natural_ranks: Mapping[str, int],
        augs: int,
        *,
        per_aug: int | None = None,
        per_trait_rank: int | None = None,
        from_presence: int = 0,
    ) -> CorruptionLevel:
        """A Character's Corruption level from their Trait ranks, the natural ranks the
        Director granted at creation (by trait id; a trait not given had none), and the
        Augs installed. `counted_trait_ranks` says which ranks count: above the natural
        number, trait by trait, none where a rank is at or below it; every Aug counts,
        those a new Character starts with too (ruling `counted-trait-ranks`); the
        figures as in `level` (ruling `corruption-per-purchase`). `from_presence` is the
        Corruption failed resists and obeying added, which no rank records; ranks and Augs
        extracted are not passed, yet Corruption once gained is not lost, so a Character
        IRIS was extracted from keeps their own tally (ruling `corruption-is-not-lost`)."""
        if any(rank < 0 for rank in [*trait_ranks.values(), *natural_ranks.values()]):
            raise ValueError("a Trait rank cannot be negative")
        if from_presence < 0:
            raise ValueError("Corruption from the Presence cannot be negative")
        if self.counted_trait_ranks == "all":
            gained = sum(trait_ranks.values())
        else:
            gained = sum(
                max(0, rank - natural_ranks.get(trait, 0)) for trait, rank in trait_ranks.items()
            )
        level = self.level(augs, gained, per_aug=per_aug, per_trait_rank=per_trait_rank)
        return CorruptionLevel(level + from_presence, gained, augs, from_presence)

    def target(self, corruption: int, circumstances: set[str] = frozenset()) -> int:
        """The Willpower test's target, the AP it must reach: the Corruption level, raised
        to Corruption+5 when any listed circumstance applies (they do not stack: ruling
        `target-raises-do-not-stack`)."""
        unknown = circumstances - {r.id for r in self.target_raises}
        if unknown:
            raise ValueError(f"unknown circumstance(s): {', '.join(sorted(unknown))}")
        raises = [r.to_corruption_plus for r in self.target_raises if r.id in circumstances]
        return corruption + max(raises, default=0)

    def presence(
        self,
        character: CharacterState,
        event_level: int | None = None,
        *,
        in_combat: bool = False,
        session: PresenceSession | None = None,
    ) -> Presence:
        """Evaluate the triggers' and raises' `when` tags for a Character's state and, when
        they witness one, an event's level (its row of the Corruption Triggers table); the
        test is taken at once out of combat and at the end of the turn `in_combat`.
        Each trigger is a condition of the state given, so ask again after each change
        (ruling `presence-triggers-read-as-states`); an event triggers at or below the
        Corruption level (ruling `event-level-comparison`); Corruption above the maximum
        Stamina is tested at midnight, once a day (ruling `above-max-stamina-at-midnight`);
        the raises set the target to Corruption+5 however many apply (ruling
        `target-raises-do-not-stack`). In a `session` that a passed resist dispelled, the
        triggers that hold are listed but the Presence does not manifest and no test is
        taken (ruling `dispel-lasts-the-session`)."""
        if character.corruption < 0:
            raise ValueError(f"Corruption cannot be negative ({character.corruption})")
        if character.maximum_stamina < 0:
            raise ValueError(f"maximum Stamina cannot be negative ({character.maximum_stamina})")
        if event_level is not None and event_level < 0:
            raise ValueError(f"an event's level cannot be negative ({event_level})")
        holds = _conditions(character, event_level)
        fired = tuple(t for t in self.presence_triggers if holds[t.when])
        raises = tuple(r for r in self.target_raises if holds[r.when])
        daily = [t for t in fired if t.when == "corruption-above-max-stamina"]
        dispelled = session is not None and session.dispelled
        if not fired or dispelled:
            tested = None
        elif len(daily) == len(fired):
            tested = "midnight"
        else:
            tested = "end-of-turn" if in_combat else "now"
        return Presence(
            triggers=fired,
            once_a_day=bool(daily),
            target=self.target(character.corruption, {r.id for r in raises}),
            raises=raises,
            tested=tested,
            dispelled=dispelled,
        )

    def resist(self, ap: int, target: int) -> Effect:
        """Resisting: the Willpower test, a skill test scored in AP, passes when its AP
        reach the target (ruling `willpower-test-is-a-skill-test`); the pass effect
        then, else the fail effect."""
        return self.resist_pass if ap >= target else self.resist_fail

    def stated_figures(self):
        """The corruption figures these rules state, for the conflicting-figures check."""
        yield StatedFigure("corruption gained per Aug", self.per_aug, ("per_aug",))
        yield StatedFigure(
            "corruption gained per Trait rank", self.per_trait_rank, ("per_trait_rank",)
        )


@dataclass(frozen=True)
class CorruptionLevel:
    """A Character's Corruption level, with the Trait ranks counted and the Augs it was
    computed from."""

    level: int
    trait_ranks_counted: int
    augs: int
    from_presence: int = 0


def _conditions(character: CharacterState, event_level: int | None) -> dict[str, bool]:
    """Each `when` tag of the triggers and raises, evaluated for a Character's state. The
    triggers read "below 0" (Stamina < 0, Health < 0) and the raises "0 or less", as
    printed (acknowledged RP230; ruling `zero-stamina-and-health-as-printed`)."""
    corruption = character.corruption
    above_maximum = corruption > character.maximum_stamina
    return {
        "event-at-or-below-corruption": event_level is not None and event_level <= corruption,
        "stamina-below-corruption": character.stamina < corruption,
        "stamina-below-zero": character.stamina < 0,
        "death-coma": character.health < 0,
        "black-out": character.blacked_out,
        "iris-extraction": character.extracting_iris,
        "corruption-above-max-stamina": above_maximum,
        "exhausted": character.stamina <= 0,
        "entering-death-coma": character.health <= 0,
    }


class TriggerRow(LevelRow):
    """Events that trigger the Presence for a character at or above this corruption level."""

    events: Text


class CorruptionTriggers(Document, LevelTable):
    """The Corruption Triggers table: event severity by corruption level."""

    KIND = "corruption-triggers"
    kind: Literal["corruption-triggers"]
    name: Name
    headers: Annotated[list[Name], Field(min_length=2, max_length=2)]
    """The column headings with their printed explanations."""
    rows: Annotated[list[TriggerRow], Field(min_length=1)]

    def triggers(self, event_level: int, corruption: int) -> bool:
        """Whether an event of a row's level triggers the Presence: its level must be at or
        below the Character's Corruption level (ruling `event-level-comparison` on the
        corruption rules). Which row a happening belongs to is the Director's to judge
        (ruling `events-as-the-director-judges`)."""
        return event_level <= corruption

    def rows_triggering(self, corruption: int) -> list[TriggerRow]:
        """Every row whose events trigger the Presence at this Corruption level."""
        return [row for row in self.rows if self.triggers(row.level, corruption)]


class ConsequenceRow(LevelRow):
    """The choices an obeying character has at this corruption level (printed joined by -or-)."""

    options: Annotated[list[Text], Field(min_length=1)]
    willpower_ap: Annotated[int, Field(ge=1, le=100)] | None = None
    """The AP of the Willpower test each option requires ("requires a 5AP Willpower
    test"), when the row states one."""
    no_willpower_ap: Text | None = None
    """Why the row has no Willpower AP (it states no figure), when it has none."""
    failure_ends_attempts: list[Annotated[int, Field(ge=0, le=20)]] = []
    """The options (by index) whose failed Willpower test "prevents further attempts"."""

    @model_validator(mode="after")
    def _ap_or_reason_not_both(self) -> ConsequenceRow:
        if self.willpower_ap is not None and self.no_willpower_ap is not None:
            raise ValueError("a row states its Willpower AP or why it has none, not both")
        if any(index >= len(self.options) for index in self.failure_ends_attempts):
            raise ValueError("failure_ends_attempts names an option the row does not have")
        return self


@dataclass(frozen=True)
class ConsequenceOption:
    """One thing an obeying Character may do, and the Willpower AP it requires: None when
    the row states no figure, `no_ap_reason` saying why."""

    text: str
    willpower_ap: int | None
    no_ap_reason: str | None
    failure_ends_attempts: bool = False
    """Whether failing the option's test prevents further attempts at it; a failed test
    of another option only means it is not taken (ruling `failed-consequence-test`)."""


@dataclass(frozen=True)
class Consequences:
    """What obeying the Presence means at a Corruption level: the row that applies (its
    level; None below the first row) and its options."""

    level: int | None
    options: tuple[ConsequenceOption, ...]


class ObedienceConsequences(Document, LevelTable):
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

    def consequences(self, corruption: int) -> Consequences:
        """The options an obeying Character chooses from at this Corruption level, each with
        the Willpower AP it requires, from the row that applies (ruling
        `consequence-row-by-level`); none below the first row, the last row above it (no
        "full control" beyond it: ruling `sanity-and-full-control-not-modelled` on the
        corruption rules). The AP is the test's target (ruling
        `obedience-ap-is-the-target`); the choice among the options is the table's
        (ruling `consequence-choice-at-the-table`)."""
        if corruption < 0:
            raise ValueError(f"Corruption cannot be negative ({corruption})")
        row = self.row_for(corruption)
        if row is None:
            return Consequences(None, ())
        options = tuple(
            ConsequenceOption(
                text, row.willpower_ap, row.no_willpower_ap, i in row.failure_ends_attempts
            )
            for i, text in enumerate(row.options)
        )
        return Consequences(row.level, options)
