"""Broken inputs: each gives one precise finding at the right file, line and column.

Each case writes a small compendium (a valid ruleset plus the broken file) and asserts
the code, the level and the `path:line:col` of the finding.
"""

from __future__ import annotations

import pytest

from rulepress.errors import Level
from rulepress.validation import validate
from tests.helpers import RULESET, SECTION, SKILL, TRAITS, Case, base_tree, build_tree, weapon


def rows_without(ap: int) -> list[str]:
    return [
        f"  - {{ap: {n}, damage: {n}, defense: {n}, move: Base, range: 10}}"
        for n in range(1, 31)
        if n != ap
    ]


CASES = [
    Case(
        "yaml syntax error",
        {"demo/skills/bio-lore.yaml": "kind: skill\nid: [bio-lore\nname: x\n"},
        "RP003",
        "demo/skills/bio-lore.yaml",
        3,
        5,
    ),
    Case(
        "tab used for indentation",
        {"demo/skills/bio-lore.yaml": "kind: skill\ntraits:\n\t- acuity\n"},
        "RP003",
        "demo/skills/bio-lore.yaml",
        3,
        1,
    ),
    Case(
        "duplicate key",
        {"demo/skills/bio-lore.yaml": SKILL + "name: Again\n"},
        "RP004",
        "demo/skills/bio-lore.yaml",
        7,
        1,
    ),
    Case(
        "unknown field",
        {"demo/skills/bio-lore.yaml": SKILL + "colour: red\n"},
        "RP101",
        "demo/skills/bio-lore.yaml",
        7,
        1,
    ),
    Case(
        "misspelt field",
        {"demo/skills/bio-lore.yaml": SKILL.replace("category", "categroy")},
        "RP101",
        "demo/skills/bio-lore.yaml",
        4,
        1,
    ),
    Case(
        "missing required field",
        {"demo/skills/bio-lore.yaml": SKILL.replace("name: Bio Lore\n", "")},
        "RP102",
        "demo/skills/bio-lore.yaml",
        1,
        1,
    ),
    Case(
        "wrong type: text for a number",
        {"demo/weapons/test-pistol.yaml": weapon().replace("cost: 1", "cost: one")},
        "RP103",
        "demo/weapons/test-pistol.yaml",
        11,
        7,
    ),
    Case(
        "wrong type: quoted number",
        {"demo/weapons/test-pistol.yaml": weapon().replace("reload: 3", 'reload: "3"')},
        "RP103",
        "demo/weapons/test-pistol.yaml",
        9,
        9,
    ),
    Case(
        "wrong type in a table cell",
        {"demo/weapons/test-pistol.yaml": weapon().replace("damage: 7,", "damage: seven,")},
        "RP103",
        "demo/weapons/test-pistol.yaml",
        20,
        21,
    ),
    Case(
        "value out of range: negative cost",
        {"demo/weapons/test-pistol.yaml": weapon().replace("cost: 1", "cost: -4")},
        "RP104",
        "demo/weapons/test-pistol.yaml",
        11,
        7,
    ),
    Case(
        "value out of range: AP 31",
        {"demo/weapons/test-pistol.yaml": weapon().replace("{ap: 30,", "{ap: 31,")},
        "RP104",
        "demo/weapons/test-pistol.yaml",
        43,
        10,
    ),
    Case(
        "not one of the choices",
        {"demo/weapons/test-pistol.yaml": weapon().replace("Common", "Mythic")},
        "RP105",
        "demo/weapons/test-pistol.yaml",
        12,
        9,
    ),
    Case(
        "id that is not a slug",
        {"demo/skills/bio-lore.yaml": SKILL.replace("id: bio-lore", "id: Bio Lore")},
        "RP105",
        "demo/skills/bio-lore.yaml",
        2,
        5,
    ),
    Case(
        "unknown kind",
        {"demo/skills/bio-lore.yaml": SKILL.replace("kind: skill", "kind: skil")},
        "RP100",
        "demo/skills/bio-lore.yaml",
        1,
        7,
    ),
    Case("empty file", {"demo/skills/empty.yaml": ""}, "RP006", "demo/skills/empty.yaml", 1, 1),
    Case(
        "file of only comments",
        {"demo/skills/notes.yaml": "# nothing here\n# yet\n"},
        "RP006",
        "demo/skills/notes.yaml",
        1,
        1,
    ),
    Case(
        "a list instead of a mapping",
        {"demo/skills/list.yaml": "- kind: skill\n"},
        "RP007",
        "demo/skills/list.yaml",
        1,
        1,
    ),
    Case(
        "non-UTF-8 bytes",
        {"demo/skills/bio-lore.yaml": SKILL.encode() + b"combat_note: caf\xe9\n"},
        "RP002",
        "demo/skills/bio-lore.yaml",
        7,
        17,
    ),
    Case(
        "alias",
        {
            "demo/skills/bio-lore.yaml": SKILL.replace(
                "traits: [acuity, resolve]", "traits: &t [acuity, resolve]\ncombat_note: *t"
            )
        },
        "RP005",
        "demo/skills/bio-lore.yaml",
        7,
        14,
    ),
    Case(
        "python tag",
        {
            "demo/skills/bio-lore.yaml": SKILL
            + "combat_note: !!python/object/apply:os.system [ls]\n"
        },
        "RP005",
        "demo/skills/bio-lore.yaml",
        7,
        14,
    ),
    Case(
        "merge key",
        {"demo/skills/bio-lore.yaml": SKILL + "extra: {<<: {a: 1}}\n"},
        "RP005",
        "demo/skills/bio-lore.yaml",
        7,
        9,
    ),
    Case(
        "missing AP row",
        {"demo/weapons/test-pistol.yaml": weapon(rows_without(12))},
        "RP206",
        "demo/weapons/test-pistol.yaml",
        13,
        1,
    ),
    Case(
        "repeated AP row",
        {
            "demo/weapons/test-pistol.yaml": weapon(
                [*rows_without(12), "  - {ap: 11, damage: 11, defense: 11, move: Base, range: 10}"]
            )
        },
        "RP207",
        "demo/weapons/test-pistol.yaml",
        43,
        10,
    ),
    Case(
        "duplicate id across files",
        {"demo/skills/copy.yaml": SKILL},
        "RP201",
        "demo/skills/copy.yaml",
        2,
        5,
    ),
    Case(
        "dangling reference",
        {"demo/skills/bio-lore.yaml": SKILL.replace("resolve]", "resolv]")},
        "RP203",
        "demo/skills/bio-lore.yaml",
        6,
        18,
    ),
    Case(
        "reference to the wrong kind",
        {"demo/sections/pistols.yaml": SECTION.replace("skill: bio-lore", "skill: acuity")},
        "RP203",
        "demo/sections/pistols.yaml",
        5,
        8,
    ),
    Case(
        "draft referenced by a published document",
        {"demo/sections/pistols.yaml": SECTION.replace("name:", "status: draft\nname:")},
        "RP204",
        "demo/weapons/test-pistol.yaml",
        6,
        10,
    ),
    Case(
        "damage that falls with more AP",
        {
            "demo/weapons/test-pistol.yaml": weapon().replace(
                "{ap: 16, damage: 16", "{ap: 16, damage: 2"
            )
        },
        "RP209",
        "demo/weapons/test-pistol.yaml",
        29,
        22,
        Level.WARNING,
    ),
    Case(
        "published weapon without a cost",
        {"demo/weapons/test-pistol.yaml": weapon().replace("cost: 1\n", "")},
        "RP212",
        "demo/weapons/test-pistol.yaml",
        1,
        1,
    ),
    Case(
        "a ruleset folder without ruleset.yaml",
        {"other/skills/x.yaml": SKILL},
        "RP009",
        "other/ruleset.yaml",
        1,
        1,
    ),
    Case(
        "version written as a number",
        {"demo/ruleset.yaml": RULESET.replace('"1.0.0"', "1.10")},
        "RP103",
        "demo/ruleset.yaml",
        4,
        10,
    ),
    Case(
        "a date where a number belongs",
        {
            "demo/traits/acuity.yaml": TRAITS["demo/traits/acuity.yaml"].replace(
                "order: 1", "order: 2023-07-09"
            )
        },
        "RP103",
        "demo/traits/acuity.yaml",
        4,
        8,
    ),
    Case(
        "NaN where a whole number belongs",
        {
            "demo/traits/acuity.yaml": TRAITS["demo/traits/acuity.yaml"].replace(
                "order: 1", "order: .nan"
            )
        },
        "RP103",
        "demo/traits/acuity.yaml",
        4,
        8,
    ),
    Case(
        "huge integer",
        {
            "demo/weapons/test-pistol.yaml": weapon().replace(
                "cost: 1", "cost: 99999999999999999999999"
            )
        },
        "RP104",
        "demo/weapons/test-pistol.yaml",
        11,
        7,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken_input_is_reported_at_its_place(tmp_path, case: Case):
    build_tree(tmp_path, {**base_tree(), **case.files})
    findings = validate(tmp_path).findings
    wanted = [f for f in findings if f.code == case.code]
    assert wanted, f"no {case.code} in {[(f.code, f.message) for f in findings]}"
    finding = wanted[0]
    assert finding.level == case.level
    assert finding.file == tmp_path / case.file
    assert (finding.line, finding.col) == (case.line, case.col), finding.message


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("1: one\n", "1: unknown field"),
        ("nmae: Bio\n", "nmae: unknown field (did you mean 'name'?)"),
        # a weapon's field is no suggestion for a skill's key
        ("magazin: 3\n", "magazin: unknown field"),
        (
            "rulings: [{id: a, question: q, ruling: r, alternative: a, why: w, 2: x}]\n",
            "rulings[0].2: unknown field",
        ),
    ],
)
def test_an_unknown_field_is_named_as_written(tmp_path, extra, message):
    skill = "demo/skills/bio-lore.yaml"
    tree = base_tree()
    build_tree(tmp_path, {**tree, skill: tree[skill] + extra})
    assert [f.message for f in validate(tmp_path).findings if f.code == "RP101"] == [message]


def test_the_valid_base_tree_has_no_findings(tmp_path):
    build_tree(tmp_path, base_tree())
    assert validate(tmp_path).findings == ()


def test_there_are_at_least_twenty_broken_cases():
    assert len(CASES) >= 20


def test_positions_are_worked_out_only_when_a_finding_needs_them(tmp_path):
    from rulepress.compendium.loader import load_compendium

    build_tree(tmp_path, base_tree())
    (entry,) = [
        e
        for _, e in load_compendium(tmp_path).compendium.entries()
        if e.document.id == "test-pistol"
    ]
    assert entry.source.values == {} and entry.source.text is not None
    assert tuple(entry.position(("table", 11, "damage"))) == (25, 22)
    assert entry.source.text is None and len(entry.source.values) > 150
