"""The cases of tests/test_checks.py: for every registered check, failing inputs with the
findings they must give and passing inputs that must not give them, each a small
compendium over `helpers.base_tree()`. Kept apart so other tests (the anchors' property)
can read the same cases without importing a test module."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rulepress.errors import Level
from tests.helpers import (
    ACUITY_FILE,
    RULESET,
    RULESET_FILE,
    SECTION,
    SECTION_FILE,
    SKILL,
    SKILL_FILE,
    TRAITS,
    WEAPON_FILE,
    weapon,
)

Files = dict[str, str | bytes | None]
"""Paths to write over `base_tree()`; None removes a file of the base tree."""

# -- small documents -------------------------------------------------------------------

RESOLVE = "demo/traits/resolve.yaml"
RULE_FILE = "demo/rules/reading-tables.yaml"

RULE = """\
kind: rule
id: reading-tables
title: Reading Tables
chapter: Weapons
order: 1
text: Find the row for your AP.
"""

GIVEN = "{skill: bio-lore, rank: 6, faces: [1, 2, 3, 4, 5, 6], acuity: 5}"
EXPECT = "{dice-ap: 4, trait-bonus: 5, total: 9}"
SKILL_TEST = """\
kind: skill-test
id: skill-test
name: Skill Test
die: d6
dice_per_rank: 1
ap_by_face: {4: 1, 5: 1, 6: 2}
trait_bonus: higher-of-skill-traits
text: Roll one die per rank.
examples:
  - id: truck-repair
    title: Steve repairs his truck
    text: Steve repairs his truck.
    given: %s
    expect: %s
"""


def skill_test(given: str = GIVEN, expect: str = EXPECT) -> Files:
    """The skill test rule with one worked example (Steve's truck repair, seed 003), whose
    `given` mapping opens at line 13, column 12 and `expect` at line 14, column 13."""
    return {"demo/skill-test.yaml": SKILL_TEST % (given, expect)}


STEP_DICE = """\
kind: step-dice
id: step-dice
name: Task Resolution
text: A 6 or more is a success; a 10 or more counts twice.
levels: [{level: D, die: d6}, {level: C, die: d8}]
successes: [{at_least: 6, successes: 1}, {at_least: 10, successes: 2}]
"""

PUSH = """\
kind: push-rule
id: push
name: Pushing Your Roll
text: Pick up any dice that neither rolled a 1 nor a success and roll them again.
rerolls: neither-one-nor-success
costs: [{attributes: [STR, AGL], cost: damage}, {attributes: [INT, EMP], cost: stress}]
gear_takes_damage: true
gear_reliability_loss: 1
when: [failed, more-successes-needed]
pushes_per_roll: 1
"""

ODDS_FILE = "demo/dice/odds.yaml"


def odds(
    roll: str = "initial", alone: str = "17, 38", with_d6: str = "31, 48", push: str | None = None
) -> Files:
    """The step dice, a push rule reading `push` (none without it) and an odds table of
    attribute d6 and d8, alone (line 8) and with skill d6 (line 9, d8's cell at column 31).
    The defaults are the exact initial-roll chances, rounded."""
    table = (
        f"kind: odds-table\nid: odds\nname: Odds of Success\nroll: {roll}\n"
        f"corner: Attribute / Skill\ncolumns: [d6, d8]\nrows:\n"
        f"  - {{skill: null, percent: [{alone}]}}\n  - {{skill: d6, percent: [{with_d6}]}}\n"
    )
    files: Files = {"demo/dice/step-dice.yaml": STEP_DICE, ODDS_FILE: table}
    if push:
        files["demo/dice/push.yaml"] = PUSH.replace("neither-one-nor-success", push)
    return files


PUSHED_EVERY_NON_SUCCESS = {"roll": "pushed", "alone": "31, 61", "with_d6": "52, 73"}
"""Pushed chances when every die that is not a success is rolled again (the printed table's
reading); when a 1 is kept instead, d6 alone is 27.8%, not 31%."""

CORRUPTION_RULES = """\
kind: corruption-rules
id: corruption-rules
name: Corruption
text: Corruption rises with every Aug and Trait rank.
per_aug: 2
per_trait_rank: 1
uncounted: Starting ranks do not count.
counted_trait_ranks: above-natural
presence_triggers: []
target_text: The target AP is your Corruption.
target_raises: []
timing: Test at once.
resist_pass: {text: Resisted., stamina: -2, dispels_for_session: true}
resist_fail: {text: Obeyed., corruption: 1, must_obey: true}
obey: {text: Obey., stamina: 5, corruption: 1}
"""

CP_SPENDING = """\
kind: cp-spending
id: cp-spending
name: Spending CP
text: What character points buy.
headers: [Benefit, CP cost, Additional Costs]
rows:
  - {benefit: +1 Trait rank, buys: trait-rank, cp: 2, corruption: 1}
  - {benefit: Unlock new Aug, buys: new-aug, cp: 4, corruption: 3}
"""

CORRUPTION_TRIGGERS = """\
kind: corruption-triggers
id: corruption-triggers
name: Corruption Triggers
headers: [Corruption level, Trigger]
rows:
  - {level: 10, events: torture}
  - {level: 14, events: murder}
  - {level: 12, events: severe abuse}
"""

OBEDIENCE = """\
kind: obedience-consequences
id: obedience-consequences
name: Obedience Consequences
headers: [Corruption level, Consequence]
rows:
  - {level: 10, options: [Find help]}
  - {level: 10, options: [Flee the scene]}
"""

LADDER = """\
kind: tc-ladder
id: wound-ladder
name: Own wounds
steps: [wounded, seriously-wounded, killed]
stated_in_source: true
"""


def tc_source(doc_id: str, tc: object, effect: str = "adds", extra: str = "") -> str:
    """A TC source; `tc` stands on line 6, column 5."""
    name = doc_id.replace("-", " ").capitalize()
    return (
        f"kind: tc-source\nid: {doc_id}\nname: {name}\neffect: {effect}\norder: 1\n"
        f"tc: {tc}\n{extra}"
    )


def wound_ladder(wounded: object = 1, seriously: object = 2, killed: object = 4) -> Files:
    return {
        "demo/tc/wounded.yaml": tc_source("wounded", wounded),
        "demo/tc/seriously-wounded.yaml": tc_source("seriously-wounded", seriously),
        "demo/tc/killed.yaml": tc_source("killed", killed),
        "demo/tc/wound-ladder.yaml": LADDER,
    }


def table(aps=tuple(range(1, 31)), **columns: Callable[[int], object]) -> list[str]:
    """AP rows written as `weapon()` writes them; `columns` gives a column as a function of AP
    (by default damage and defense equal the AP, move is Base and range is 10)."""
    spec = {
        "damage": lambda ap: ap,
        "defense": lambda ap: ap,
        "move": lambda ap: "Base",
        "range": lambda ap: 10,
        **columns,
    }
    return [
        "  - {"
        + ", ".join(
            [f"ap: {ap}", *(f"{c}: {spec[c](ap)}" for c in ("damage", "defense", "move", "range"))]
        )
        + "}"
        for ap in aps
    ]


def flat(aps=tuple(range(1, 31))) -> list[str]:
    """Rows whose figures never change, so only the AP column can be wrong."""
    return table(aps, damage=lambda ap: 5, defense=lambda ap: 5)


def profile(
    doc_id: str = "test-pistol", *, rows: list[str] | None = None, head: str = "", **fields: object
) -> str:
    """`weapon()` with some top-level fields changed (None removes one). A field `weapon()`
    does not write is added just before `table:`. The header follows the name unless given;
    `rows=[]` leaves the table out."""
    text = weapon(rows, head).replace("id: test-pistol", f"id: {doc_id}")
    if "name" in fields and "header" not in fields:
        fields["header"] = fields["name"]
    extra = ""
    for name, value in fields.items():
        line = re.compile(rf"^{name}: .*\n", re.MULTILINE)
        new = "" if value is None else f"{name}: {value}\n"
        if line.search(text):
            text = line.sub(new, text, count=1)
        else:
            extra += new
    text = text.replace("table:\n", f"{extra}table:\n")
    return text.replace("table:\n\n", "") if rows == [] else text


def draft(text: str) -> str:
    return text.replace("\nid:", "\nstatus: draft\nid:", 1)


def second_weapon(doc_id: str = "zip-gun", **fields: object) -> dict[str, str]:
    """A second weapon, filed after the test pistol, with its own name and (by default) tier 2."""
    fields = {"name": doc_id.replace("-", " ").title(), "tier": 2, **fields}
    return {f"demo/weapons/{doc_id}.yaml": profile(doc_id, **fields)}


SECOND_RULE_FILE = "demo/rules/exhaustion.yaml"


def boundary_rules(first: str, second: str) -> Files:
    """Two rules that each state a boundary of stamina at 0 (`first`, `second`: the
    comparisons); each boundary opens at line 8, column 5 of its file."""

    def rule(doc_id: str, comparison: str) -> str:
        return RULE.replace("reading-tables", doc_id) + (
            f'boundaries:\n  - {{quantity: stamina, comparison: "{comparison}", value: 0, '
            f"text: Stamina {comparison} 0}}\n"
        )

    return {RULE_FILE: rule("reading-tables", first), SECOND_RULE_FILE: rule("exhaustion", second)}


def rule_text(text: str) -> Files:
    """The reading-tables rule with another text (`text:` at line 6, column 7)."""
    return {RULE_FILE: RULE.replace("text: Find the row for your AP.", f"text: {text}")}


# -- the tables --------------------------------------------------------------------------

RIFLES = {
    "demo/sections/rifles.yaml": SECTION.replace("pistols", "rifles").replace("Pistols", "Rifles")
}
"""A second weapon section, for the checks that compare sections."""


@dataclass(frozen=True)
class Fails:
    """An input that must produce exactly these findings of `code`: one at file:line:col
    with `level`, and one at each place of `more`; besides them, exactly the codes `also`."""

    example: str
    files: Files
    code: str
    file: str
    line: int
    col: int
    level: Level
    more: tuple[tuple[str, int, int], ...] = ()
    also: tuple[str, ...] = ()
    bug: str | None = None
    """Why this case fails today: a bug in the check, kept visible as a strict xfail."""


@dataclass(frozen=True)
class Passes:
    """An input that must not produce `code`; the findings it gives are exactly `also`."""

    example: str
    files: Files
    code: str
    also: tuple[str, ...] = ()
    bug: str | None = None


ERR, WARN, INFO = Level.ERROR, Level.WARNING, Level.INFO

FAILING = [
    # RP201 duplicate-id
    Fails(
        "a rule that takes a weapon's id",
        {"demo/rules/test-pistol.yaml": RULE.replace("reading-tables", "test-pistol")},
        "RP201",
        WEAPON_FILE,
        2,
        5,
        ERR,
    ),
    Fails(
        "skill copied to a second file",
        {"demo/skills/copy-of-bio-lore.yaml": SKILL},
        "RP201",
        "demo/skills/copy-of-bio-lore.yaml",
        2,
        5,
        ERR,
        also=("RP214",),
    ),
    # RP202 slug-reused
    Fails(
        "new document that takes a renamed trait's old id",
        {
            ACUITY_FILE: TRAITS[ACUITY_FILE] + "previous_ids: [wits]\n",
            RULE_FILE: RULE.replace("id: reading-tables", "id: wits"),
        },
        "RP202",
        RULE_FILE,
        2,
        5,
        ERR,
    ),
    Fails(
        "two documents that claim the same previous id",
        {
            ACUITY_FILE: TRAITS[ACUITY_FILE] + "previous_ids: [wits]\n",
            RESOLVE: TRAITS[RESOLVE] + "previous_ids: [grit, wits]\n",
        },
        "RP202",
        RESOLVE,
        5,
        22,
        ERR,
    ),
    # RP203 dangling-reference
    Fails(
        "weapon whose section is misspelt",
        {WEAPON_FILE: profile(section="pistol")},
        "RP203",
        WEAPON_FILE,
        6,
        10,
        ERR,
    ),
    Fails(
        "rule that sees also a document that does not exist",
        {RULE_FILE: RULE + "see_also: [test-pistol, nothing]\n"},
        "RP203",
        RULE_FILE,
        7,
        25,
        ERR,
    ),
    Fails(
        "ladder step that is a trait, not a tc source",
        {**wound_ladder(), "demo/tc/wound-ladder.yaml": LADDER.replace("killed]", "acuity]")},
        "RP203",
        "demo/tc/wound-ladder.yaml",
        4,
        37,
        ERR,
    ),
    Fails(
        "rule text whose doc: link names a document that does not exist",
        rule_text("Find the row, see [the table](doc:nothing)."),
        "RP203",
        RULE_FILE,
        6,
        7,
        ERR,
    ),
    # RP204 draft-referenced
    Fails(
        "published section whose skill is a draft",
        {SKILL_FILE: draft(SKILL)},
        "RP204",
        SECTION_FILE,
        5,
        8,
        ERR,
        also=("RP211",),
    ),
    Fails(
        "published rule that sees also a draft weapon",
        {WEAPON_FILE: draft(weapon()), RULE_FILE: RULE + "see_also: [test-pistol]\n"},
        "RP204",
        RULE_FILE,
        7,
        12,
        ERR,
        also=("RP211",),
    ),
    # RP205 example-reference
    Fails(
        "skill test example that uses a skill the lists lack",
        skill_test(GIVEN.replace("bio-lore", "mech-lore")),
        "RP205",
        "demo/skill-test.yaml",
        13,
        20,
        WARN,
    ),
    # RP206 ap-row-missing
    Fails(
        "table that stops at AP 29",
        {WEAPON_FILE: weapon(table(range(1, 30)))},
        "RP206",
        WEAPON_FILE,
        13,
        1,
        ERR,
    ),
    Fails(
        "table of only the odd APs",
        {WEAPON_FILE: weapon(table(range(1, 31, 2)))},
        "RP206",
        WEAPON_FILE,
        13,
        1,
        ERR,
    ),
    # RP207 ap-row-repeated
    Fails(
        "table with AP 30 written twice",
        {WEAPON_FILE: weapon(table() + table([30]))},
        "RP207",
        WEAPON_FILE,
        44,
        10,
        ERR,
    ),
    Fails(
        "draft table with a repeated row",
        {WEAPON_FILE: draft(weapon(table(range(1, 11)) + table([10])))},
        "RP207",
        WEAPON_FILE,
        25,
        10,
        ERR,
        also=("RP211",),
    ),
    # RP208 ap-row-order
    Fails(
        "row for AP 13 after the row for AP 14",
        {WEAPON_FILE: weapon(flat([*range(1, 13), 14, 13, *range(15, 31)]))},
        "RP208",
        WEAPON_FILE,
        27,
        10,
        ERR,
    ),
    Fails(
        "table out of order twice reports only the first place",
        {
            WEAPON_FILE: weapon(
                flat([*range(1, 10), 11, 10, *range(12, 20), 21, 20, *range(22, 31)])
            )
        },
        "RP208",
        WEAPON_FILE,
        24,
        10,
        ERR,
    ),
    # RP209 figure-falls
    Fails(
        "defense that falls at AP 20",
        {WEAPON_FILE: weapon(table(defense=lambda ap: 1 if ap == 20 else ap))},
        "RP209",
        WEAPON_FILE,
        33,
        35,
        WARN,
    ),
    Fails(
        "damage that falls at the last row",
        {WEAPON_FILE: weapon(table(damage=lambda ap: 3 if ap == 30 else ap))},
        "RP209",
        WEAPON_FILE,
        43,
        22,
        WARN,
    ),
    # RP210 off-band-step
    Fails(
        "range that steps at AP 20 where no other table steps",
        {
            WEAPON_FILE: weapon(table(range=lambda ap: 10 if ap < 11 else 12)),
            **second_weapon(rows=table(range=lambda ap: 10 if ap < 11 else 12 if ap < 20 else 14)),
        },
        "RP210",
        "demo/weapons/zip-gun.yaml",
        33,
        58,
        WARN,
    ),
    Fails(
        "move that steps at AP 20 where no other table steps",
        {
            WEAPON_FILE: weapon(table(move=lambda ap: "Base" if ap < 11 else 1)),
            **second_weapon(rows=table(move=lambda ap: "Base" if ap < 11 else 1 if ap < 20 else 2)),
        },
        "RP210",
        "demo/weapons/zip-gun.yaml",
        33,
        45,
        WARN,
    ),
    Fails(
        "off-band step after a repeated AP row is reported at the row that changes",
        {
            WEAPON_FILE: weapon(table(range=lambda ap: 10 if ap < 11 else 12)),
            **second_weapon(
                rows=table(range(1, 21), range=lambda ap: 10 if ap < 11 else 12)
                + table(range(20, 31), range=lambda ap: 14)
            ),
        },
        "RP210",
        "demo/weapons/zip-gun.yaml",
        34,
        58,
        WARN,
        also=("RP207",),
    ),
    # RP211 draft
    Fails("rule marked as a draft", {RULE_FILE: draft(RULE)}, "RP211", RULE_FILE, 2, 9, WARN),
    Fails(
        "weapon placeholder marked as a draft",
        {WEAPON_FILE: draft(profile(name=None, header="Tactical Railgun", rows=[]))},
        "RP211",
        WEAPON_FILE,
        2,
        9,
        WARN,
    ),
    # RP212 incomplete-profile
    Fails(
        "published weapon with both magazine and attacks",
        {WEAPON_FILE: profile(attacks=2)},
        "RP212",
        WEAPON_FILE,
        13,
        1,
        ERR,
    ),
    Fails(
        "published weapon with neither magazine nor attacks",
        {WEAPON_FILE: profile(magazine=None)},
        "RP212",
        WEAPON_FILE,
        1,
        1,
        ERR,
    ),
    Fails(
        "published weapon without an AP table",
        {WEAPON_FILE: weapon().split("table:")[0]},
        "RP212",
        WEAPON_FILE,
        1,
        1,
        ERR,
    ),
    Fails(
        "published weapon without a name",
        {WEAPON_FILE: profile(name=None, header="Test Pistol")},
        "RP212",
        WEAPON_FILE,
        1,
        1,
        ERR,
    ),
    # RP213 header-mismatch
    Fails(
        "header that names another weapon than the profile",
        {WEAPON_FILE: profile(header="Scattergun")},
        "RP213",
        WEAPON_FILE,
        4,
        9,
        WARN,
    ),
    Fails(
        "header that is only longer than the name",
        {WEAPON_FILE: profile(header="Test Pistol Mk II")},
        "RP213",
        WEAPON_FILE,
        4,
        9,
        INFO,
    ),
    Fails(
        "unnamed profile whose header is another weapon's name",
        second_weapon(name=None, header="Test Pistol"),
        "RP213",
        "demo/weapons/zip-gun.yaml",
        3,
        9,
        WARN,
        also=("RP212", "RP214"),
    ),
    # RP214 duplicate-name
    Fails(
        "two traits with one name",
        {RESOLVE: TRAITS[RESOLVE].replace("name: Resolve", "name: Acuity")},
        "RP214",
        RESOLVE,
        3,
        7,
        WARN,
    ),
    Fails(
        "two weapons headed alike",
        second_weapon(header="test pistol!"),
        "RP214",
        "demo/weapons/zip-gun.yaml",
        4,
        9,
        WARN,
        also=("RP213",),
    ),
    # RP215 column-named-two-ways
    Fails(
        "one table says Speed where the others say Move",
        {**second_weapon(), **second_weapon("zulu-rifle", tier=3, move_column="Speed")},
        "RP215",
        "demo/weapons/zulu-rifle.yaml",
        13,
        14,
        WARN,
    ),
    Fails(
        "one pistol counts attacks where the others count magazine rounds",
        {**second_weapon(magazine=None, attacks=4), **second_weapon("zulu-rifle", tier=3)},
        "RP215",
        "demo/weapons/zip-gun.yaml",
        12,
        10,
        WARN,
    ),
    Fails(
        "one section counts attacks where most profiles of the ruleset count magazine rounds",
        {
            **RIFLES,
            **second_weapon("alpha-gun"),
            **second_weapon("zip-gun", tier=3),
            **second_weapon("zulu-rifle", section="rifles", magazine=None, attacks=4),
        },
        "RP215",
        "demo/weapons/zulu-rifle.yaml",
        12,
        10,
        WARN,
    ),
    # RP216 conflicting-figures
    Fails(
        "corruption per Aug stated as 2 in the rules and 3 in the CP table",
        {"demo/corruption/rules.yaml": CORRUPTION_RULES, "demo/cp/spending.yaml": CP_SPENDING},
        "RP216",
        "demo/corruption/rules.yaml",
        5,
        10,
        WARN,
        more=(("demo/cp/spending.yaml", 8, 65),),
    ),
    # RP217 tier-order
    Fails(
        "tier 2 pistol that costs less than tier 1",
        {WEAPON_FILE: profile(cost=10), **second_weapon(cost=8)},
        "RP217",
        "demo/weapons/zip-gun.yaml",
        11,
        7,
        WARN,
    ),
    Fails(
        "tier 2 pistol that is commoner than tier 1",
        second_weapon(rarity="Ubiquitous"),
        "RP217",
        "demo/weapons/zip-gun.yaml",
        12,
        9,
        WARN,
    ),
    Fails(
        "repeated tier 2 pistol cheaper than tier 1 is reported whatever the file order",
        {
            WEAPON_FILE: profile(cost=10),
            **second_weapon("alpha-gun", cost=20),
            **second_weapon(cost=5),
        },
        "RP217",
        "demo/weapons/zip-gun.yaml",
        11,
        7,
        WARN,
        also=("RP221",),
    ),
    # RP225 tier-weaker-table
    Fails(
        "tier 2 pistol with less damage than tier 1 at AP 1-4 and less range at every AP",
        second_weapon(rows=table(damage=lambda ap: ap - 1 if ap < 5 else ap, range=lambda ap: 9)),
        "RP225",
        "demo/weapons/zip-gun.yaml",
        14,
        21,
        INFO,
        more=(("demo/weapons/zip-gun.yaml", 14, 55),),
    ),
    # RP218 level-order
    Fails(
        "corruption trigger rows 10, 14, 12",
        {"demo/corruption/triggers.yaml": CORRUPTION_TRIGGERS},
        "RP218",
        "demo/corruption/triggers.yaml",
        8,
        13,
        ERR,
    ),
    Fails(
        "obedience table that repeats level 10",
        {"demo/corruption/obedience.yaml": OBEDIENCE},
        "RP218",
        "demo/corruption/obedience.yaml",
        7,
        13,
        ERR,
    ),
    # RP219 ladder-order
    Fails(
        "ladder whose top step counts less than the step below",
        wound_ladder(1, 2, 1),
        "RP219",
        "demo/tc/wound-ladder.yaml",
        4,
        37,
        WARN,
    ),
    Fails(
        "ladder step that the referee sets",
        wound_ladder(1, "referee", 4),
        "RP219",
        "demo/tc/wound-ladder.yaml",
        4,
        18,
        WARN,
    ),
    # RP220 tc-sign
    Fails(
        "tc source that adds with a negative amount",
        {"demo/tc/attacked.yaml": tc_source("attacked", -1)},
        "RP220",
        "demo/tc/attacked.yaml",
        6,
        5,
        ERR,
    ),
    Fails(
        "tc source that reduces with a positive amount",
        {"demo/tc/cover.yaml": tc_source("cover", 1, "reduces")},
        "RP220",
        "demo/tc/cover.yaml",
        6,
        5,
        ERR,
    ),
    Fails(
        "tc source that adds a range reaching below zero",
        {"demo/tc/rumour.yaml": tc_source("rumour", "{min: -1, max: 2}")},
        "RP220",
        "demo/tc/rumour.yaml",
        6,
        5,
        ERR,
    ),
    Fails(
        "tc source whose outstanding success adds a negative amount",
        {
            "demo/tc/intimidation.yaml": tc_source(
                "intimidation", 1, extra="outstanding_success_tc: -2\n"
            )
        },
        "RP220",
        "demo/tc/intimidation.yaml",
        7,
        25,
        ERR,
    ),
    # RP221 tier-repeated
    Fails(
        "second published tier 1 pistol",
        second_weapon(tier=1),
        "RP221",
        "demo/weapons/zip-gun.yaml",
        5,
        7,
        WARN,
    ),
    Fails(
        "draft placeholder in the tier of a published pistol: one finding, its draft's",
        second_weapon(tier=1, status="draft"),
        "RP211",
        "demo/weapons/zip-gun.yaml",
        13,
        9,
        WARN,
    ),
    # RP301 printed-odds-differ
    Fails(
        "odds table that prints 49% for d8 + d6 where the rules give 47.9%",
        odds(with_d6="31, 49"),
        "RP301",
        ODDS_FILE,
        9,
        31,
        WARN,
        also=("RP303",),
    ),
    Fails(
        "pushed odds table that re-rolls the 1s the push rule keeps",
        odds(**PUSHED_EVERY_NON_SUCCESS, push="neither-one-nor-success"),
        "RP301",
        ODDS_FILE,
        4,
        7,
        WARN,
        also=("RP304",),
    ),
    Fails(
        "odds table that prints 30% for d6 + d6 where the rules give 30.6%",
        odds(with_d6="30, 48"),
        "RP301",
        ODDS_FILE,
        9,
        27,
        WARN,
        also=("RP303",),
    ),
    # RP303 odds-table-rounding
    Fails(
        "odds table whose every cell is the exact chance rounded down",
        odds(alone="16, 37", with_d6="30, 47"),
        "RP303",
        ODDS_FILE,
        7,
        1,
        INFO,
        also=("RP301",),
    ),
    # RP304 pushed-odds-under-text-reading
    Fails(
        "pushed odds table of another reading, seen cell by cell under the rule text's",
        odds(**PUSHED_EVERY_NON_SUCCESS, push="neither-one-nor-success"),
        "RP304",
        ODDS_FILE,
        7,
        1,
        INFO,
        also=("RP301",),
    ),
    # RP222 odds-row-length
    Fails(
        "odds row with a cell more than the table has columns",
        odds(with_d6="31, 48, 99"),
        "RP222",
        ODDS_FILE,
        9,
        26,
        ERR,
    ),
    # RP223 generated-name
    Fails(
        "a rule whose chapter is named like the rulings page, in capitals",
        {RULE_FILE: RULE.replace("chapter: Weapons", "chapter: RULINGS")},
        "RP223",
        RULE_FILE,
        4,
        10,
        ERR,
    ),
    # RP224 chapter-plan
    Fails(
        "a chapter that holds a kind shown inside another kind's sections",
        {RULESET_FILE: RULESET + "chapters:\n  - {title: Arms, kinds: [weapon]}\n"},
        "RP224",
        RULESET_FILE,
        11,
        27,
        ERR,
    ),
    Fails(
        "a kind placed in two chapters",
        {
            RULESET_FILE: RULESET
            + "chapters:\n  - {title: Arms, kinds: [weapon-section]}\n"
            + "  - {title: Guns, kinds: [weapon-section]}\n"
        },
        "RP224",
        RULESET_FILE,
        12,
        27,
        ERR,
    ),
    Fails(
        "a chapter titled like the rulings page",
        {RULESET_FILE: RULESET + "chapters:\n  - {title: Rulings, kinds: [trait]}\n"},
        "RP224",
        RULESET_FILE,
        11,
        13,
        ERR,
    ),
    # RP226 anchor-clash
    Fails(
        "a rule whose id is the anchor of a kind's chapter after it",
        {
            RULE_FILE: RULE.replace("id: reading-tables", "id: weapons").replace(
                "chapter: Weapons", "chapter: Rules"
            )
        },
        "RP226",
        RULE_FILE,
        2,
        5,
        WARN,
    ),
    Fails(
        "a rule's chapter named like a kind's section before it",
        {RULE_FILE: RULE.replace("chapter: Weapons", "chapter: Traits")},
        "RP226",
        RULE_FILE,
        4,
        10,
        WARN,
    ),
    Fails(
        "a rule's chapter named like a weapon, whose anchor the guide keeps",
        {RULE_FILE: RULE.replace("chapter: Weapons", "chapter: Test Pistol")},
        "RP226",
        WEAPON_FILE,
        2,
        5,
        WARN,
    ),
    Fails(
        "a rule sharing its chapter's anchor after the chapter's first section",
        {
            RULE_FILE: RULE.replace("id: reading-tables", "id: weapons").replace(
                "order: 1", "order: 999"
            )
        },
        "RP226",
        RULE_FILE,
        2,
        5,
        WARN,
    ),
    Fails(
        "a planned chapter titled like a weapon of a chapter before it",
        {
            RULESET_FILE: RULESET
            + "chapters:\n  - {title: Arms, kinds: [weapon-section]}\n"
            + "  - {title: Test Pistol, kinds: [trait]}\n"
        },
        "RP226",
        RULESET_FILE,
        12,
        13,
        WARN,
    ),
    # RP302 example-disagrees
    Fails(
        "skill test example whose dice AP the rule does not give",
        skill_test(expect=EXPECT.replace("dice-ap: 4", "dice-ap: 5")),
        "RP302",
        "demo/skill-test.yaml",
        14,
        23,
        WARN,
    ),
    Fails(
        "example that expects a figure the rule does not compute",
        skill_test(expect="{score: 9}"),
        "RP302",
        "demo/skill-test.yaml",
        14,
        21,
        INFO,
    ),
    Fails(
        "example that leaves out the faces rolled",
        skill_test(given="{rank: 6, acuity: 5}"),
        "RP302",
        "demo/skill-test.yaml",
        13,
        12,
        INFO,
    ),
    Fails(
        "example that gives one face instead of a list of faces",
        skill_test(given="{rank: 1, faces: 6, acuity: 5}"),
        "RP302",
        "demo/skill-test.yaml",
        13,
        12,
        INFO,
    ),
    # RP230 threshold-wording
    Fails(
        "one rule says below 0 and another 0 or less",
        boundary_rules("<", "<="),
        "RP230",
        RULE_FILE,
        8,
        5,
        WARN,
        more=((SECOND_RULE_FILE, 8, 5),),
    ),
    Fails(
        "one rule says more than 0 and another 0 or more",
        boundary_rules(">", ">="),
        "RP230",
        RULE_FILE,
        8,
        5,
        WARN,
        more=((SECOND_RULE_FILE, 8, 5),),
    ),
    # RP231 misspelled-word
    Fails(
        "a misspelled word in a one-line text, reported at the word",
        rule_text("Find teh row for your AP."),
        "RP231",
        RULE_FILE,
        6,
        12,
        WARN,
    ),
    Fails(
        "a misspelled word in a block text, reported at the word",
        rule_text("|\n  Find the row for your AP.\n  Roll the dice, then teh row."),
        "RP231",
        RULE_FILE,
        8,
        23,
        WARN,
    ),
    Fails(
        "a misspelled word in a quoted title",
        {RULE_FILE: RULE.replace("title: Reading Tables", 'title: "Reading Tabels"')},
        "RP231",
        RULE_FILE,
        3,
        17,
        WARN,
    ),
    # RP232 undefined-term
    Fails(
        "a named test of no skill, trait or glossary term",
        rule_text("Make a Sneaking test, then another Sneaking test."),
        "RP232",
        RULE_FILE,
        6,
        14,
        INFO,
    ),
    Fails(
        "a unit no glossary defines",
        rule_text("It costs 2 SP."),
        "RP232",
        RULE_FILE,
        6,
        18,
        INFO,
    ),
    # RP233 rich-text-literal
    Fails(
        "raw HTML in a rule's text",
        rule_text("Find the <b>row</b> for your AP."),
        "RP233",
        RULE_FILE,
        6,
        7,
        WARN,
    ),
    Fails(
        "a web link and a Foundry roll in a block text: one finding each",
        rule_text("|\n  Find the row.\n  See [the list](https://example.org), roll [[/r 1d6]]."),
        "RP233",
        RULE_FILE,
        6,
        7,
        WARN,
        more=((RULE_FILE, 6, 7),),
    ),
]

OTHER_RULESET = {
    "other/ruleset.yaml": RULESET.replace("id: demo", "id: other"),
    "other/traits/acuity.yaml": TRAITS[ACUITY_FILE],
}
PASSING = [
    Passes("the same id in two rulesets", OTHER_RULESET, "RP201"),
    Passes(
        "renamed trait that keeps its old id",
        {ACUITY_FILE: TRAITS[ACUITY_FILE] + "previous_ids: [wits]\n"},
        "RP202",
    ),
    Passes(
        "rule that sees also documents of any kind",
        {RULE_FILE: RULE + "see_also: [test-pistol, acuity, pistols]\n"},
        "RP203",
    ),
    Passes(
        "draft weapon in a draft section",
        {SECTION_FILE: draft(SECTION), WEAPON_FILE: draft(weapon())},
        "RP204",
        also=("RP211",),
    ),
    Passes("skill test example that uses a listed skill", skill_test(), "RP205"),
    Passes(
        "draft placeholder with half a table",
        {WEAPON_FILE: draft(weapon(table(range(1, 16))))},
        "RP206",
        also=("RP211",),
    ),
    Passes("table with every AP once", {WEAPON_FILE: weapon(table())}, "RP207"),
    Passes("table in AP order with flat figures", {WEAPON_FILE: weapon(flat())}, "RP208"),
    Passes(
        "damage that holds level as AP rises",
        {WEAPON_FILE: weapon(table(damage=lambda ap: 5 if ap < 20 else 6))},
        "RP209",
    ),
    Passes(
        "two tables that step range at AP 11",
        {
            WEAPON_FILE: weapon(table(range=lambda ap: 10 if ap < 11 else 12)),
            **second_weapon(rows=table(range=lambda ap: 20 if ap < 11 else 30)),
        },
        "RP210",
    ),
    Passes(
        "lone table whose range steps has no band to be off",
        {WEAPON_FILE: weapon(table(range=lambda ap: 10 if ap < 11 else 12))},
        "RP210",
    ),
    Passes("rule marked published", {RULE_FILE: RULE + "status: published\n"}, "RP211"),
    Passes(
        "published weapon that counts attacks instead of magazine rounds",
        {WEAPON_FILE: profile(magazine=None, attacks=2)},
        "RP212",
    ),
    Passes(
        "header and name that differ only in case and punctuation",
        {WEAPON_FILE: profile(header="TEST-PISTOL")},
        "RP213",
    ),
    Passes(
        "a trait and a skill with one name",
        {SKILL_FILE: SKILL.replace("Bio Lore", "Acuity")},
        "RP214",
        also=("RP234",),  # one name for two things of different kinds
    ),
    Passes(
        "draft printed with Speed beside a Move table",
        second_weapon(move_column="Speed", status="draft"),
        "RP215",
        also=("RP211",),
    ),
    Passes(
        "corruption per Aug stated as 3 in the rules and in the CP table",
        {
            "demo/corruption/rules.yaml": CORRUPTION_RULES.replace("per_aug: 2", "per_aug: 3"),
            "demo/cp/spending.yaml": CP_SPENDING,
        },
        "RP216",
    ),
    Passes(
        "tier 2 pistol that costs more and is rarer", second_weapon(cost=5, rarity="Rare"), "RP217"
    ),
    Passes(
        "corruption trigger rows that rise",
        {"demo/corruption/triggers.yaml": CORRUPTION_TRIGGERS.replace("level: 12", "level: 16")},
        "RP218",
    ),
    Passes(
        "ladder of reductions that grow",
        {
            path: text.replace("effect: adds", "effect: reduces")
            for path, text in wound_ladder(-1, -2, -4).items()
        },
        "RP219",
    ),
    Passes(
        "tc source that reduces with a negative amount",
        {"demo/tc/cover.yaml": tc_source("cover", -1, "reduces", "outstanding_success_tc: -2\n")},
        "RP220",
    ),
    Passes(
        "tc source left to the referee", {"demo/tc/odd.yaml": tc_source("odd", "referee")}, "RP220"
    ),
    Passes(
        "pistols of one tier in two sections",
        {**RIFLES, **second_weapon(section="rifles", tier=1)},
        "RP221",
    ),
    Passes(
        "two draft placeholders of one tier",
        {WEAPON_FILE: draft(weapon()), **second_weapon(tier=1, status="draft")},
        "RP221",
        also=("RP211",),
    ),
    Passes("odds table of the exact chances, rounded", odds(), "RP301"),
    Passes(
        "odds table that rounds a half-way chance (d8 alone 37.5%) down",
        odds(alone="17, 37"),
        "RP301",
    ),
    Passes("odds table rounded to the nearest whole percent", odds(), "RP303"),
    Passes(
        "pushed odds table of the push rule's own reading, seen under the rule text's",
        odds(**PUSHED_EVERY_NON_SUCCESS, push="every-non-success"),
        "RP304",
    ),
    Passes(
        "tier 2 pistol with more damage and range than tier 1 at every AP",
        second_weapon(rows=table(damage=lambda ap: ap + 1, range=lambda ap: 15)),
        "RP225",
    ),
    Passes(
        "capacity stat named one way in the whole ruleset",
        {**RIFLES, **second_weapon(section="rifles")},
        "RP215",
    ),
    Passes("odds rows with one cell per column", odds(), "RP222"),
    Passes(
        "a rule whose chapter only starts like a generated page",
        {RULE_FILE: RULE.replace("chapter: Weapons", "chapter: Rulings of the Table")},
        "RP223",
    ),
    Passes(
        "pushed odds table that follows the push rule's own reading",
        odds(**PUSHED_EVERY_NON_SUCCESS, push="every-non-success"),
        "RP301",
    ),
    Passes("skill test example that comes out as printed", skill_test(), "RP302"),
    Passes(
        "chapters that place each kind once",
        {RULESET_FILE: RULESET + "chapters:\n  - {title: Arms, kinds: [weapon-section]}\n"},
        "RP224",
    ),
    Passes(
        "a rule whose id is its chapter's, at the chapter's start",
        {RULE_FILE: RULE.replace("id: reading-tables", "id: weapons")},
        "RP226",
    ),
    Passes(
        "a rule's chapter named only like the start of a weapon's name",
        {RULE_FILE: RULE.replace("chapter: Weapons", "chapter: Test")},
        "RP226",
    ),
    Passes("a rule and its complement", boundary_rules("<", ">="), "RP230"),
    Passes("the same boundary worded alike", boundary_rules("<=", "<="), "RP230"),
    Passes("a text spelled right", rule_text("Roll the dice; AKs versus pistols."), "RP231"),
    Passes(
        "a game's own word listed in its ruleset's words",
        {
            **rule_text("The Teh ritual summons nothing."),
            RULESET_FILE: RULESET + "words: [teh]\n",
        },
        "RP231",
    ),
    Passes(
        "a test named after a trait, and a unit the text introduces",
        rule_text("Make an Acuity test. Spend Stress Points (SP); it costs 2 SP."),
        "RP232",
    ),
    Passes(
        "a capitalised word starting a sentence", rule_text("Any roll. The PC MUST roll."), "RP232"
    ),
    Passes(
        "a rule text in the subset: emphasis, a list, a link to a document",
        rule_text(
            "|\n  Find the *row* for **your** AP:\n\n  - see [it](doc:test-pistol)\n  - roll"
        ),
        "RP233",
    ),
    Passes(
        "a doc: link to a document that exists",
        rule_text("Find the row, see [the pistol](doc:test-pistol)."),
        "RP203",
    ),
]

# The checks of names, ladders and the text's quality keep their cases in a file of their own.
from tests.check_cases_text import FAILING_TEXT, PASSING_TEXT  # noqa: E402

FAILING += FAILING_TEXT
PASSING += PASSING_TEXT
# -- translations (RP401-RP406) ---------------------------------------------------------------

GERMAN = RULESET + "languages:\n  - {code: de, name: Deutsch}\n"
"""The demo ruleset translated into German."""
SKILL_DE = "demo/translations/de/skills/bio-lore.yaml"


def german_skill(name: str = "Biokunde", made_from: str = "Bio Lore", source: str = "") -> Files:
    """The demo ruleset in German, with the skill's name translated from `made_from` (its
    `source` copy, when given, at line 7)."""
    from rulepress.translations import digest

    copy = f"    source: {source}\n" if source else ""
    text = (
        "kind: translation\ndocument: bio-lore\nlanguage: de\ntexts:\n  name:\n"
        f"    text: {name}\n    digest: {digest(made_from)}\n{copy}"
    )
    return {RULESET_FILE: GERMAN, SKILL_DE: text}


def german_rule(text: str, field: str = "text", document: str = "reading-tables") -> Files:
    """The demo ruleset in German, with the reading-tables rule's `field` translated."""
    from rulepress.translations import digest

    return {
        RULESET_FILE: GERMAN,
        RULE_FILE: RULE,
        "demo/translations/de/rules/reading-tables.yaml": (
            f"kind: translation\ndocument: {document}\nlanguage: de\ntexts:\n  {field}:\n"
            f"    text: {text}\n    digest: {digest('Find the *row* for your AP.')}\n"
        ),
    }


RULE_DE = "demo/translations/de/rules/reading-tables.yaml"
EMPHASISED = {RULE_FILE: RULE.replace("Find the row for your AP.", "Find the *row* for your AP.")}

FAILING += [
    Fails(
        "a translation made from the skill's old name",
        german_skill(made_from="Bio-Lore"),
        "RP401",
        SKILL_DE,
        6,
        5,
        WARN,
        also=("RP402",),
    ),
    Fails(
        "a declared language with no translation yet",
        {RULESET_FILE: GERMAN},
        "RP402",
        RULESET_FILE,
        11,
        5,
        INFO,
    ),
    Fails(
        "a translation of a document the ruleset does not have",
        {**german_skill(), SKILL_DE: german_skill()[SKILL_DE].replace("bio-lore", "bio-lores")},
        "RP403",
        SKILL_DE,
        2,
        11,
        ERR,
        also=("RP402",),
    ),
    Fails(
        "a translation of a figure, not a text",
        {**german_skill(), SKILL_DE: german_skill()[SKILL_DE].replace("  name:", "  order:")},
        "RP403",
        SKILL_DE,
        5,
        3,
        ERR,
        also=("RP402",),
    ),
    Fails(
        "a translation that drops the source's emphasis",
        {**german_rule("Finde die Zeile für deine AP."), **EMPHASISED},
        "RP404",
        RULE_DE,
        6,
        11,
        WARN,
        also=("RP402",),
    ),
    Fails(
        "a translated title with a line break",
        {**german_rule('"Tabellen\\nlesen"', field="title"), **EMPHASISED},
        "RP404",
        RULE_DE,
        6,
        11,
        ERR,
        also=("RP401", "RP402"),
    ),
    Fails(
        "a French translation in the German folder",
        {
            **german_skill(),
            SKILL_DE: german_skill()[SKILL_DE].replace("language: de", "language: fr"),
        },
        "RP405",
        SKILL_DE,
        3,
        11,
        ERR,
        also=("RP402",),
    ),
    Fails(
        "a source copy edited by hand",
        german_skill(source="Bio-Lore"),
        "RP406",
        SKILL_DE,
        8,
        13,
        WARN,
        also=("RP402",),
    ),
]
PASSING += [
    Passes(
        "a translation made from the skill's name as it reads",
        german_skill(),
        "RP401",
        also=("RP402",),
    ),
    Passes("a ruleset that declares no language", {RULESET_FILE: RULESET}, "RP402"),
    Passes("a translation of the skill's name", german_skill(), "RP403", also=("RP402",)),
    Passes(
        "a translation that keeps the emphasis",
        {**german_rule("Finde die *Zeile* für deine AP."), **EMPHASISED},
        "RP404",
        also=("RP402",),
    ),
    Passes("a German translation in the German folder", german_skill(), "RP405", also=("RP402",)),
    Passes(
        "a source copy that is the source",
        german_skill(source="Bio Lore"),
        "RP406",
        also=("RP402",),
    ),
]
