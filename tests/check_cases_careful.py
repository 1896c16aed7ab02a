"""The cases of tests/test_checks.py for the checks that find what a careful reader finds
(issue 29: RP227-RP229, RP305, RP306), in the shapes of tests/check_cases.py: failing
inputs with the findings they must give, passing inputs that must not give them."""

from __future__ import annotations

from tests.check_cases import (
    INFO,
    RULE,
    RULE_FILE,
    SECOND_RULE_FILE,
    STEP_DICE,
    WARN,
    Fails,
    Files,
    Passes,
    second_weapon,
    tc_source,
)

# -- RP227: a field most siblings carry ------------------------------------------------


def three_sources(*extras: str) -> Files:
    """Three TC sources, each with its extra lines (line 7 on)."""
    return {
        f"demo/tc/source-{number}.yaml": tc_source(f"source-{number}", 1, extra=extra)
        for number, extra in enumerate(extras, 1)
    }


BUYS = ("skill-rank", "new-skill", "new-aug")


def spending(*corruption: int | None) -> Files:
    """A CP spending table of one row per figure, with the row's `corruption` figure
    where it is not None (row N opens at line 7 + N, column 5)."""
    rows = "".join(
        f"  - {{benefit: Benefit {n}, buys: {BUYS[n]}, cp: 2"
        + ("" if c is None else f", corruption: {c}")
        + "}\n"
        for n, c in enumerate(corruption)
    )
    text = (
        "kind: cp-spending\nid: cp-spending\nname: Spending CP\ntext: What CP buy.\n"
        f"headers: [Benefit, CP cost, Additional Costs]\nrows:\n{rows}"
    )
    return {"demo/cp-spending.yaml": text}


# -- RP228: durations in units of play -------------------------------------------------


def two_rules(first: str, second: str, **more: str) -> Files:
    """Two rules with these texts (each `text:` at line 6, column 7), and more files."""
    return {
        RULE_FILE: RULE.replace("Find the row for your AP.", first),
        SECOND_RULE_FILE: RULE.replace("reading-tables", "exhaustion").replace(
            "Find the row for your AP.", second
        ),
        **more,
    }


TIME = """\
kind: time-units
id: time-units
name: Time
text: 'Time passes in increments:'
headers: [Unit, Duration, Primary Use]
rows:
  - {unit: Round, duration: {min: 5, max: 10}, per: seconds, use: Combat}
  - {unit: Turn, duration: {min: 1, max: 2}, per: minutes, use: Chases}
"""


# -- RP229: tier progressions ----------------------------------------------------------


def magazines(*sizes: int) -> Files:
    """Weapons of tiers 2, 3, ... in the demo pistol's section (its tier 1 holds 3), of
    these magazines (each weapon's `magazine:` at line 8, column 11)."""
    files: Files = {}
    for tier, size in enumerate(sizes, 2):
        files.update(second_weapon(f"gun-{tier}", tier=tier, magazine=size))
    return files


FAILING = [
    Fails(
        "a tc source without the outstanding-success figure its two siblings give",
        three_sources("outstanding_success_tc: 2\n", "outstanding_success_tc: 3\n", ""),
        "RP227",
        "demo/tc/source-3.yaml",
        1,
        1,
        WARN,
    ),
    Fails(
        "a table row without the corruption figure its neighbours have",
        spending(1, 3, None),
        "RP227",
        "demo/cp-spending.yaml",
        9,
        5,
        WARN,
    ),
    Fails(
        "rounds in one rule and turns in another, with nothing converting them",
        two_rules("Stunned for 1d6+1 rounds.", "Frozen for 1d6+1 turns."),
        "RP228",
        RULE_FILE,
        6,
        7,
        WARN,
        more=((SECOND_RULE_FILE, 6, 7),),
    ),
    Fails(
        "a round the time table converts and a turn it does not",
        two_rules(
            "Stunned for the following round.",
            "Wait until the end of the current turn.",
            **{"demo/time-units.yaml": TIME.replace("  - {unit: Turn", "#")},
        ),
        "RP228",
        SECOND_RULE_FILE,
        6,
        7,
        WARN,
        more=((RULE_FILE, 6, 7),),
    ),
    Fails(
        "a tier 4 magazine smaller than those of tiers 1-3, which rise",
        magazines(4, 6, 2),
        "RP229",
        "demo/weapons/gun-4.yaml",
        8,
        11,
        INFO,
    ),
]

PASSING = [
    Passes(
        "a tc source without a figure only one sibling gives",
        three_sources("outstanding_success_tc: 2\n", "", ""),
        "RP227",
    ),
    Passes(
        "a tc source that gives another figure instead of its siblings' one",
        three_sources("outstanding_success_tc: 2\n", "outstanding_success_tc: 3\n", "per: ally\n"),
        "RP227",
    ),
    Passes("table rows that all give the figure", spending(1, 3, 2), "RP227"),
    Passes(
        "durations all in rounds, and in calendar units",
        two_rules("Stunned for 1d6+1 rounds.", "Asleep for 8 hours, then the next round."),
        "RP228",
    ),
    Passes(
        "rounds and turns that a time table converts into seconds and minutes",
        two_rules(
            "Stunned for 1d6+1 rounds.",
            "Frozen for 1d6+1 turns.",
            **{"demo/time-units.yaml": TIME},
        ),
        "RP228",
    ),
    Passes("magazines that rise with the tiers", magazines(4, 4, 6), "RP229"),
    Passes("magazines that rise and fall alike", magazines(5, 2, 6, 1), "RP229"),
]


# -- RP305: a worked example's words against its rule's data ---------------------------

SHOCK_FILE = "demo/shock-roll.yaml"
SHOCK = """\
kind: shock-roll
id: shock-roll
name: Shock roll
text: A heavy wound calls for a cool roll.
triggers:
  - id: single-wound-half-hp
    text: a single wound of at least 1/2 of their total hit-points
    when: single-wound-at-least
    fractions_of_hp: [0.5]
  - id: total-damage-marks
    text: their total damage exceeds the 1/2 and 1/4 H.P. damage marks
    when: total-damage-passes
    fractions_of_hp: [0.25, 0.5]
wound_penalty: damage-taken
on_failure: Stunned.
recovery: Roll again.
critical_failure: Unconscious for 1d6+1 rounds.
unconscious: {dice: 1d6+1, unit: rounds}
examples:
  - id: ugg
    title: Ugg takes ten damage
    text: Ugg takes 10 damage and %s. He needs 70 or less.
    given: {cool: 80, damage: 10}
    expect: {penalty: -10, target: 70}
%s"""


def shock(says: str, boundaries: str = "") -> Files:
    """A shock roll whose example says `says` (its `text:` at line 22, column 11), and
    `boundaries` (a YAML list) as data."""
    return {SHOCK_FILE: SHOCK % (says, f"boundaries:\n{boundaries}" if boundaries else "")}


QUARTER_WOUND = (
    "  - {quantity: single-wound, comparison: '>', value: quarter-hp,"
    " text: exceeds a quarter of his hit-points in a single wound}\n"
)

FAILING += [
    Fails(
        "an example stating a single wound's boundary the rule's trigger puts elsewhere",
        shock("exceeds a quarter of his hit-points in a single wound", QUARTER_WOUND),
        "RP305",
        SHOCK_FILE,
        22,
        11,
        WARN,
    ),
    Fails(
        "an example stating a fraction none of the rule's figures holds",
        shock("so passes a third of his hit-points"),
        "RP305",
        SHOCK_FILE,
        22,
        11,
        WARN,
    ),
]

PASSING += [
    Passes(
        "an example stating the boundary and fraction the rule holds",
        shock(
            "his single wound is at least half of his hit-points",
            "  - {quantity: single-wound, comparison: '>=', value: half-hp,"
            " text: at least half of his hit-points}\n",
        ),
        "RP305",
    ),
    Passes(
        "an example stating the quarter mark the rule holds for total damage",
        shock("so passes a quarter of his hit-points"),
        "RP305",
    ),
]


# -- RP306: cells a table's construction makes equal -----------------------------------

MIRROR_FILE = "demo/dice/mirror.yaml"


def mirrored(d8_with_d6: int = 48) -> Files:
    """The step dice and an odds table of attribute d6 and d8 by skill none, d6 and d8
    (the d8 skill row at line 10, its d6 cell at column 27); the other cells are the
    exact chances, rounded."""
    table = (
        "kind: odds-table\nid: mirror\nname: Odds\nroll: initial\ncorner: Attribute / Skill\n"
        "columns: [d6, d8]\nrows:\n  - {skill: null, percent: [17, 38]}\n"
        f"  - {{skill: d6, percent: [31, 48]}}\n  - {{skill: d8, percent: [{d8_with_d6}, 61]}}\n"
    )
    return {"demo/dice/step-dice.yaml": STEP_DICE, MIRROR_FILE: table}


FAILING += [
    Fails(
        "an odds table whose d8 skill with a d6 attribute differs from its mirror",
        mirrored(47),
        "RP306",
        MIRROR_FILE,
        10,
        27,
        WARN,
        also=("RP301", "RP303"),
    ),
]

PASSING += [
    Passes("an odds table whose mirror cells agree", mirrored(), "RP306"),
]


def capacities(*stats: tuple[str, int]) -> Files:
    """Weapons of tiers 2, 3, ... in the demo pistol's section (its tier 1 has a magazine
    of 3), each giving its capacity as the field named (`magazine` at line 8, column 11;
    `attacks` just before the table)."""
    files: Files = {}
    for tier, (field, size) in enumerate(stats, 2):
        other = {"magazine": None, "attacks": size} if field == "attacks" else {"magazine": size}
        files.update(second_weapon(f"gun-{tier}", tier=tier, **other))
    return files


FAILING += [
    Fails(
        "a tier 4 magazine smaller than the attacks of tiers 2-3, one capacity printed two ways",
        capacities(("attacks", 5), ("attacks", 6), ("magazine", 2)),
        "RP229",
        "demo/weapons/gun-4.yaml",
        8,
        11,
        INFO,
        also=("RP215",),
    ),
]

PASSING += [
    Passes(
        "a capacity that rises through magazines and attacks",
        capacities(("attacks", 5), ("attacks", 6), ("magazine", 8)),
        "RP229",
        also=("RP215",),
    ),
]
