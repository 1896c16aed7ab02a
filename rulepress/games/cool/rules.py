"""Acting order under the Cool rules (seed 002), and the replay of the shock and fear
rolls' worked examples (their kinds' `example` hook)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rulepress.games.cool.models import CriticalFailure, FearRoll, ShockRoll
from rulepress.plugin import Example, Ruleset

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
    those in shock and the scared; within a group, higher initiative first, ties in the
    order given (ruling `higher-initiative-first`). Unconscious characters are left out."""
    for combatant in combatants:
        if combatant.state not in _RANK and combatant.state != "unconscious":
            raise ValueError(f"{combatant.name}: unknown state {combatant.state!r}")
    acting = [c for c in combatants if c.state != "unconscious"]
    return sorted(acting, key=lambda c: (_RANK[c.state], -c.initiative))


Computed = dict[str, object]


def shock_roll_example(rule: ShockRoll, example: Example, ruleset: Ruleset) -> Computed:
    """The penalty and the target of the shock roll."""
    damage = example.given["damage"]
    return {"penalty": -damage, "target": rule.target(example.given["cool"], damage)}


def fear_roll_example(rule: FearRoll, example: Example, ruleset: Ruleset) -> Computed:
    """Whether fear ends, and the fear roll's result."""
    computed: Computed = {}
    if "in-danger" in example.given:
        computed["fear-ends"] = rule.fear_ends(in_danger=example.given["in-danger"])
        if "result" in example.given:
            computed["state"] = rule.state_after(
                example.given["result"], in_danger=example.given["in-danger"]
            )
    if "can-flee" in example.given:
        computed["panic"] = rule.panic(can_escape=example.given["can-flee"]).outcome
    if "roll" in example.given:
        critical = ruleset.one(CriticalFailure)
        if critical is None:
            raise ValueError("the ruleset has no critical-failure document to judge the roll")
        target = rule.target(example.given["cool"])
        result = rule.resolve(example.given["roll"], target, critical)
        computed.update(result=result.outcome, margin=result.margin, penalty=result.penalty)
    return computed
