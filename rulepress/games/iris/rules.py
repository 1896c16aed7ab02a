"""IRIS rules that span documents (seed 003): the Willpower test against the Presence,
rolled as the skill test of the skill the corruption rules name, and what follows a
choice to resist or obey; the skill test's worked examples replayed, and its figures for
`diff`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rulepress.games.iris.models.corruption import (
    Consequences,
    CorruptionRules,
    ObedienceConsequences,
)
from rulepress.games.iris.models.presence import (
    CharacterState,
    Effect,
    Presence,
    PresenceSession,
)
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


@dataclass(frozen=True)
class PresenceOutcome:
    """What a choice against the Presence led to: `outcome` is `resisted` (a passed
    test) or `obeys` (a failed test, or the choice to obey); the effects applied, in
    order; the Character's state and the session after them; and, when the Character
    obeys, the Obedience Consequences of their Corruption after the effects (None when
    they resisted)."""

    outcome: Literal["resisted", "obeys"]
    effects: tuple[Effect, ...]
    character: CharacterState
    session: PresenceSession
    consequences: Consequences | None


def follow_resist(
    ruleset: Ruleset,
    test: WillpowerTest,
    character: CharacterState,
    session: PresenceSession | None = None,
    *,
    with_obey_effect: bool = False,
) -> PresenceOutcome:
    """What follows a Willpower test to resist the Presence, chained to its result: a
    pass drains 2 Stamina and dispels the Presence for the session (ruling
    `dispel-lasts-the-session`); a failure adds its +1 Corruption and the Character must
    obey: the Obedience Consequences at the Corruption it leaves (ruling
    `consequence-row-after-change`), without the obey choice's +5 Stamina and +1
    Corruption (ruling `failed-resist-obeys`) unless `with_obey_effect`, the ruling's
    alternative, adds them."""
    rules = ruleset.require(CorruptionRules)
    effects = [rules.resist(test.result.total, test.target)]
    if effects[0].must_obey and with_obey_effect:
        effects.append(rules.obey)
    obeys = effects[0].must_obey
    return _outcome(ruleset, effects, character, session or PresenceSession(), obeys=obeys)


def obey(
    ruleset: Ruleset, character: CharacterState, session: PresenceSession | None = None
) -> PresenceOutcome:
    """The choice to obey the Presence: +5 Stamina (up to the maximum, ruling
    `stamina-gain-up-to-maximum`) and +1 Corruption, then the Obedience Consequences at
    the new Corruption (ruling `consequence-row-after-change`)."""
    rules = ruleset.require(CorruptionRules)
    return _outcome(ruleset, [rules.obey], character, session or PresenceSession(), obeys=True)


def resist_presence(
    ruleset: Ruleset,
    presence: Presence,
    faces: Sequence[int],
    trait_ranks: Mapping[str, int],
    character: CharacterState,
    session: PresenceSession | None = None,
) -> PresenceOutcome:
    """Resist a Presence that manifests: the Willpower test from the faces rolled against
    its target, and what follows it (`follow_resist`). A Presence that does not manifest
    (no trigger, or dispelled for the session) has nothing to resist: a ValueError."""
    if not presence.manifests:
        raise ValueError("the Presence does not manifest: there is nothing to resist")
    test = resolve_willpower(ruleset, faces, trait_ranks, presence.target)
    return follow_resist(ruleset, test, character, session)


def _outcome(
    ruleset: Ruleset,
    effects: list[Effect],
    character: CharacterState,
    session: PresenceSession,
    *,
    obeys: bool,
) -> PresenceOutcome:
    """Apply the effects in order to the Character and the session; an obeying Character
    gets the consequences of the Corruption they are left with."""
    for effect in effects:
        character, session = character.apply(effect), session.apply(effect)
    if not obeys:
        return PresenceOutcome("resisted", tuple(effects), character, session, None)
    consequences = ruleset.require(ObedienceConsequences).consequences(character.corruption)
    return PresenceOutcome("obeys", tuple(effects), character, session, consequences)


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
