"""The bundled kinds' example replays (their `Kind.example`, see rules.examples).

Each reads the example's `given`, calls the rule, and returns what the rule computes;
they move into their games' packages with the rest of the games' code.
"""

from __future__ import annotations

from rulepress.compendium.model import Ruleset
from rulepress.games.cool.models import CriticalFailure, FearRoll, ShockRoll
from rulepress.games.cuf import rules as cuf
from rulepress.games.cuf.models.cuf import ThreatThreshold
from rulepress.models.common import Example

Computed = dict[str, object]


def threat_threshold_example(rule: ThreatThreshold, example: Example, ruleset: Ruleset) -> Computed:
    """The threat state the TCs reach, and the rounds of suppression."""
    tcs, rating = example.given["tcs"], example.given["cuf"]
    computed: Computed = {"state": cuf.state(ruleset, tcs, cuf=rating).id}
    if "check-passed" in example.given:
        computed["suppression-rounds"] = rule.suppression_rounds(
            tcs, rating, bool(example.given["check-passed"])
        )
    return computed


def shock_roll_example(rule: ShockRoll, example: Example, ruleset: Ruleset) -> Computed:
    """The penalty and the target of the shock roll."""
    damage = example.given["damage"]
    return {"penalty": -damage, "target": rule.target(example.given["cool"], damage)}


def fear_roll_example(rule: FearRoll, example: Example, ruleset: Ruleset) -> Computed:
    """Whether fear ends, and the fear roll's result."""
    computed: Computed = {}
    if "in-danger" in example.given:
        computed["fear-ends"] = not example.given["in-danger"]
    if "roll" in example.given:
        critical = ruleset.one(CriticalFailure)
        if critical is None:
            raise ValueError("the ruleset has no critical-failure document to judge the roll")
        target = rule.target(example.given["cool"])
        result = rule.resolve(example.given["roll"], target, critical)
        computed.update(result=result.outcome, margin=result.margin, penalty=result.penalty)
    return computed
