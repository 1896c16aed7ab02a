"""The cases of tests/test_checks.py for the checks of names, ladders and the text's own
quality (RP234-RP238, RP231's further dictionaries): kept apart from tests/check_cases.py,
which adds them to its FAILING and PASSING lists."""

from __future__ import annotations

from tests.check_cases import (
    LADDER,
    RULE,
    RULE_FILE,
    WARN,
    Fails,
    Files,
    Passes,
    rule_text,
    wound_ladder,
)
from tests.helpers import ACUITY_FILE, RULESET, RULESET_FILE, SKILL, SKILL_FILE, WEAPON_FILE

LADDER_FILE = "demo/tc/wound-ladder.yaml"


def ladder_text(*lines: str, stated: str = "true") -> Files:
    """The wound ladder of tests/check_cases.py with a text of one line per step; its
    `steps` list is at line 4, the third step at column 37."""
    text = "".join(f"\n  {line}" for line in lines)
    files = wound_ladder()
    files[LADDER_FILE] = (
        LADDER.replace("stated_in_source: true", f"stated_in_source: {stated}") + f"text: |{text}\n"
    )
    return files


FAILING_TEXT = [
    # RP231 misspelled-word, from codespell's further dictionaries
    Fails(
        "a missing apostrophe (codespell's code dictionary)",
        rule_text("Dont roll the dice."),
        "RP231",
        RULE_FILE,
        6,
        7,
        WARN,
    ),
    Fails(
        "a British spelling in a text that writes American ones",
        rule_text("Color, honor and armour."),
        "RP231",
        RULE_FILE,
        6,
        24,
        WARN,
    ),
    # RP234 name-spelled-two-ways
    Fails(
        "a weapon's name written with a hyphen in a rule",
        rule_text("Aim the Test-Pistol, then the TestPistol."),
        "RP234",
        RULE_FILE,
        6,
        15,
        WARN,
        more=((RULE_FILE, 6, 37),),
    ),
    Fails(
        "a rule titled like a weapon but for a plural and the case",
        {RULE_FILE: RULE.replace("title: Reading Tables", "title: test pistols")},
        "RP234",
        WEAPON_FILE,
        3,
        7,
        WARN,
    ),
    Fails(
        "a skill named like a trait",
        {SKILL_FILE: SKILL.replace("Bio Lore", "Acuity")},
        "RP234",
        ACUITY_FILE,
        3,
        7,
        WARN,
    ),
    # RP235 ladder-inclusion
    Fails(
        "a ladder one of whose steps says it includes those below and another does not",
        ladder_text("Wounded = 1", "Seriously wounded = 2 (includes above)", "Killed = 4"),
        "RP235",
        LADDER_FILE,
        4,
        37,
        WARN,
    ),
    # RP236 doubled-word
    Fails(
        "an article written twice, reported at the second",
        rule_text("Below is a a full list."),
        "RP236",
        RULE_FILE,
        6,
        18,
        WARN,
    ),
    Fails(
        "a word doubled across a line break of a block text, whatever its case",
        rule_text("|\n  Roll the\n  The dice."),
        "RP236",
        RULE_FILE,
        8,
        3,
        WARN,
    ),
    # RP237 undefined-unit
    Fails(
        "a cost glued to a unit no currency or glossary defines, reported once",
        rule_text("A pistol costs 1Bar, a rifle 8Bar."),
        "RP237",
        RULE_FILE,
        6,
        23,
        WARN,
    ),
    # RP238 placeholder-marker
    Fails(
        "a placeholder left in a text",
        rule_text("Damage is TBD."),
        "RP238",
        RULE_FILE,
        6,
        17,
        WARN,
    ),
    Fails(
        "a wiki's old-revision banner kept in a text",
        rule_text("This is an old revision of the document! Roll."),
        "RP238",
        RULE_FILE,
        6,
        18,
        WARN,
    ),
]

PASSING_TEXT = [
    Passes(
        "a ladder every step of which says it includes those below",
        ladder_text(
            "Wounded = 1", "Seriously = 2 (includes above)", "Killed = 4 (includes the ones above)"
        ),
        "RP235",
    ),
    Passes(
        "ladders none of whose steps say",
        ladder_text("Wounded = 1", "Seriously wounded = 2", "Killed = 4", stated="false"),
        "RP235",
    ),
    Passes(
        "British spellings only, and a programmers' word that is a word in prose",
        rule_text("Colour, honour and armour; open the ammunition crate."),
        "RP231",
    ),
    Passes(
        "a name in another case and plural, and a name of one word",
        rule_text("Aim the test pistol; two Test Pistols, an acuity-test."),
        "RP234",
    ),
    Passes(
        "a cost in the ruleset's currency",
        {**rule_text("A pistol costs 1Bar."), RULESET_FILE: RULESET + "currency: Bar\n"},
        "RP237",
    ),
    Passes(
        "figures that carry no unit, a unit of measure, and a unit a glossary defines",
        {
            **rule_text("The 1st of 10s; 2d6, 1D10, 3x, 5e, 10kg and 2Crowns."),
            RULESET_FILE: RULESET + "glossary:\n  Crown: A coin.\n",
        },
        "RP237",
    ),
    Passes(
        "words English writes twice, and a word repeated across a full stop",
        rule_text("He had had enough. Roll a die. A die is enough; that that is all."),
        "RP236",
    ),
    Passes(
        "a doubled word quoted in an acknowledgement's reason",
        {
            RULE_FILE: rule_text("Find the row.")[RULE_FILE]
            + "acknowledged:\n  - code: RP236\n    reason: The source prints a a.\n"
        },
        "RP236",
        also=("RP011",),
    ),
    Passes(
        "words that only contain a marker's letters",
        rule_text("Revision of the old rules; a toddler's XXL coat, tbd in lower case."),
        "RP238",
    ),
]
