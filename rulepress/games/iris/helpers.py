"""What IRIS's section templates may call besides the usual filters (each a kind's
`helpers` hook): a weapon section's weapon blocks, the skills that test with a trait."""

from __future__ import annotations

import jinja2

from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.weapon import WeaponProfile
from rulepress.plugin import Ruleset


def weapon_blocks(ruleset: Ruleset, env: jinja2.Environment) -> dict:
    """A weapon section's `weapon_block(weapon, heading)`: a weapon's anchors, heading and
    tables, rendered by `sections/weapon.md.j2` with the ruleset's currency."""
    template = env.get_template("sections/weapon.md.j2")
    currency = ruleset.info.currency or ""

    def weapon_block(weapon: WeaponProfile, heading: int) -> str:
        return template.render(weapon=weapon, currency=currency, heading=heading)

    return {"weapon_block": weapon_block}


def skills_of_traits(ruleset: Ruleset, env: jinja2.Environment) -> dict:
    """The traits' `skills_using(trait id)`: the skills that test with the trait."""

    def skills_using(trait_id: str) -> list[Skill]:
        return [skill for skill in ruleset.all(Skill) if trait_id in skill.traits]

    return {"skills_using": skills_using}
