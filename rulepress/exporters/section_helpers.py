"""What a kind's section template may call besides the usual filters: figures the rules
compute, never typed by hand. Each function is a kind's `helpers` hook (rulepress.kinds):
helpers(ruleset, env, memo) -> the names its template sees."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import jinja2

from rulepress.compendium.model import Ruleset
from rulepress.exporters.memo import RenderMemo, reused, templates_key
from rulepress.models import OddsTable, PushRule, Skill, StepDice, TcSource, WeaponProfile
from rulepress.models.step_dice import push_reading
from rulepress.rules.odds import READINGS, exact_percent, within_rounding


class WeaponBlocks:
    """weapon_block(weapon, heading): a weapon's anchors, heading and tables, rendered by
    `sections/weapon.md.j2`, which sees only the weapon, the currency and the heading
    level: what it gives depends on nothing else, so a rebuild may reuse it."""

    def __init__(self, env: jinja2.Environment, currency: str, memo: RenderMemo | None) -> None:
        """With a `memo`, a block whose inputs the last export rendered is taken from it."""
        self.env, self.currency, self.memo = env, currency, memo

    def __call__(self, weapon: WeaponProfile, heading: int) -> str:
        """The weapon's block, rendered, or reused from the previous build."""
        return reused(self.memo, weapon_block, weapon, heading, self)

    def memo_key(self) -> str:
        """What the memo keys a block by besides the weapon: the templates and the currency."""
        return templates_key(self.env, self.currency)


def weapon_block(weapon: WeaponProfile, heading: int, blocks: WeaponBlocks) -> str:
    """Render one weapon's block (what WeaponBlocks reuses when it can)."""
    template = blocks.env.get_template("sections/weapon.md.j2")
    return template.render(weapon=weapon, currency=blocks.currency, heading=heading)


def weapon_blocks(ruleset: Ruleset, env: jinja2.Environment, memo: RenderMemo | None) -> dict:
    """A weapon section's `weapon_block`."""
    return {"weapon_block": WeaponBlocks(env, ruleset.info.currency or "", memo)}


@dataclass(frozen=True)
class OddsCell:
    """One cell of a printed odds table, computed: the exact chance by each reading of the push,
    and whether the printed figure agrees."""

    text: Fraction
    """P(at least one success), by the rule text's reading of the push: the figure printed
    beside the source's, which `agrees` compares with."""
    other: Fraction
    """The same by the other reading."""
    agrees: bool


def odds_cells(ruleset: Ruleset, env: jinja2.Environment, memo: RenderMemo | None) -> dict:
    """An odds table's `odds(table, skill, column)`: the cell's exact figures."""
    step_dice = ruleset.one(StepDice)
    text_reading = push_reading(ruleset.one(PushRule))
    other_reading = next(reading for reading in READINGS if reading != text_reading)

    def odds(table: OddsTable, skill: str | None, column: str) -> OddsCell:
        text = exact_percent(step_dice, table, skill, column, text_reading)
        other = exact_percent(step_dice, table, skill, column, other_reading)
        printed = table.rows[[r.skill for r in table.rows].index(skill)].percent[
            table.columns.index(column)
        ]
        # against the figure printed beside it, as the caption says (the rule text's
        # reading), not the bracketed one that happens to agree more often
        return OddsCell(text / 100, other / 100, within_rounding(printed, text))

    return {"odds": odds}


def skills_of_traits(ruleset: Ruleset, env: jinja2.Environment, memo: RenderMemo | None) -> dict:
    """The traits' `skills_using(trait id)`: the skills that test with the trait."""

    def skills_using(trait_id: str) -> list[Skill]:
        return [skill for skill in ruleset.all(Skill) if trait_id in skill.traits]

    return {"skills_using": skills_using}


def tc_amounts(ruleset: Ruleset, env: jinja2.Environment, memo: RenderMemo | None) -> dict:
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
