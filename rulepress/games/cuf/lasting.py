"""Coolness Under Fire after a threat check (seed 000): the penalties a passed check leaves
until the TCs drop, the effective Initiative under them, and flight or surrender."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rulepress.games.cuf.models.cuf import CheckResult, ThreatThreshold
from rulepress.games.cuf.threat_state import ThreatState, calm, state
from rulepress.plugin import Ruleset


@dataclass(frozen=True)
class Lasting:
    """What a threat check still brings at a TC total: the threshold whose penalties last
    (None once they have ended), its Initiative and skill penalties and BANE, the state id
    they come from (the calm state's once they have ended) and the check's result."""

    state: str
    threshold: ThreatThreshold | None
    initiative_penalty: int = 0
    skill_penalty: int = 0
    bane: bool = False
    effects: CheckResult | None = None
    """The check's result while its penalties last, for `Check.resolve` and
    `resolve_skill_roll`; None once they have ended."""


def _threshold(ruleset: Ruleset, passed: str | ThreatThreshold) -> ThreatThreshold:
    found = ruleset.get(passed) if isinstance(passed, str) else passed
    if not isinstance(found, ThreatThreshold):
        raise ValueError(f"no threat threshold {passed!r}")
    return found


def lasting(
    ruleset: Ruleset,
    tcs: int | Sequence[int],
    *,
    cuf: int,
    passed: str | ThreatThreshold | None,
    failed: str | ThreatThreshold | None = None,
) -> Lasting:
    """The penalties the check of `passed` (a threshold's id; None for none) leaves at the
    TC total `tcs`, or after the totals of each round since the check (`tcs` a sequence,
    the check's round first): "If the PC/NPC makes their roll for FEAR, they still suffer
    a -1 to Initiative rolls until their TCs are reduced to their CUF score" (-2 for
    Fright until 2 x CUF, -3 and a BANE for Fight or Flight until below 3 x CUF: ruling
    `penalties-end-below` on the threat threshold). Once they end they stay ended, though
    the TCs rise again (ruling `penalties-end-for-good` on the threat threshold); the
    skill penalty ends with them (ruling `fright-skill-penalty-end` on the threat
    threshold). Only the latest check's penalties count, never several added (ruling
    `latest-check-penalties` on the threat threshold): pass that one. A `failed` check
    instead leaves the BANE its failure brings (a failed Fright check's "and then a
    BANE"), which ends as a passed check's penalties do (ruling `bane-duration` on the
    threat threshold); a failed check with no BANE leaves nothing lasting."""
    totals = [tcs] if isinstance(tcs, int) else list(tcs)
    if not totals or any(total < 0 for total in totals):
        raise ValueError(f"TC totals must be one or more counts, not {totals}")
    if passed is not None and failed is not None:
        raise ValueError("give the latest check only: passed or failed, not both")
    checked = passed if passed is not None else failed
    if checked is None:
        return Lasting(calm(ruleset).id, None)
    threshold = _threshold(ruleset, checked)
    result = threshold.result(passed is not None)
    brings = result.bane or result.skill_penalty or result.initiative_penalty
    if not brings or not all(threshold.penalties_last(total, cuf) for total in totals):
        return Lasting(calm(ruleset).id, None)
    return Lasting(
        threshold.id,
        threshold,
        result.initiative_penalty,
        result.skill_penalty,
        result.bane,
        result,
    )


@dataclass(frozen=True)
class Initiative:
    """A character's Initiative under a passed check's penalties: the rating, the penalty
    still lasting (0 once it has ended), and the Initiative they roll with."""

    rating: int
    penalty: int
    initiative: int
    state: str
    """The id of the threshold whose penalty applies, or the calm state's."""


def initiative(
    ruleset: Ruleset,
    tcs: int | Sequence[int],
    *,
    cuf: int,
    rating: int,
    passed: str | ThreatThreshold | None,
    failed: str | ThreatThreshold | None = None,
) -> Initiative:
    """The effective Initiative of a character with Initiative `rating` who passed the
    check of `passed`, at the TC total `tcs` (or after each round's totals since, as
    `lasting`): the rating plus the penalty while it lasts. Nothing floors it: below 1 is
    left to v2.2's own Initiative rules (ruling `initiative-not-floored` on the threat
    threshold)."""
    penalties = lasting(ruleset, tcs, cuf=cuf, passed=passed, failed=failed)
    penalty = penalties.initiative_penalty
    return Initiative(rating, penalty, rating + penalty, penalties.state)


@dataclass(frozen=True)
class FleeOrSurrender:
    """What a threat check's result means for staying in the fight: `outcome` is `flee`
    or `surrender` where the result says "either flee or surrender based on the
    situation", otherwise `stays` (suppressed or not); with the rounds of suppression and
    whether a BANE follows."""

    state: ThreatState
    passed: bool
    outcome: Literal["stays", "flee", "surrender"]
    suppression_rounds: int
    bane: bool


def flee_or_surrender(
    ruleset: Ruleset, tcs: int, *, cuf: int, passed: bool, can_flee: bool = True
) -> FleeOrSurrender:
    """Whether the character whose threat check at `tcs` was `passed` or failed stays in
    the fight, flees or surrenders: a result that says "either flee or surrender based on
    the situation" (a failed Fight-or-Flight check) flees when the character `can_flee`
    (a way out of the fight) and surrenders otherwise (ruling `flee-unless-cornered` on
    the threat threshold); a failed Fight-or-Flight check suppresses no rounds (ruling
    `failed-flight-no-suppression` on the threat threshold)."""
    reached = state(ruleset, tcs, cuf=cuf)
    threshold = reached.threshold
    if threshold is None:
        return FleeOrSurrender(reached, passed, "stays", 0, False)
    result = threshold.result(passed)
    outcome: Literal["stays", "flee", "surrender"] = "stays"
    if result.flee_or_surrender:
        outcome = "flee" if can_flee else "surrender"
    rounds = threshold.suppression_rounds(tcs, cuf, passed)
    return FleeOrSurrender(reached, passed, outcome, rounds, result.bane)
