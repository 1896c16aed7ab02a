"""Acting order under the Cool rules (seed 002)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Combatant"]
"""The typed values its rules take and return, exported with the functions."""

State = Literal["steady", "not-afraid", "frightened", "shock", "scared", "panicked", "unconscious"]
# The outcomes of shock and fear rolls, in acting order. Frightened characters act after
# the steady and before the scared; those in shock and the scared (panicked) act last
# together, by initiative (rulings `frightened-act-after-steady`,
# `shocked-and-scared-acting-order`, `scared-means-panicked`). The unconscious do not act.
_RANK: dict[str, int] = {
    "steady": 0,
    "not-afraid": 0,
    "frightened": 1,
    "shock": 2,
    "scared": 2,
    "panicked": 2,
}


@dataclass(frozen=True)
class Combatant:
    """A character in the acting order, with the state its last shock or fear roll left it in."""

    name: str
    initiative: int
    state: State = "steady"


def acting_order(combatants: Sequence[Combatant]) -> list[Combatant]:
    """Who acts, first to last: steady characters by initiative, then the frightened, then
    those in shock and the scared; within a group, higher initiative first. Unconscious
    characters are left out."""
    for combatant in combatants:
        if combatant.state not in _RANK and combatant.state != "unconscious":
            raise ValueError(f"{combatant.name}: unknown state {combatant.state!r}")
    acting = [c for c in combatants if c.state != "unconscious"]
    return sorted(acting, key=lambda c: (_RANK[c.state], -c.initiative))
