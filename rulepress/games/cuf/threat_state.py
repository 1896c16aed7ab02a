"""Coolness Under Fire's threat states: the highest threshold a TC total exceeds, or the
calm state below every threshold (seed 000)."""

from __future__ import annotations

from dataclasses import dataclass

from rulepress.games.cuf.models.cuf import CufRating, ThreatThreshold
from rulepress.plugin import Ruleset


@dataclass(frozen=True)
class ThreatState:
    """The state a TC total puts a character in: the highest threat threshold it exceeds,
    or the calm state below every threshold (`threshold` None) when the TCs are at or under
    CUF. Its id and name are never None."""

    id: str
    """The threshold's id (`fear`, `fright`, `fight-or-flight`), or the calm state's (`calm`)."""
    name: str
    """The threshold's printed name, or the calm state's ("Calm")."""
    threshold: ThreatThreshold | None = None
    """The threshold exceeded, None in the calm state (no check is rolled)."""

    @classmethod
    def of(cls, threshold: ThreatThreshold) -> ThreatState:
        """The state of an exceeded threshold."""
        return cls(threshold.id, threshold.name, threshold)

    @property
    def exceeded(self) -> bool:
        """Whether any threshold is exceeded (a check is rolled)."""
        return self.threshold is not None


def calm(ruleset: Ruleset) -> ThreatState:
    """The state below every threshold, as the ruleset's CUF rating names it (ruling
    `calm-state` on the cuf rating)."""
    rating = ruleset.one(CufRating)
    calm_state = rating.calm if rating else CufRating.model_fields["calm"].default
    return ThreatState(calm_state.id, calm_state.name)


def state(ruleset: Ruleset, tcs: int, *, cuf: int) -> ThreatState:
    """The state the TCs reach for `cuf`: the highest threshold they exceed (only that
    check is rolled: ruling `highest-threshold-only`; "exceeds" is more than, so exactly
    2 x CUF is still Fear: ruling `exceeds-is-more-than`), or the calm state at or under
    CUF."""
    reached = [t for t in ruleset.all(ThreatThreshold) if t.reached(tcs, cuf)]
    if not reached:
        return calm(ruleset)
    return ThreatState.of(max(reached, key=lambda t: t.exceeds))


def check_due(
    ruleset: Ruleset, tcs: int, *, cuf: int, last: str | None = None
) -> ThreatState | None:
    """The state whose check the character rolls as the round's TC total is enacted, or
    None: a check is due on entering a state above the one `last` checked (the id of
    the threshold whose check was last rolled, None for none or after the penalties
    ended); staying in it, or falling to a lower one, rolls nothing again (ruling
    `check-on-entering-a-state` on the fear threshold)."""
    now = state(ruleset, tcs, cuf=cuf)
    if not now.exceeded:
        return None
    before = next((t for t in ruleset.all(ThreatThreshold) if t.id == last), None)
    if before is not None and now.threshold.exceeds <= before.exceeds:
        return None
    return now
