"""IRIS rules that span documents (seed 003): the Willpower test against the Presence,
rolled as the skill test of the skill the corruption rules name; the skill test's worked
examples replayed, and its figures for `diff`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulepress.games.iris.models.corruption import CorruptionRules
from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.skill_test import SkillTest, SkillTestResult
from rulepress.games.iris.models.trait import Trait
from rulepress.plugin import Example, Ruleset


@dataclass(frozen=True)
class WillpowerTest:
    """A Willpower test resolved: the skill test's AP, the target they had to reach, and
    whether they did."""

    result: SkillTestResult
    target: int
    passed: bool


def willpower_skill(ruleset: Ruleset) -> Skill:
    """The skill a Willpower test rolls: the one the corruption rules name (ruling
    `willpower-test-is-a-skill-test`)."""
    rules = ruleset.require(CorruptionRules)
    if rules.willpower_skill is None:
        raise ValueError(f"the corruption rules of '{ruleset.id}' name no Willpower skill")
    skill = ruleset.get(rules.willpower_skill)
    if not isinstance(skill, Skill):
        raise ValueError(f"the Willpower skill '{rules.willpower_skill}' is not a skill")
    return skill


def willpower_trait_bonus(ruleset: Ruleset, trait_ranks: Mapping[str, int]) -> int:
    """The trait bonus of a Willpower test: the higher of the Willpower skill's two trait
    ranks, picked from a Character's ranks by trait id (`{"vigor": 3, "resolve": 4}`)."""
    skill = willpower_skill(ruleset)
    missing = [trait for trait in skill.traits if trait not in trait_ranks]
    if missing:
        raise ValueError(f"a {skill.name} test needs the rank of {', '.join(missing)}")
    return max(trait_ranks[trait] for trait in skill.traits)


def resolve_willpower(
    ruleset: Ruleset, faces: Sequence[int], trait_ranks: Mapping[str, int], target: int
) -> WillpowerTest:
    """Resolve a Willpower test from the faces rolled (one die per rank of the Willpower
    skill): it passes when its AP reach `target` (ruling `willpower-test-is-a-skill-test`)."""
    bonus = willpower_trait_bonus(ruleset, trait_ranks)
    result = ruleset.require(SkillTest).resolve(faces, [bonus])
    return WillpowerTest(result, target, result.total >= target)


def willpower_chance(
    ruleset: Ruleset, rank: int, trait_ranks: Mapping[str, int], target: int
) -> Fraction:
    """The exact chance that a Willpower test at this rank of the Willpower skill reaches
    `target` AP (ruling `willpower-test-is-a-skill-test`)."""
    bonus = willpower_trait_bonus(ruleset, trait_ranks)
    return ruleset.require(SkillTest).chance(rank, target, trait_bonus=bonus)


def skill_test_example(rule: SkillTest, example: Example, ruleset: Ruleset) -> dict[str, object]:
    """The AP the dice, the traits' ranks and their total come to."""
    traits = {t.id for t in ruleset.all(Trait)}
    ranks = [v for k, v in example.given.items() if k in traits and isinstance(v, int)]
    result = rule.resolve(example.given["faces"], ranks)
    return {"dice-ap": result.dice_ap, "trait-bonus": result.trait_bonus, "total": result.total}


def skill_test_figures(skill_test: SkillTest, ruleset: Ruleset) -> dict[str, Fraction]:
    """The chance of each AP or more at ranks 1-10."""
    figures: dict[str, Fraction] = {}
    for rank in range(1, 11):
        distribution = skill_test.distribution(rank)
        for ap in range(1, 2 * rank + 1):
            chance = sum((p for value, p in distribution.items() if value >= ap), Fraction(0))
            figures[f"chance of {ap} AP or more at rank {rank}"] = chance
    return figures
