"""Hostile inputs: what a careless or malicious contributor can put in a compendium.

Tables of cases, each an example of one input and the exact outcome it must have:

- `CASES`: a file (or a file-system oddity) in an otherwise valid tree, validated in
  process: the exit code `rulepress validate` would give, the finding's code and its
  `path:line:col`, and that it finishes quickly. Cases marked `cli` also run the real
  command line in a subprocess (exit code, the same line of output, no traceback).
- `CLI_CASES`: paths the command line must refuse with exit 2 and a message.
- `BUILD_CASES`: valid data that every target must still build.
- `OUTPUT_CASES` and `UNICODE_CASES`: one combined tree of hostile names and texts,
  built once for the markdown, foundry and site targets; each value must show as text.

Cases that make rulepress crash, hang or give a wrong outcome are marked
`xfail(strict=True)` with what happens and what should; the code is not changed here.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulepress.commands.build import build
from tests.helpers import (
    ACUITY_FILE,
    FIELDS,
    NO_FINDING,
    RULE,
    RULESET,
    RULESET_FILE,
    SECTION,
    SECTION_FILE,
    SKILL,
    SKILL_FILE,
    TRAITS,
    UNICODE_CASES,
    WEAPON_FILE,
    Hostile,
    UnicodeCase,
    assert_command_line_outcome,
    assert_finding_at_its_place,
    base_tree,
    build_tree,
    foundry_sources,
    hostile_tree,
    params,
    run,
    skill,
    symlink,
    weapon,
    weapon_with,
)

TC_SOURCE = "kind: tc-source\nid: shot-at\nname: Shot at\neffect: adds\norder: 1\ntc: 1\n"
RULING = "rulings:\n  - {id: r, question: q, ruling: r, alternative: a, why: w}\n"


def billion_laughs() -> str:
    """Ten levels of nine aliases each: 10**9 strings if a loader expanded them."""
    lines = ["lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 10):
        lines.append(f"lol{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    return SKILL + "\n".join(lines) + "\n"


def outside_file(root: Path) -> Path:
    path = root.parent / f"{root.name}-outside.yaml"
    path.write_text(SKILL.replace("bio-lore", "smuggled"), encoding="utf-8")
    return path


def outside_folder(root: Path) -> Path:
    folder = root.parent / f"{root.name}-outside"
    build_tree(folder, {"smuggled.yaml": SKILL.replace("bio-lore", "smuggled")})
    return folder


def outside_ruleset(root: Path) -> Path:
    folder = root.parent / f"{root.name}-other-ruleset"
    return build_tree(folder, {"ruleset.yaml": RULESET.replace("id: demo", "id: smuggled")})


def ruleset_file_is_a_folder(root: Path) -> None:
    (root / RULESET_FILE).unlink()
    (root / RULESET_FILE).mkdir()


def named_pipe(root: Path) -> None:
    os.mkfifo(root / "demo/skills/pipe.yaml")


CASES = [
    # --- YAML syntax -----------------------------------------------------------------
    Hostile(
        "unterminated quoted string runs to the end of the file",
        skill("name: Bio Lore", "name: 'Bio Lore"),
        "RP003",
        SKILL_FILE,
        7,
        1,
    ),
    Hostile(
        "a key indented under a plain value",
        skill("name: Bio Lore", "name: Bio Lore\n  category: academic"),
        "RP003",
        SKILL_FILE,
        4,
        11,
    ),
    Hostile(
        "unclosed flow mapping",
        skill("traits: [acuity, resolve]", "traits: {a: acuity\norder: 2"),
        "RP003",
        SKILL_FILE,
        7,
        6,
    ),
    Hostile(
        "reserved indicator @ starts a plain value",
        skill("name: Bio Lore", "name: @bio"),
        "RP003",
        SKILL_FILE,
        3,
        7,
    ),
    Hostile(
        "alias to an anchor that does not exist",
        {SKILL_FILE: SKILL + "combat_note: *nothing\n"},
        "RP003",
        SKILL_FILE,
        7,
        14,
    ),
    Hostile(
        "block scalar with indentation indicator 0",
        skill("name: Bio Lore", "name: |0\n  Bio Lore"),
        "RP003",
        SKILL_FILE,
        3,
        8,
    ),
    Hostile(
        "tab in the indentation of a nested mapping",
        {SKILL_FILE: SKILL + "rulings:\n  - id: r\n  \tquestion: q\n"},
        "RP003",
        SKILL_FILE,
        9,
        3,
    ),
    Hostile(
        "tab before a block sequence item",
        skill("traits: [acuity, resolve]", "traits:\n\t- acuity\n\t- resolve"),
        "RP003",
        SKILL_FILE,
        7,
        1,
    ),
    Hostile(
        "tabs as separators inside a line are valid YAML",
        skill("name: Bio Lore", "name:\t\tBio Lore"),
        NO_FINDING,
        SKILL_FILE,
        1,
        1,
    ),
    Hostile(
        "two documents in one file",
        {SKILL_FILE: SKILL + "---\n" + SKILL},
        "RP003",
        SKILL_FILE,
        7,
        1,
    ),
    # --- Encodings and characters ------------------------------------------------------
    Hostile(
        "UTF-8 byte order mark is accepted",
        {SKILL_FILE: b"\xef\xbb\xbf" + SKILL.encode()},
        NO_FINDING,
        SKILL_FILE,
        1,
        1,
        cli=True,
    ),
    Hostile(
        "UTF-16 file with its byte order mark",
        {SKILL_FILE: b"\xff\xfe" + SKILL.encode("utf-16-le")},
        "RP002",
        SKILL_FILE,
        1,
        1,
    ),
    Hostile(
        "Latin-1 byte as the very first byte",
        {SKILL_FILE: b"\xe9" + SKILL.encode()},
        "RP002",
        SKILL_FILE,
        1,
        1,
    ),
    Hostile(
        "Latin-1 byte inside a comment",
        {SKILL_FILE: SKILL.encode() + b"# caf\xe9 au lait\n"},
        "RP002",
        SKILL_FILE,
        7,
        6,
        cli=True,
    ),
    Hostile(
        "UTF-8 sequence cut off at the end of the file",
        {SKILL_FILE: SKILL.encode() + b"combat_note: caf\xc3"},
        "RP002",
        SKILL_FILE,
        7,
        17,
    ),
    Hostile(
        "overlong UTF-8 encoding of a slash",
        {SKILL_FILE: SKILL.encode().replace(b"Bio Lore", b"Bio\xc0\xafLore")},
        "RP002",
        SKILL_FILE,
        3,
        10,
    ),
    Hostile(
        "UTF-8 encoded surrogate",
        {SKILL_FILE: SKILL.encode().replace(b"Bio Lore", b"Bio \xed\xa0\x80Lore")},
        "RP002",
        SKILL_FILE,
        3,
        11,
    ),
    Hostile(
        "bad byte after an accented letter is placed in characters, not bytes",
        {SKILL_FILE: SKILL.encode().replace(b"name: Bio Lore", "name: Café ".encode() + b"\xff")},
        "RP002",
        SKILL_FILE,
        3,
        12,
    ),
    Hostile(
        "raw NUL character in a value",
        skill("name: Bio Lore", "name: Bio\x00Lore"),
        "RP003",
        SKILL_FILE,
        3,
        10,
    ),
    Hostile(
        "raw escape character (ANSI colour) in a value",
        skill("name: Bio Lore", "name: Bio\x1b[31mLore"),
        "RP003",
        SKILL_FILE,
        3,
        10,
    ),
    Hostile(
        "C1 control character U+009B in a value",
        skill("name: Bio Lore", "name: Bio\x9bLore"),
        "RP003",
        SKILL_FILE,
        3,
        10,
    ),
    Hostile(
        "control character after an accented letter is placed in characters",
        skill("name: Bio Lore", "name: Café\x07"),
        "RP003",
        SKILL_FILE,
        3,
        11,
    ),
    Hostile(
        "NUL written as a double-quoted escape",
        skill("name: Bio Lore", 'name: "Bio\\0Lore"'),
        "RP105",
        SKILL_FILE,
        3,
        7,
    ),
    # --- Empty files ------------------------------------------------------------------
    Hostile(
        "file of blank lines and spaces",
        {"demo/skills/blank.yaml": "\n   \n\n"},
        "RP006",
        "demo/skills/blank.yaml",
        1,
        1,
    ),
    Hostile(
        "file of only a byte order mark",
        {"demo/skills/bom.yaml": b"\xef\xbb\xbf"},
        "RP006",
        "demo/skills/bom.yaml",
        1,
        1,
    ),
    Hostile(
        "file of comments after a byte order mark",
        {"demo/skills/notes.yaml": "\ufeff# a comment\n# another\n"},
        "RP006",
        "demo/skills/notes.yaml",
        1,
        1,
    ),
    # --- Duplicate keys ----------------------------------------------------------------
    Hostile(
        "duplicate key in a nested block mapping",
        {SKILL_FILE: SKILL + "rulings:\n  - id: r\n    id: s\n"},
        "RP004",
        SKILL_FILE,
        9,
        5,
    ),
    Hostile(
        "duplicate key in a nested flow mapping",
        {
            RULESET_FILE: RULESET.replace(
                "credit: Written for the tests.", "credit: x, title: Again"
            )
        },
        "RP004",
        RULESET_FILE,
        9,
        50,
    ),
    # --- Anchors, aliases, merge keys ---------------------------------------------------
    Hostile(
        "billion laughs alias bomb",
        {SKILL_FILE: billion_laughs()},
        "RP005",
        SKILL_FILE,
        8,
        12,  # the first alias, *l0
        cli=True,
        seconds=2.0,
    ),
    Hostile(
        "alias to a scalar",
        skill("name: Bio Lore", "name: &n Bio Lore\ncombat_note: *n"),
        "RP005",
        SKILL_FILE,
        4,
        14,  # at the alias, where the value is to be written out
    ),
    Hostile(
        "merge key pulling in an anchored ruling",
        {
            SKILL_FILE: SKILL
            + "rulings:\n  - &r {id: a, question: q, ruling: r, alternative: a, why: w}\n"
            + "  - <<: *r\n    id: b\n"
        },
        "RP005",
        SKILL_FILE,
        9,
        5,
    ),
    Hostile(
        "alias after non-ASCII text on its line",
        skill("name: Bio Lore", "name: &n Bio Lore\ncombat_note: [ä, *n]"),
        "RP005",
        SKILL_FILE,
        4,
        18,  # columns count characters, not UTF-8 bytes
    ),
    Hostile(
        "alias used as a mapping key",
        {SKILL_FILE: SKILL + "combat_note: &k text\n*k : again\n"},
        "RP005",
        SKILL_FILE,
        8,
        1,
    ),
    # --- Tags ----------------------------------------------------------------------------
    Hostile(
        "unknown local tag", skill("name: Bio Lore", "name: !foo Bio"), "RP005", SKILL_FILE, 3, 7
    ),
    Hostile(
        "python/name tag",
        skill("name: Bio Lore", "name: !!python/name:os.system"),
        "RP005",
        SKILL_FILE,
        3,
        7,
    ),
    Hostile(
        "python/object/new tag inside a flow sequence",
        skill("traits: [acuity, resolve]", "traits: [acuity, !!python/object/new:os.system [ls]]"),
        "RP005",
        SKILL_FILE,
        6,
        18,
        cli=True,
    ),
    Hostile(
        "python tag hidden behind a %TAG shorthand",
        {
            SKILL_FILE: "%TAG !e! tag:yaml.org,2002:python/object/apply:\n---\n"
            + SKILL.replace("name: Bio Lore", "name: !e!os.system [ls]")
        },
        "RP005",
        SKILL_FILE,
        5,
        7,
    ),
    Hostile(
        "binary tag",
        skill("name: Bio Lore", "name: !!binary QmlvIExvcmU="),
        "RP005",
        SKILL_FILE,
        3,
        7,
    ),
    Hostile(
        "set tag",
        skill("traits: [acuity, resolve]", "traits: !!set {acuity, resolve}"),
        "RP005",
        SKILL_FILE,
        6,
        9,
    ),
    Hostile(
        "ordered-map tag",
        skill("traits: [acuity, resolve]", "traits: !!omap [a: acuity]"),
        "RP005",
        SKILL_FILE,
        6,
        9,
    ),
    # --- Size and depth ---------------------------------------------------------------
    Hostile(
        "100,000 unclosed [ brackets",
        skill("name: Bio Lore", "name: " + "[" * 100_000),
        "RP005",
        SKILL_FILE,
        1,
        1,
        cli=True,
    ),
    Hostile(
        "100,000 nested flow mappings",
        skill("name: Bio Lore", "name: " + "{a: " * 100_000),
        "RP005",
        SKILL_FILE,
        1,
        1,
    ),
    Hostile(
        "66 nested flow sequences, closed",
        skill("name: Bio Lore", "name: " + "[" * 66 + "]" * 66),
        "RP005",
        SKILL_FILE,
        3,
        71,
    ),
    Hostile(
        "200 nested block mappings",
        {SKILL_FILE: SKILL + "".join(" " * i + f"k{i}:\n" for i in range(200)) + " " * 200 + "v\n"},
        "RP005",
        SKILL_FILE,
        72,
        66,
    ),
    Hostile(
        "2 MB name on one line",
        skill("name: Bio Lore", "name: " + "x" * 2_000_000),
        "RP104",
        SKILL_FILE,
        3,
        7,
    ),
    Hostile(
        "2 MB comment is only a comment",
        {SKILL_FILE: SKILL + "# " + "x" * 2_000_000 + "\n"},
        NO_FINDING,
        SKILL_FILE,
        1,
        1,
    ),
    Hostile(
        "2 MB note in a quoted string",
        {SKILL_FILE: SKILL + 'combat_note: "' + "x" * 2_000_000 + '"\n'},
        "RP104",
        SKILL_FILE,
        7,
        14,
    ),
    # --- Numbers --------------------------------------------------------------------------
    Hostile(
        "5,000-digit integer",
        weapon_with("cost: 1", "cost: " + "9" * 5000),
        "RP104",
        WEAPON_FILE,
        11,
        7,
    ),
    Hostile(
        "5,000-digit hexadecimal integer",
        weapon_with("cost: 1", "cost: 0x" + "f" * 5000),
        "RP104",
        WEAPON_FILE,
        11,
        7,
        cli=True,
    ),
    Hostile(
        "1e400 overflows to infinity",
        weapon_with("cost: 1", "cost: 1e400"),
        "RP103",
        WEAPON_FILE,
        11,
        7,
    ),
    Hostile(
        "+infinity where a whole number belongs",
        weapon_with("cost: 1", "cost: .inf"),
        "RP103",
        WEAPON_FILE,
        11,
        7,
    ),
    Hostile(
        "-infinity where a whole number belongs",
        weapon_with("tier: 1", "tier: -.inf"),
        "RP103",
        WEAPON_FILE,
        5,
        7,
    ),
    Hostile(
        "a float with a zero fraction is not a whole number",
        weapon_with("reload: 3", "reload: 3.0"),
        "RP103",
        WEAPON_FILE,
        9,
        9,
    ),
    Hostile(
        "sexagesimal 1:20 where a whole number belongs",
        weapon_with("cost: 1", "cost: 1:20"),
        "RP103",
        WEAPON_FILE,
        11,
        7,
    ),
    Hostile(
        "timestamp where a whole number belongs",
        weapon_with("cost: 1", "cost: 2001-12-14t21:59:43.10-05:00"),
        "RP103",
        WEAPON_FILE,
        11,
        7,
    ),
    Hostile(
        "timestamp and sexagesimal values are text where text belongs",
        {
            SKILL_FILE: SKILL.replace("name: Bio Lore", "name: 2001-12-14t21:59:43.10-05:00")
            + "combat_note: 1:20\n"
        },
        NO_FINDING,
        SKILL_FILE,
        1,
        1,
    ),
    # --- Mapping keys -----------------------------------------------------------------------
    Hostile(
        "complex mapping key",
        {SKILL_FILE: SKILL + "? [a, b]\n: c\n"},
        "RP005",
        SKILL_FILE,
        7,
        3,
    ),
    Hostile(
        "integer mapping key is an unknown field",
        {SKILL_FILE: SKILL + "1: one\n"},
        "RP101",
        SKILL_FILE,
        7,
        1,
    ),
    # --- Unknown fields ----------------------------------------------------------------------
    Hostile(
        "number as a glossary term is placed at the key",
        {RULESET_FILE: RULESET + "glossary:\n  5: five\n"},
        "RP103",
        RULESET_FILE,
        11,
        3,
    ),
    Hostile(
        "unknown field in ruleset.yaml",
        {RULESET_FILE: RULESET + "author: me\n"},
        "RP101",
        RULESET_FILE,
        10,
        1,
    ),
    Hostile(
        "unknown field after non-ASCII text on its line",
        {
            SKILL_FILE: SKILL + 'rulings: [{id: a, question: "Qué?", ruling: r, '
            "alternative: a, why: w, note: 1}]\n"
        },
        "RP101",
        SKILL_FILE,
        7,
        72,  # columns count characters, not UTF-8 bytes
    ),
    Hostile(
        "unknown field in a table row",
        weapon_with("{ap: 5, damage: 5,", "{ap: 5, damage: 5, dmg: 1,"),
        "RP101",
        WEAPON_FILE,
        18,
        24,
    ),
    Hostile(
        "unknown field in a source credit",
        {RULESET_FILE: RULESET.replace("credit: Written for the tests.", "credit: x, year: 1999")},
        "RP101",
        RULESET_FILE,
        9,
        50,
    ),
    Hostile(
        "unknown field in a ruling",
        {SKILL_FILE: SKILL + RULING.replace("why: w}", "why: w, by: me}")},
        "RP101",
        SKILL_FILE,
        8,
        61,
    ),
    # --- Wrong types ---------------------------------------------------------------------------
    Hostile(
        "boolean where a whole number belongs",
        weapon_with("cost: 1", "cost: true"),
        "RP103",
        WEAPON_FILE,
        11,
        7,
    ),
    Hostile(
        "list where a mapping belongs (a table row)",
        weapon_with("{ap: 1, damage: 1, defense: 1, move: Base, range: 10}", "[1, 1, 1, Base, 10]"),
        "RP103",
        WEAPON_FILE,
        14,
        5,
    ),
    Hostile(
        "mapping where a list belongs",
        skill("traits: [acuity, resolve]", "traits: {first: acuity, second: resolve}"),
        "RP103",
        SKILL_FILE,
        6,
        9,
    ),
    Hostile(
        "text where a list belongs",
        skill("traits: [acuity, resolve]", "traits: acuity and resolve"),
        "RP103",
        SKILL_FILE,
        6,
        9,
    ),
    Hostile(
        "null for a required field",
        weapon_with("tier: 1", "tier: ~"),
        "RP103",
        WEAPON_FILE,
        5,
        7,
    ),
    Hostile(
        "number where text belongs",
        skill("name: Bio Lore", "name: 1e3"),
        "RP103",
        SKILL_FILE,
        3,
        7,
    ),
    # --- Missing fields ---------------------------------------------------------------------------
    Hostile(
        "missing field in a source credit",
        {RULESET_FILE: RULESET.replace(", credit: Written for the tests.", "")},
        "RP102",
        RULESET_FILE,
        9,
        5,
    ),
    Hostile(
        "missing field in a ruling",
        {SKILL_FILE: SKILL + RULING.replace(", why: w", "")},
        "RP102",
        SKILL_FILE,
        8,
        5,
    ),
    # --- Out of range --------------------------------------------------------------------------------
    Hostile("tier 0", weapon_with("tier: 1", "tier: 0"), "RP104", WEAPON_FILE, 5, 7),
    Hostile("tier 11", weapon_with("tier: 1", "tier: 11"), "RP104", WEAPON_FILE, 5, 7),
    Hostile(
        "cost above a million",
        weapon_with("cost: 1", "cost: 1000001"),
        "RP104",
        WEAPON_FILE,
        11,
        7,
    ),
    Hostile(
        "move modifier above 100",
        weapon_with(
            "{ap: 3, damage: 3, defense: 3, move: Base", "{ap: 3, damage: 3, defense: 3, move: 101"
        ),
        "RP104",
        WEAPON_FILE,
        16,
        42,
    ),
    Hostile(
        "three traits where a skill has two",
        skill("traits: [acuity, resolve]", "traits: [acuity, resolve, acuity]"),
        "RP104",
        SKILL_FILE,
        6,
        9,
    ),
    Hostile(
        "no source credit",
        {RULESET_FILE: RULESET.split("sources:")[0] + "sources: []\n"},
        "RP104",
        RULESET_FILE,
        8,
        10,
    ),
    Hostile(
        "name of 201 characters",
        skill("name: Bio Lore", "name: " + "n" * 201),
        "RP104",
        SKILL_FILE,
        3,
        7,
    ),
    # --- Slugs ------------------------------------------------------------------------------------------
    Hostile(
        "slug with uppercase letters",
        skill("id: bio-lore", "id: Bio-Lore"),
        "RP105",
        SKILL_FILE,
        2,
        5,
    ),
    Hostile(
        "reference with spaces instead of a slug",
        {SECTION_FILE: SECTION.replace("skill: bio-lore", "skill: Bio Lore")},
        "RP105",
        SECTION_FILE,
        5,
        8,
    ),
    Hostile("slug ../x", skill("id: bio-lore", "id: ../x"), "RP105", SKILL_FILE, 2, 5),
    Hostile(
        "slug with a trailing hyphen",
        skill("id: bio-lore", "id: bio-lore-"),
        "RP105",
        SKILL_FILE,
        2,
        5,
    ),
    Hostile(
        "slug of 81 characters",
        skill("id: bio-lore", "id: " + "a" * 81),
        "RP104",
        SKILL_FILE,
        2,
        5,
    ),
    Hostile(
        "previous id that is not a slug",
        skill("order: 1", "order: 1\nprevious_ids: [Old Name]"),
        "RP105",
        SKILL_FILE,
        6,
        16,
    ),
    # --- Kinds ----------------------------------------------------------------------------------------------
    Hostile(
        "kind in the wrong case",
        skill("kind: skill", "kind: Skill"),
        "RP100",
        SKILL_FILE,
        1,
        7,
    ),
    Hostile(
        "kind written as a list",
        skill("kind: skill", "kind: [skill]"),
        "RP100",
        SKILL_FILE,
        1,
        7,
    ),
    Hostile("kind missing", skill("kind: skill\n", ""), "RP102", SKILL_FILE, 1, 1),
    Hostile("kind null", skill("kind: skill", "kind: ~"), "RP102", SKILL_FILE, 1, 1),
    Hostile(
        "ruleset.yaml holding a skill",
        {RULESET_FILE: SKILL},
        "RP105",
        RULESET_FILE,
        1,
        7,
    ),
    Hostile(
        "a ruleset document outside ruleset.yaml",
        {"demo/skills/second.yaml": RULESET.replace("id: demo", "id: demo-two")},
        "RP105",
        "demo/skills/second.yaml",
        1,
        7,
    ),
    Hostile(
        "a second ruleset with the same id",
        {"other/ruleset.yaml": RULESET, "other/skills/x.yaml": SKILL.replace("bio-lore", "x")},
        "RP105",
        "other/ruleset.yaml",
        2,
        5,
    ),
    # --- Ids and references -----------------------------------------------------------------------------
    Hostile(
        "a trait with the id of a skill",
        {"demo/traits/bio-lore.yaml": "kind: trait\nid: bio-lore\nname: Bio\norder: 3\n"},
        "RP201",
        "demo/traits/bio-lore.yaml",
        2,
        5,
    ),
    Hostile(
        "a weapon with the id of its section (.yml file)",
        {"demo/weapons/pistols.yml": weapon().replace("id: test-pistol", "id: pistols")},
        "RP201",
        "demo/weapons/pistols.yml",
        2,
        5,
    ),
    Hostile(
        "dangling weapon section",
        weapon_with("section: pistols", "section: rifles"),
        "RP203",
        WEAPON_FILE,
        6,
        10,
    ),
    Hostile(
        "dangling section skill",
        {SECTION_FILE: SECTION.replace("skill: bio-lore", "skill: gunnery")},
        "RP203",
        SECTION_FILE,
        5,
        8,
    ),
    Hostile(
        "dangling see_also of a rule",
        {"demo/rules/intro.yaml": RULE + "see_also: [test-pistol, nowhere]\n"},
        "RP203",
        "demo/rules/intro.yaml",
        7,
        25,
    ),
    Hostile(
        "dangling ladder step",
        {
            "demo/tc/shot-at.yaml": TC_SOURCE,
            "demo/tc/ladder.yaml": "kind: tc-ladder\nid: fire\nname: Fire\n"
            "steps: [shot-at, hit]\nstated_in_source: true\n",
        },
        "RP203",
        "demo/tc/ladder.yaml",
        4,
        18,
    ),
    Hostile(
        "ladder step naming a trait",
        {
            "demo/tc/shot-at.yaml": TC_SOURCE,
            "demo/tc/ladder.yaml": "kind: tc-ladder\nid: fire\nname: Fire\n"
            "steps: [shot-at, acuity]\nstated_in_source: true\n",
        },
        "RP203",
        "demo/tc/ladder.yaml",
        4,
        18,
    ),
    Hostile(
        "weapon section naming a skill",
        weapon_with("section: pistols", "section: bio-lore"),
        "RP203",
        WEAPON_FILE,
        6,
        10,
    ),
    Hostile(
        "a draft trait used by a published skill",
        {ACUITY_FILE: TRAITS[ACUITY_FILE] + "status: draft\n"},
        "RP204",
        SKILL_FILE,
        6,
        10,
    ),
    Hostile(
        "a draft weapon in a rule's see_also",
        {
            "demo/rules/intro.yaml": RULE + "see_also: [test-pistol]\n",
            **weapon_with("order: 1", "order: 1\nstatus: draft"),
        },
        "RP204",
        "demo/rules/intro.yaml",
        7,
        12,
    ),
    Hostile(
        "a new document takes a renamed weapon's old id",
        {
            **weapon_with("order: 1", "order: 1\nprevious_ids: [old-pistol]"),
            "demo/traits/old.yaml": "kind: trait\nid: old-pistol\nname: Old\norder: 3\n",
        },
        "RP202",
        "demo/traits/old.yaml",
        2,
        5,
    ),
    Hostile(
        "two documents claim the same previous id",
        {
            **weapon_with("order: 1", "order: 1\nprevious_ids: [old]"),
            **skill("order: 1", "order: 1\nprevious_ids: [old]"),
        },
        "RP202",
        WEAPON_FILE,
        8,
        16,
    ),
    # --- The file system ----------------------------------------------------------------------------------
    Hostile(
        "ruleset.yaml is a folder",
        {},
        "RP001",
        RULESET_FILE,
        1,
        1,
        setup=ruleset_file_is_a_folder,
    ),
    Hostile(
        "a folder named x.yaml is walked like any folder",
        {"demo/skills/x.yaml/inner.yaml": SKILL.replace("bio-lore", "inner").replace("Bio", "In")},
        NO_FINDING,
        SKILL_FILE,
        1,
        1,
    ),
    Hostile(
        "symbolic link to a file outside the compendium",
        {},
        "RP008",
        "demo/skills/smuggled.yaml",
        1,
        1,
        setup=symlink("demo/skills/smuggled.yaml", outside_file),
    ),
    Hostile(
        "symbolic link to /etc/passwd",
        {},
        "RP008",
        "demo/skills/passwd.yaml",
        1,
        1,
        setup=symlink("demo/skills/passwd.yaml", "/etc/passwd"),
    ),
    Hostile(
        "symbolic link loop",
        {},
        "RP008",
        "demo/skills/a.yaml",
        1,
        1,
        setup=lambda root: (
            symlink("demo/skills/a.yaml", "b.yaml")(root),
            symlink("demo/skills/b.yaml", "a.yaml")(root),
        ),
        cli=True,
        seconds=2.0,
    ),
    Hostile(
        "symbolic link to a folder outside the compendium",
        {},
        "RP008",
        "demo/skills/elsewhere",
        1,
        1,
        setup=symlink("demo/skills/elsewhere", outside_folder),
    ),
    Hostile(
        "ruleset folder that is a link to outside the compendium",
        {},
        "RP008",
        "smuggled",
        1,
        1,
        setup=symlink("smuggled", outside_ruleset),
    ),
    Hostile(
        "named pipe ending in .yaml",
        {},
        "RP001",
        "demo/skills/pipe.yaml",
        1,
        1,
        setup=named_pipe,
        seconds=2.0,
    ),
]


@pytest.mark.parametrize("case", params(CASES))
def test_hostile_input_gives_its_finding_at_its_place(tmp_path, case: Hostile):
    assert_finding_at_its_place(tmp_path, case)


@pytest.mark.parametrize(
    "case", params([c for c in CASES if c.cli], lambda case: case.cli_xfail or case.xfail)
)
def test_the_command_line_gives_the_same_outcome(tmp_path, case: Hostile):
    assert_command_line_outcome(tmp_path, case)


# --- Paths the command line refuses --------------------------------------------------------


@dataclass
class CliCase:
    name: str
    args: tuple[str, ...]
    """Run in a folder holding `c/` (a valid compendium) and `afile` (a plain file)."""
    exit: int
    says: str
    """Text the message must contain (stdout and stderr together)."""
    xfail: str = ""


CLI_CASES = [
    CliCase(
        "validate a compendium that does not exist",
        ("validate", "missing"),
        2,
        "error: compendium folder not found: missing",
    ),
    CliCase(
        "validate a path that is a file",
        ("validate", "afile"),
        2,
        "error: compendium path is not a folder: afile",
    ),
    CliCase(
        "build into an output folder that is a file",
        ("build", "c", "--out", "afile", "--target", "json"),
        2,
        "error: output path is not a folder: afile",
    ),
    CliCase(
        "build into an output folder under a file",
        ("build", "c", "--out", "afile/sub", "--target", "json"),
        2,
        "error: cannot write to output folder afile/sub",
    ),
    CliCase(
        "build into the compendium over a ruleset folder named like the target",
        ("build", "c", "--out", "c", "--target", "json"),
        2,
        "error: ",
    ),
]


@pytest.mark.parametrize("case", params(CLI_CASES))
def test_the_command_line_refuses_bad_paths(tmp_path, case: CliCase):
    tree = {key.replace("demo/", "json/", 1): value for key, value in base_tree().items()}
    build_tree(tmp_path / "c", tree)
    (tmp_path / "afile").write_text("not a folder\n", encoding="utf-8")
    result = run(*case.args, cwd=tmp_path)
    assert result.returncode == case.exit, result.stdout + result.stderr
    assert case.says in result.stdout + result.stderr
    assert (tmp_path / "c/json/ruleset.yaml").is_file(), "the compendium lost files"
    assert (tmp_path / "afile").read_text(encoding="utf-8") == "not a folder\n"


# --- Valid data every target must build ----------------------------------------------------------


@dataclass
class BuildCase:
    name: str
    files: dict[str, str]
    target: str
    xfail: str = ""


CHAPTER_RULE = "kind: rule\nid: {id}\ntitle: {title}\nchapter: '{chapter}'\norder: 1\ntext: Hi.\n"

BUILD_CASES = [
    BuildCase(
        "weapon name of 200 accented letters (foundry)",
        weapon_with("name: Test Pistol", "name: " + "é" * 200),
        "foundry",
    ),
    BuildCase(
        "weapon name of 200 Cyrillic letters (foundry)",
        weapon_with("name: Test Pistol", "name: " + "Ж" * 200),
        "foundry",
    ),
    BuildCase(
        "weapon section name of twelve words (site)",
        {SECTION_FILE: SECTION.replace("name: Pistols", "name: " + " ".join(["Pistols"] * 12))},
        "site",
    ),
    BuildCase(
        "chapter name without letters or digits (site)",
        {"demo/rules/r1.yaml": CHAPTER_RULE.format(id="r1", title="One", chapter="!!!")},
        "site",
    ),
    BuildCase(
        "two chapter names that slug alike (foundry)",
        {
            "demo/rules/r1.yaml": CHAPTER_RULE.format(id="r1", title="One", chapter="A B"),
            "demo/rules/r2.yaml": CHAPTER_RULE.format(id="r2", title="Two", chapter="A-B"),
        },
        "foundry",
    ),
    BuildCase(
        "a rule whose id is a generated section's id (foundry)",
        {
            "demo/rules/r1.yaml": CHAPTER_RULE.format(
                id="traits", title="On traits", chapter="Skills"
            )
        },
        "foundry",
    ),
]


def test_an_integer_too_long_to_print_is_refused_before_any_build(tmp_path):
    """A 5,000-digit `order` used to validate and then crash the json export."""
    tree = {
        **base_tree(),
        ACUITY_FILE: TRAITS[ACUITY_FILE].replace("order: 1", "order: 0x" + "f" * 5000),
    }
    build_tree(tmp_path / "c", tree)
    validation, written = build(tmp_path / "c", tmp_path / "out", ["json"])
    assert not validation.ok and written == []
    assert ("RP104", 4, 8) in [(f.code, f.line, f.col) for f in validation.findings]


@pytest.mark.parametrize("case", params(BUILD_CASES))
def test_valid_data_builds(tmp_path, case: BuildCase):
    build_tree(tmp_path / "c", {**base_tree(), **case.files})
    validation, written = build(tmp_path / "c", tmp_path / "out", [case.target])
    assert validation.ok, [(f.code, f.message) for f in validation.findings]
    assert written == [tmp_path / "out" / case.target]
    assert any(path.is_file() for path in written[0].rglob("*"))


# --- Output safety: hostile text in every built output -------------------------------------------


def md_shown(n: int) -> str:
    """How payload(n) reads in Markdown source when escaped."""
    return rf"&lt;script&gt;alert({n})&lt;/script&gt;&lt;/table&gt; a \| b \`c\` {{{{ 7\*7 }}}} {{% raw %}}"


def html_shown(n: int) -> str:
    """How payload(n) reads in HTML when shown as text."""
    return (
        f"&lt;script&gt;alert({n})&lt;/script&gt;&lt;/table&gt; a | b `c` {{{{ 7*7 }}}} {{% raw %}}"
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The hostile tree built once for the markdown, foundry and site targets."""
    root = tmp_path_factory.mktemp("hostile")
    build_tree(root / "c", hostile_tree())
    validation, _ = build(root / "c", root / "out", ["markdown", "foundry", "site"])
    assert validation.ok, [(f.code, f.message) for f in validation.findings]
    return root / "out"


def journal_html(out: Path) -> str:
    """Every journal page's HTML (names are plain text in Foundry; pages are HTML)."""
    entries = foundry_sources(out, "rules").values()
    return "\n".join(page["text"]["content"] for entry in entries for page in entry["pages"])


def item_html(out: Path) -> str:
    items = foundry_sources(out, "weapons").values()
    return "\n".join(item["system"]["description"] for item in items if item["type"] == "item")


def site_html(out: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in (out / "site").rglob("*.html"))


HAYSTACKS: dict[str, Callable[[Path], str]] = {
    "markdown guide": lambda out: (out / "markdown/demo.md").read_text(encoding="utf-8"),
    "foundry journal": journal_html,
    "foundry item": item_html,
    "site": site_html,
}


@dataclass(frozen=True)
class OutputCase:
    name: str
    where: str
    """A key of HAYSTACKS."""
    raw: str
    """A regular expression that must not match: the value taken as markup."""
    shown: str
    """Text that must be there: the value shown as text."""
    xfail: str = ""


LINK_LABELS = (
    "link labels are not escaped: the name goes raw into the Markdown link (and the Foundry "
    "@UUID label), so <script> is live HTML and | splits the table cell"
)
PUBLISHED = "`source.published` is printed without the md filter (guide.md.j2, sources.md.j2)"


def field_case(field_name: str, where: str, xfail: str = "") -> OutputCase:
    n = FIELDS[field_name]
    shown = md_shown(n) if where == "markdown guide" else html_shown(n)
    raw = re.escape(f"<script>alert({n})</script>")
    return OutputCase(f"{field_name} in the {where}", where, raw, shown, xfail)


OUTPUT_CASES = [
    field_case("weapon name", "markdown guide"),
    field_case("weapon section name", "markdown guide"),
    field_case("skill name", "markdown guide"),
    field_case("trait name", "markdown guide"),
    field_case("rule title", "markdown guide"),
    field_case("rule chapter", "markdown guide"),
    field_case("rule text", "markdown guide"),
    field_case("ruleset title", "markdown guide"),
    field_case("ruleset summary", "markdown guide"),
    field_case("source author", "markdown guide"),
    field_case("source credit", "markdown guide"),
    field_case("source publication", "markdown guide"),
    field_case("ruling question", "markdown guide"),
    field_case("skill combat note", "markdown guide"),
    field_case("weapon name", "foundry journal"),
    field_case("weapon description", "foundry item"),
    field_case("skill name", "foundry journal"),
    field_case("trait name", "foundry journal"),
    field_case("rule text", "foundry journal"),
    field_case("ruleset title", "foundry journal"),
    field_case("source credit", "foundry journal"),
    field_case("source publication", "foundry journal"),
    field_case("ruling question", "foundry journal"),
    field_case("skill combat note", "foundry journal"),
    field_case("weapon name", "site"),
    field_case("weapon section name", "site"),
    field_case("skill name", "site"),
    field_case("trait name", "site"),
    field_case("rule title", "site"),
    field_case("rule chapter", "site"),
    field_case("rule text", "site"),
    field_case("ruleset title", "site"),
    field_case("source credit", "site"),
    field_case("source publication", "site"),
    field_case("ruling question", "site"),
    field_case("skill combat note", "site"),
    field_case("glossary definition", "site"),
    OutputCase(
        "attribute list syntax in a rule title on the site",
        "site",
        r"<h\d[^>]*\sonclick=",
        "Plain {: onclick=",
    ),
]


@pytest.mark.parametrize("case", params(OUTPUT_CASES))
def test_hostile_text_shows_as_text_in_every_output(built, case: OutputCase):
    text = HAYSTACKS[case.where](built)
    found = re.search(case.raw, text)
    assert found is None, text[max(0, found.start() - 200) : found.end() + 100]
    assert case.shown in text


UNICODE_PARAMS = [pytest.param(case, id=case.name) for case in UNICODE_CASES]


@pytest.mark.parametrize("case", UNICODE_PARAMS)
def test_unicode_names_build_with_safe_ids_and_file_names(built, case: UnicodeCase):
    folder = built / "foundry/rulepress-demo/src/packs/weapons"
    (path, item), *others = [
        (path, doc)
        for path, doc in foundry_sources(built, "weapons").items()
        if doc.get("name") == case.text
    ]
    assert others == []
    assert re.fullmatch(r"[A-Za-z0-9]{16}", item["_id"])
    assert item["_key"] == f"!items!{item['_id']}"
    assert item["flags"]["rulepress"]["id"] == case.weapon_id
    assert path.parent == folder
    assert "/" not in path.name and "\\" not in path.name and not path.name.startswith(".")
    assert path.name.endswith(f"_{item['_id']}.json")
    assert len(path.name.encode("utf-8")) <= 255
    guide = (built / "markdown/demo.md").read_text(encoding="utf-8")
    assert case.markdown in guide
    page = (built / "site/demo/weapons").glob("*.html")
    assert any(html.escape(case.text, quote=False) in p.read_text(encoding="utf-8") for p in page)


def test_every_foundry_document_of_the_hostile_tree_has_a_valid_id(built):
    for pack in ("rules", "weapons"):
        for path, document in foundry_sources(built, pack).items():
            assert re.fullmatch(r"[A-Za-z0-9]{16}", document["_id"]), path
            for page in document.get("pages", []):
                assert re.fullmatch(r"[A-Za-z0-9]{16}", page["_id"]), path


def test_there_are_at_least_sixty_hostile_cases():
    total = len(CASES) + len(CLI_CASES) + len(BUILD_CASES) + len(OUTPUT_CASES)
    assert total + len(UNICODE_CASES) >= 60
    assert len([c for c in CASES if c.cli]) + len(CLI_CASES) >= 10
