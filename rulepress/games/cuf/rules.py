"""Coolness Under Fire across documents: the state a TC total reaches, TC totals with
"includes above" ladders, and the end-of-round update (seed 000)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulepress.games.cuf.lasting import (
    FleeOrSurrender,
    Initiative,
    Lasting,
    flee_or_surrender,
    initiative,
    lasting,
)
from rulepress.games.cuf.models.cuf import CheckResult, ThreatThreshold
from rulepress.games.cuf.models.threat import TcEvent, TcLadder, TcSource
from rulepress.games.cuf.sides import (
    EnemiesCounted,
    LeadershipTest,
    enemy_events,
    leadership_test,
    numbers_events,
    surplus_allies,
)
from rulepress.games.cuf.threat_state import ThreatState, calm, check_due, state
from rulepress.plugin import Example, Ruleset

__all__ = [
    "EnemiesCounted",
    "FleeOrSurrender",
    "Initiative",
    "Lasting",
    "LeadershipTest",
    "RoundEnd",
    "SkillRoll",
    "TcEvent",
    "ThreatState",
    "calm",
    "check_due",
    "enemy_events",
    "flee_or_surrender",
    "initiative",
    "lasting",
    "leadership_test",
    "numbers_events",
    "state",
    "surplus_allies",
]
"""The typed values its rules take and return, and the rules kept in the game's other
modules, exported with the functions."""


def event_tcs(source: TcSource, event: TcEvent) -> int:
    """The TCs one event brings (negative for a reduction)."""
    if event.count < 1:
        raise ValueError(f"{source.id}: count must be at least 1")
    if event.outstanding:
        if source.outstanding_success_tc is None:
            raise ValueError(f"{source.id} has no Outstanding Success amount")
        amount = source.outstanding_success_tc
    elif isinstance(source.tc, int):
        amount = source.tc
    elif event.amount is None:
        raise ValueError(f"{source.id}: the referee must choose the amount")
    else:
        amount = event.amount
        if source.tc != "referee" and not source.tc.min <= amount <= source.tc.max:
            raise ValueError(f"{source.id}: {amount} is outside {source.tc.min}..{source.tc.max}")
        if (amount < 0) if source.effect == "adds" else (amount > 0):
            # the referee's amount has the source's sign (ruling `referee-amount-follows-effect`)
            raise ValueError(f"{source.id} {source.effect} TCs: {amount} has the wrong sign")
    if event.count > 1 and source.per is None:
        raise ValueError(f"{source.id} counts once, not per {event.count}")
    return amount * event.count


def total(ruleset: Ruleset, events: Sequence[TcEvent] = ()) -> int:
    """The TC total of a round's events. Within an "includes above" ladder only the
    highest step present in the round counts, since it includes the steps below it; each
    other event counts on its own (ruling `ladder-steps-per-round`)."""
    outranked: set[str] = set()
    present = {event.source for event in events}
    for ladder in ruleset.all(TcLadder):
        steps = [step for step in ladder.steps if step in present]
        outranked.update(steps[:-1])
    result = 0
    for event in events:
        source = ruleset.get(event.source)
        if not isinstance(source, TcSource):
            raise ValueError(f"no TC source {event.source!r}")
        amount = event_tcs(source, event)  # checked even when a higher step outranks it
        if event.source not in outranked:
            result += amount
    return result


@dataclass(frozen=True)
class RoundEnd:
    """The end of a round: the new TC total, enacted next round, and the threat state it
    reaches."""

    tcs: int
    state: ThreatState


def end_of_round(
    ruleset: Ruleset,
    tcs: int,
    events: Sequence[TcEvent] = (),
    *,
    cuf: int,
    gained: int = 0,
    lost: int = 0,
) -> RoundEnd:
    """Apply a round's gains and reductions to the TC total `tcs` at its end: the named
    `events`, plus TCs `gained` and `lost` as plain amounts (the chips a referee moves),
    and say the state the new total reaches for `cuf`. The round's gains and reductions
    are netted first and the total then never drops below 0 (rulings
    `gains-and-reductions-net`, `tc-total-floor`); the state is the highest threshold
    exceeded (ruling `highest-threshold-only`)."""
    for name, amount in (("current", tcs), ("gained", gained), ("lost", lost)):
        if amount < 0:
            raise ValueError(f"{name} TCs cannot be negative ({amount})")
    new_total = max(tcs + total(ruleset, events) + gained - lost, 0)
    return RoundEnd(new_total, state(ruleset, new_total, cuf=cuf))


@dataclass(frozen=True)
class SkillRoll:
    """A d20 skill roll (attack and defense rolls included) made under a threshold's
    effects: the faces, the one kept (the higher under a BANE), the penalty added to it,
    the target the total had to stay at or under, and whether it did."""

    faces: tuple[int, ...]
    kept: int
    penalty: int
    target: int
    passed: bool

    @property
    def total(self) -> int:
        """The kept die with the penalty added: what is compared with the target."""
        return self.kept + self.penalty


def resolve_skill_roll(
    faces: Sequence[int], target: int, effects: CheckResult | None = None
) -> SkillRoll:
    """Resolve a d20 skill roll at or under `target` under a threshold check's `effects`
    (`ThreatThreshold.result(passed)`, None for none): a BANE rolls two d20s and keeps the
    higher, and the skill penalty is added to the die kept ("a "+1" (added to the dice
    roll) penalty to all Skill rolls"). No face passes or fails by itself (ruling
    `d20-no-automatic-result`)."""
    bane = effects is not None and effects.bane
    penalty = effects.skill_penalty if effects is not None else 0
    faces = tuple(faces)
    if len(faces) != (2 if bane else 1):
        need = "two d20s (a BANE)" if bane else "one d20"
        raise ValueError(f"the skill roll takes {need}, not {len(faces)} faces")
    if any(not 1 <= face <= 20 for face in faces):
        raise ValueError(f"a d20 cannot show {faces}")
    kept = max(faces)
    return SkillRoll(faces, kept, penalty, target, kept + penalty <= target)


def skill_roll_chance(target: int, effects: CheckResult | None = None) -> Fraction:
    """The chance a d20 skill roll at or under `target` passes under `effects` (see
    `resolve_skill_roll`), exactly."""
    bane = effects is not None and effects.bane
    penalty = effects.skill_penalty if effects is not None else 0
    single = Fraction(max(0, min(target - penalty, 20)), 20)
    return single * single if bane else single


def threat_threshold_example(
    rule: ThreatThreshold, example: Example, ruleset: Ruleset
) -> dict[str, object]:
    """The threat state the TCs reach, and the rounds of suppression (the threshold's
    `example` hook: RP302 compares it with the example's `expect`)."""
    tcs, rating = example.given["tcs"], example.given["cuf"]
    computed: dict[str, object] = {"state": state(ruleset, tcs, cuf=rating).id}
    if "check-passed" in example.given:
        computed["suppression-rounds"] = rule.suppression_rounds(
            tcs, rating, bool(example.given["check-passed"])
        )
    return computed
