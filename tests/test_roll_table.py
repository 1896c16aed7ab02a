"""The core `roll-table` kind: its formulas and ranges, the findings at a row's line, each
row's exact chance in the guide, its Foundry RollTable read back by the official CLI; and
the level tables (corruption-triggers) sharing the same rows with inclusive ranges."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.exporters import ExportOptions
from rulepress.models.roll_table import RollTable, parse_formula
from rulepress.models.rows import Span, parse_range
from rulepress.validation import validate
from tests.helpers import build_tree, unpack_with_cli

RULESET = """\
kind: ruleset
id: demo
title: Demo
version: "1.0.0"
game: Demo
system: d100
summary: A tiny ruleset with roll tables.
sources:
  - {title: Test page, author: Tests, credit: Written for the tests.}
"""
INTRO = "kind: rule\nid: intro\ntitle: Introduction\nchapter: Rules\norder: 1\ntext: Roll.\n"
ORACLE = """\
kind: roll-table
id: oracle
name: Oracle
formula: d100
text: Ask a yes/no question.
rows:
  - range: 1-50
    text: No | *never*
  - range: 51-98
    text: "Yes"
    link: intro
  - range: "99-00"
    text: Roll twice on this table
    link: oracle
    img: icons/svg/dice-target.svg
"""
REACTION = """\
kind: roll-table
id: reaction
name: Reaction
formula: 2d6
rows:
  - range: 2-6
    text: Hostile
  - range: 7
    text: Neutral
  - range: 8-12
    text: Friendly
"""


def tree(tmp_path: Path, **documents: str) -> Path:
    """A ruleset `demo` with a rule text and the given documents (file stem -> YAML)."""
    files = {"demo/ruleset.yaml": RULESET, "demo/intro.yaml": INTRO}
    files |= {f"demo/{name}.yaml": text for name, text in documents.items()}
    return build_tree(tmp_path / "compendium", files)


def table(formula: str, *ranges: object, extra: str = "") -> str:
    """A roll table rolled with `formula`, a row per range (each on its own two lines:
    row i's range is on line 6 + 2i, at column 5)."""
    rows = "".join(f"  - range: {json.dumps(r)}\n    text: Row {i}\n" for i, r in enumerate(ranges))
    return f"kind: roll-table\nid: t\nname: T\nformula: {formula}\nrows:\n{rows}{extra}"


def findings(tmp_path: Path, text: str) -> list[str]:
    validation = validate(tree(tmp_path, t=text))
    return [f"{f.code} {f.file.name}:{f.line}:{f.col} {f.message}" for f in validation.findings]


# --- The model: formulas, ranges ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("formula", "lowest", "highest", "results", "foundry"),
    [
        ("1d100", 1, 100, 100, "1d100"),
        ("d100", 1, 100, 100, "1d100"),
        ("d%", 1, 100, 100, "1d100"),
        ("2d6", 2, 12, 11, "2d6"),
        ("1d6+1", 2, 7, 6, "1d6+1"),
        ("3d6-3", 0, 15, 16, "3d6-3"),
        ("1d20", 1, 20, 20, "1d20"),
        ("d66", 11, 66, 36, "1d6*10+1d6"),
        ("10d100", 10, 1000, 991, "10d100"),
    ],
)
def test_each_formula_form_parses_to_its_results(formula, lowest, highest, results, foundry):
    parsed = parse_formula(formula)
    assert parsed.span == Span(lowest, highest)
    assert len(parsed.outcomes) == results
    assert parsed.foundry == foundry
    assert sum(parsed.distribution.values()) == 1


def test_d66_reads_two_dice_as_tens_and_units():
    outcomes = parse_formula("d66").outcomes
    assert outcomes[:7] == [11, 12, 13, 14, 15, 16, 21]
    assert all(set(str(value)) <= set("123456") for value in outcomes)


@pytest.mark.parametrize(
    ("formula", "said"),
    [
        ("1d66", "write d66"),
        ("0d6", "1 to 100 dice"),
        ("d1", "2 to 1000 sides"),
        ("2d1000", "dice times sides"),
        ("2d6+", "not a dice formula"),
        ("d6x", "not a dice formula"),
    ],
)
def test_a_formula_rulepress_cannot_roll_is_a_finding_at_the_formula(tmp_path, formula, said):
    (shown,) = findings(tmp_path, table(formula, 1))
    assert shown.startswith("RP105 t.yaml:4:10 formula: ")
    assert said in shown


@pytest.mark.parametrize(
    ("written", "span"),
    [
        (5, Span(5, 5)),
        ("5-9", Span(5, 9)),
        ("99-100", Span(99, 100)),
        ("96-00", Span(96, 100)),
        ("00", Span(100, 100)),
        ("-1-2", Span(-1, 2)),
        ("-3--1", Span(-3, -1)),
    ],
)
def test_each_range_form_parses_to_its_inclusive_span(written, span):
    assert parse_range(written) == span


@pytest.mark.parametrize(
    ("written", "said"),
    [("9-5", "reversed"), ("1-2-3", "not a range"), ("five", "not a range")],
)
def test_a_range_that_names_no_span_is_a_finding_at_the_range(tmp_path, written, said):
    shown = findings(tmp_path, table("1d10", written))
    assert shown[0].startswith("RP105 t.yaml:6:12 rows[0].range: ")
    assert said in shown[0]


# --- Findings at the row -----------------------------------------------------------------------


def test_a_gap_is_a_finding_at_the_row_after_it(tmp_path):
    assert findings(tmp_path, table("2d6", "2-6", "7", "10-12")) == [
        "RP105 t.yaml:10:12 rows[2].range: no row covers 8-9, just before this row (got '10-12')"
    ]


def test_a_gap_at_the_end_is_a_finding_at_the_last_row(tmp_path):
    assert findings(tmp_path, table("d100", "1-50", "51-98")) == [
        "RP105 t.yaml:8:12 rows[1].range: no row covers 99-100, just after this row (got '51-98')"
    ]


def test_an_overlap_is_a_finding_at_the_second_row(tmp_path):
    assert findings(tmp_path, table("1d6", "1-3", "3-4", "5-6")) == [
        "RP105 t.yaml:8:12 rows[1].range: 3-4 overlaps rows[0] (1-3) at 3 (got '3-4')"
    ]


def test_a_row_outside_the_formula_is_an_out_of_range_finding(tmp_path):
    assert findings(tmp_path, table("2d6", "1-6", "7-12")) == [
        "RP104 t.yaml:6:12 rows[0].range: 1-6 is outside 2-12, what 2d6 rolls (got '1-6')"
    ]


def test_a_bare_00_read_as_0_says_how_to_write_100(tmp_path):
    (shown,) = findings(tmp_path, table("d100", "1-99", 0))
    assert shown.startswith("RP104 t.yaml:8:12 rows[1].range: 0 is outside 1-100")
    assert 'write "00", quoted, for 100' in shown


def test_a_d66_range_ending_on_a_value_no_roll_gives_is_a_finding(tmp_path):
    ranges = ["11-16", "21-29", "31-36", "41-46", "51-56", "61-66"]
    assert findings(tmp_path, table("d66", *ranges)) == [
        "RP105 t.yaml:8:12 rows[1].range: 29 cannot be rolled on d66 (each die reads 1-6) "
        "(got '21-29')"
    ]


def test_a_d66_table_by_tens_covers_every_result(tmp_path):
    ranges = ["11-16", "21-26", "31-36", "41-46", "51-56", "61-66"]
    assert findings(tmp_path, table("d66", *ranges)) == []


def test_a_link_to_an_unknown_document_is_a_dangling_reference_at_the_link(tmp_path):
    text = table("1d2", 1, 2).replace("text: Row 1\n", "text: Row 1\n    link: nowhere\n")
    assert findings(tmp_path, text) == ["RP203 t.yaml:10:11 document 'nowhere' does not exist"]


def test_a_link_to_a_draft_is_refused_as_any_reference_to_a_draft(tmp_path):
    draft = INTRO.replace("id: intro", "id: later") + "status: draft\n"
    text = table("1d2", 1, 2).replace("text: Row 1\n", "text: Row 1\n    link: later\n")
    shown = [
        f"{f.code} {f.line}:{f.col}"
        for f in validate(tree(tmp_path, t=text, later=draft)).findings
        if f.code != "RP211"  # the draft's own note
    ]
    assert shown == ["RP204 10:11"]


def test_an_image_path_with_a_scheme_or_dot_dot_is_refused(tmp_path):
    for img in ("javascript:alert(1).png", "../secret.png", "https://x.test/a.png"):
        text = table("1d2", 1, 2).replace("text: Row 1\n", f"text: Row 1\n    img: {img!r}\n")
        (shown,) = findings(tmp_path, text)
        assert shown.startswith("RP105 t.yaml:10:10 rows[1].img: an image is a path"), shown


# --- Chances -----------------------------------------------------------------------------------


def test_each_row_chance_is_exact():
    reaction = RollTable.model_validate(
        {
            "kind": "roll-table",
            "id": "r",
            "name": "R",
            "formula": "2d6",
            "rows": [
                {"range": "2-6", "text": "a"},
                {"range": 7, "text": "b"},
                {"range": "8-12", "text": "c"},
            ],
        }
    )
    assert reaction.chances() == [Fraction(15, 36), Fraction(6, 36), Fraction(15, 36)]
    assert reaction.row_for(7).text == "b"
    d66 = parse_formula("d66")
    assert d66.chance(Span(11, 16)) == Fraction(6, 36)
    assert d66.chance(Span(16, 21)) == Fraction(2, 36)  # 16 and 21: nothing between


# --- Outputs -----------------------------------------------------------------------------------


def test_the_guide_shows_each_row_with_its_range_text_link_and_chance(tmp_path):
    validation, _ = build(
        tree(tmp_path, oracle=ORACLE, reaction=REACTION), tmp_path / "out", ["markdown"]
    )
    assert validation.ok
    guide = (tmp_path / "out" / "markdown" / "demo.md").read_text()
    assert (
        "Ask a yes/no question.\n\n"
        "| d100 | Result | Chance |\n"
        "| --- | --- | --- |\n"
        "| 1-50 | No \\| \\*never\\* | 50.0% |\n"
        "| 51-98 | Yes (see [Introduction](#intro)) | 48.0% |\n"
        "| 99-100 | Roll twice on this table (see [Oracle](#oracle)) | 2.0% |\n"
    ) in guide
    assert "| 7 | Neutral | 16.7% |" in guide  # 6/36


def test_the_site_page_shows_the_same_table(tmp_path):
    validation, _ = build(tree(tmp_path, reaction=REACTION), tmp_path / "out", ["site"])
    assert validation.ok
    pages = "".join(p.read_text() for p in (tmp_path / "out" / "site").rglob("*.md"))
    assert "| 2d6 | Result | Chance |" in pages
    assert "| 7 | Neutral | 16.7% |" in pages


def _tables(folder: Path) -> dict[str, dict]:
    documents = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    return {document["name"]: document for document in documents}


def test_the_foundry_roll_table_rolls_its_formula_and_links_documents_by_uuid(
    tmp_path, foundry_cli
):
    out = tmp_path / "out"
    validation, _ = build(tree(tmp_path, oracle=ORACLE, reaction=REACTION), out, ["foundry"])
    assert validation.ok
    module = out / "foundry" / "rulepress-demo"
    tables = _tables(unpack_with_cli(foundry_cli, module / "packs" / "tables", tmp_path))
    assert tables == _tables(module / "src" / "packs" / "tables")  # the CLI reads our pack
    oracle, reaction = tables["Oracle"], tables["Reaction"]
    assert (oracle["formula"], reaction["formula"]) == ("1d100", "2d6")
    assert oracle["description"] == "Ask a yes/no question."
    assert [r["range"] for r in oracle["results"]] == [[1, 50], [51, 98], [99, 100]]
    assert [r["range"] for r in reaction["results"]] == [[2, 6], [7, 7], [8, 12]]
    no, yes, twice = oracle["results"]
    assert (no["type"], no["documentUuid"], no["description"]) == ("text", None, "No | *never*")
    assert yes["type"] == "document"
    assert yes["documentUuid"].startswith("Compendium.rulepress-demo.rules.JournalEntry.")
    assert ".JournalEntryPage." in yes["documentUuid"]
    assert twice["documentUuid"] == f"Compendium.rulepress-demo.tables.RollTable.{oracle['_id']}"
    assert twice["img"] == "icons/svg/dice-target.svg"
    assert no["img"] == "icons/svg/d20-black.svg"
    macros = module / "src" / "packs" / "macros"
    assert not macros.exists()  # no Corruption lookup for a plain roll table


def test_foundry_12_links_a_result_by_pack_and_id(tmp_path):
    out = tmp_path / "out"
    build(tree(tmp_path, oracle=ORACLE), out, ["foundry"], ExportOptions(foundry_version=12))
    (oracle,) = _tables(out / "foundry" / "rulepress-demo" / "src" / "packs" / "tables").values()
    no, _, twice = oracle["results"]
    assert (no["type"], no["documentCollection"], no["documentId"]) == ("text", "", None)
    assert twice["type"] == "pack"
    assert twice["documentCollection"] == "rulepress-demo.tables"
    assert twice["documentId"] == oracle["_id"]


# --- Level tables share the rows --------------------------------------------------------------

TRIGGERS = """\
kind: corruption-triggers
id: corruption-triggers
name: Corruption Triggers
headers: [Corruption level, Trigger]
rows:
  - level: 90
    events: Bad things
  - level: 99
    events: Worse things
"""


def test_a_corruption_triggers_last_row_99_100_exports_as_99_100(tmp_path):
    last = TRIGGERS + "    to: 100\n"
    out = tmp_path / "out"
    validation, _ = build(tree(tmp_path, triggers=last), out, ["foundry"])
    assert validation.ok, validation.findings
    (triggers,) = _tables(out / "foundry" / "rulepress-demo" / "src" / "packs" / "tables").values()
    assert triggers["formula"] == "@level"  # still looked up by level
    assert [r["range"] for r in triggers["results"]] == [[90, 98], [99, 100]]
    assert [r["name"] for r in triggers["results"]] == ["Corruption 90-98", "Corruption 99-100"]


def test_a_corruption_triggers_last_row_without_to_keeps_its_own_level(tmp_path):
    out = tmp_path / "out"
    validation, _ = build(tree(tmp_path, triggers=TRIGGERS), out, ["foundry"])
    assert validation.ok
    (triggers,) = _tables(out / "foundry" / "rulepress-demo" / "src" / "packs" / "tables").values()
    assert [r["range"] for r in triggers["results"]] == [[90, 98], [99, 99]]


def test_a_level_row_reaching_into_the_next_is_an_overlap_at_the_next_row(tmp_path):
    overlapping = TRIGGERS.replace(
        "    events: Bad things\n", "    events: Bad things\n    to: 99\n"
    )
    validation = validate(tree(tmp_path, triggers=overlapping))
    assert [f"{f.code} {f.line}:{f.col} {f.message}" for f in validation.findings] == [
        "RP105 9:12 rows[1].level: 99 overlaps rows[0] (90-99) at 99 (got '99')"
    ]


def test_a_level_row_ending_before_its_level_is_a_finding_at_its_to(tmp_path):
    reversed_end = TRIGGERS + "    to: 98\n"
    validation = validate(tree(tmp_path, triggers=reversed_end))
    assert [f"{f.code} {f.line}:{f.col}" for f in validation.findings] == ["RP105 10:9"]
    assert "ends before its level 99" in validation.findings[0].message


def test_a_level_row_ending_short_of_the_next_is_a_gap_at_the_next_row(tmp_path):
    short = TRIGGERS.replace("    events: Bad things\n", "    events: Bad things\n    to: 95\n")
    validation = validate(tree(tmp_path, triggers=short))
    assert [f"{f.code} {f.line}:{f.col} {f.message}" for f in validation.findings] == [
        "RP105 9:12 rows[1].level: no row covers 96-98, just before this row (got '99')"
    ]


def test_level_rows_out_of_order_stay_the_level_order_check_s(tmp_path):
    unordered = TRIGGERS.replace("level: 99", "level: 80")
    validation = validate(tree(tmp_path, triggers=unordered))
    assert [f.code for f in validation.findings] == ["RP218"]
