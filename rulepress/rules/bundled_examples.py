"""The bundled kinds' example replays (their `Kind.example`, see rules.examples).

Each reads the example's `given`, calls the rule, and returns what the rule computes;
they move into their games' packages with the rest of the games' code.
"""

from __future__ import annotations

from rulepress.compendium.model import Ruleset
from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.games.iris.models.trait import Trait
from rulepress.models.common import Example

Computed = dict[str, object]


def skill_test_example(rule: SkillTest, example: Example, ruleset: Ruleset) -> Computed:
    """The AP the dice, the traits' ranks and their total come to."""
    traits = {t.id for t in ruleset.all(Trait)}
    ranks = [v for k, v in example.given.items() if k in traits and isinstance(v, int)]
    result = rule.resolve(example.given["faces"], ranks)
    return {"dice-ap": result.dice_ap, "trait-bonus": result.trait_bonus, "total": result.total}
