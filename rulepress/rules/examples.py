"""Replay the sources' worked examples through the resolution functions.

Each document kind with examples has a runner: it reads the example's `given`, calls the
rule, and returns what the rule computes for each key the example `expect`s. A key the
runner cannot compute is reported as such, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable

from rulepress.compendium.model import Ruleset
from rulepress.models import CriticalFailure, FearRoll, ShockRoll, SkillTest, ThreatThreshold, Trait
from rulepress.models.common import Example
from rulepress.rules import cuf

Computed = dict[str, object]


def _skill_test(rule: SkillTest, example: Example, ruleset: Ruleset) -> Computed:
    traits = {t.id for t in ruleset.all(Trait)}
    ranks = [v for k, v in example.given.items() if k in traits and isinstance(v, int)]
    result = rule.resolve(example.given["faces"], ranks)
    return {"dice-ap": result.dice_ap, "trait-bonus": result.trait_bonus, "total": result.total}


def _threshold(rule: ThreatThreshold, example: Example, ruleset: Ruleset) -> Computed:
    tcs, rating = example.given["tcs"], example.given["cuf"]
    computed: Computed = {"state": cuf.state(ruleset, tcs, cuf=rating).id}
    if "check-passed" in example.given:
        computed["suppression-rounds"] = rule.suppression_rounds(
            tcs, rating, bool(example.given["check-passed"])
        )
    return computed


def _shock(rule: ShockRoll, example: Example, ruleset: Ruleset) -> Computed:
    damage = example.given["damage"]
    return {"penalty": -damage, "target": rule.target(example.given["cool"], damage)}


def _fear(rule: FearRoll, example: Example, ruleset: Ruleset) -> Computed:
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


RUNNERS: dict[type, Callable[..., Computed]] = {
    SkillTest: _skill_test,
    ThreatThreshold: _threshold,
    ShockRoll: _shock,
    FearRoll: _fear,
}


def replay(document, example: Example, ruleset: Ruleset) -> Computed:
    """What the rule computes for the example; raises KeyError for a missing input."""
    runner = RUNNERS.get(type(document))
    if runner is None:
        return {}
    return runner(document, example, ruleset)
