"""What a kind's section template may call besides the usual filters: figures the rules
compute, never typed by hand. Each function is a kind's `helpers` hook (rulepress.kinds):
helpers(ruleset, env) -> the names its template sees."""

from __future__ import annotations

import jinja2

from rulepress.compendium.model import Ruleset
from rulepress.games.cuf.models.threat import TcSource
from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.weapon import WeaponProfile


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


def tc_amounts(ruleset: Ruleset, env: jinja2.Environment) -> dict:
    """TC sources' and ladders' `tc_amount(source)`."""
    return {"tc_amount": tc_amount}


def tc_amount(source: TcSource) -> str:
    """A TC source's amount as a player reads it: `2 TC`, `1 to 4 TC`, `-1 TC per ally`."""
    if source.tc == "referee":
        text = "set by the referee"
    elif isinstance(source.tc, int):
        text = f"{source.tc} TC"
    else:
        text = f"{source.tc.min} to {source.tc.max} TC"
    if source.per:
        text += f" per {source.per.replace('-', ' ')}"
    if source.outstanding_success_tc is not None:
        text += f" ({source.outstanding_success_tc} TC on an Outstanding Success)"
    return text
