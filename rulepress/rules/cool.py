"""Acting order under the Cool rules (seed 002)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

State = Literal["steady", "frightened", "shock", "scared"]
# Frightened characters act before scared ones; those in shock and the scared (panicked)
# act last together, by initiative (ruling `shocked-and-scared-acting-order`).
_RANK: dict[str, int] = {"steady": 0, "frightened": 1, "shock": 2, "scared": 2}


@dataclass(frozen=True)
class Combatant:
    name: str
    initiative: int
    state: State = "steady"


def acting_order(combatants: Sequence[Combatant]) -> list[Combatant]:
    """Who acts first: steady characters by initiative, then the frightened, then those in
    shock and the scared; within a group, higher initiative first."""
    return sorted(combatants, key=lambda c: (_RANK[c.state], -c.initiative))
