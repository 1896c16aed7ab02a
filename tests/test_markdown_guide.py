"""The Markdown quick-reference guides: pinned by golden files, escaped, self-linked."""

from __future__ import annotations

import re

import pytest
from ruamel.yaml import YAML

from rulepress.commands.build import build
from rulepress.exporters.markdown_guide import render_guide
from rulepress.validation import validate
from tests.golden import assert_golden
from tests.helpers import base_tree, build_tree

RULESETS = ("iris", "t2k4e", "t2k-cuf", "cool")


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_guide_matches_its_golden_file(bundled, ruleset_id):
    compendium = bundled.compendium
    ruleset = compendium.ruleset(ruleset_id)
    text = render_guide(ruleset, errata=compendium.errata_of(ruleset))
    assert_golden(f"markdown/{ruleset_id}.md", text)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_link_in_the_guide_lands_on_an_anchor(bundled, ruleset_id):
    text = render_guide(bundled.compendium.ruleset(ruleset_id))
    anchors = re.findall(r'<a id="([^"]+)"></a>', text)
    assert len(anchors) == len(set(anchors)), "anchors repeat"
    targets = set(re.findall(r"\]\(#([^)]+)\)", text))
    assert targets, "the guide links nowhere"
    assert targets <= set(anchors) | {"rulings", "sources"}


def test_the_iris_guide_has_every_weapon_with_thirty_rows(bundled):
    text = render_guide(bundled.compendium.ruleset("iris"))
    for name in ("Salvaged Pistol", "Pump Action Shotgun", "LMG", "Tactical Auto-Cannon"):
        block = text.split(f" {name} (Tier")[1].split("<a id=")[0].split("| AP |")[1]
        assert len(re.findall(r"^\| \d+ \| ", block, flags=re.M)) == 30, name


def test_the_t2k4e_guide_shows_computed_odds_beside_printed(bundled):
    text = render_guide(bundled.compendium.ruleset("t2k4e"))
    assert "| d6 | 31% / 30.6% | **49%** (off) / 47.9% |" in text
    assert "**62%** (off) / 56.2% (60.9%)" in text  # said in words, not only in bold


def test_an_odds_cell_is_bold_when_it_is_off_the_figure_printed_beside_it(bundled):
    """The caption says the figure beside a printed cell is the rule text's reading and bold
    marks a cell more than half a point off it: bold follows that figure, not the bracketed
    one."""
    text = render_guide(bundled.compendium.ruleset("t2k4e"))
    pushed = text[text.index("### Odds of Success: Pushed Roll") :].split("\n\n<a id=")[0]
    cells = re.findall(r"(\*\*)?(\d+)%(?:\*\* \(off\))? / ([\d.]+)% \(([\d.]+)%\)", pushed)
    assert len(cells) == 20  # five rows of four attribute dice
    for bold, printed, beside, _bracketed in cells:
        assert bool(bold) == (abs(int(printed) - float(beside)) > 0.5), (printed, beside)
    assert "**82%** (off) / 77.8% (82.6%)" in pushed  # off the figure beside it, not the other


def test_rulings_and_sources_close_the_guide(bundled):
    text = render_guide(bundled.compendium.ruleset("t2k-cuf"))
    assert text.index("\n## Rulings\n") < text.index("\n## Sources\n")
    assert "Games Studio 93" in text.split("\n## Sources\n")[1]
    rulings = text.split("\n## Rulings\n")[1]
    assert (
        "**Coolness Under Fire (CUF): The source averages the roll with Willpower but does not say"
        in rulings
    )
    assert "cuf-average-rounding" not in rulings  # titled in words, not by its slug


def test_markdown_and_html_in_the_data_cannot_break_a_table(tmp_path):
    tree = base_tree()
    tree["demo/weapons/test-pistol.yaml"] = (
        tree["demo/weapons/test-pistol.yaml"]
        .replace("name: Test Pistol", 'name: "Pipe | <b>Bold</b> *star* {{ 7*7 }}"')
        .replace("header: Test Pistol", 'header: "Pipe | <b>Bold</b> *star* {{ 7*7 }}"')
    )
    build_tree(tmp_path / "c", tree)
    text = render_guide(validate(tmp_path / "c").compendium.ruleset("demo"))
    assert r"Pipe \| &lt;b&gt;Bold&lt;/b&gt; \*star\* {{ 7\*7 }}" in text
    assert "<b>" not in text


def test_build_writes_a_guide_per_ruleset(tmp_path):
    from tests.helpers import COMPENDIUM

    build(COMPENDIUM, tmp_path, ["markdown"])
    assert sorted(p.name for p in (tmp_path / "markdown").iterdir()) == sorted(
        [".rulepress-output", "de", *(f"{r}.md" for r in RULESETS)]
    )
    # the rulesets translated into German: cool, and t2k-cuf's demonstration for Foundry
    assert sorted(p.name for p in (tmp_path / "markdown" / "de").iterdir()) == [
        "cool.md",
        "t2k-cuf.md",
    ]


def test_the_settings_title_the_guide_and_head_it_with_front_matter(tmp_path):
    build_tree(tmp_path / "c", base_tree())
    (tmp_path / "rulepress.yaml").write_text(
        """
guides:
  title: "{ruleset}: the quick reference"
  front_matter:
    layout: guide
    title: "{ruleset} ({ruleset_id})"
    weight: 3
    draft: false
    tags: [rules, "{module}", "a\\"quote: ---"]
""",
        encoding="utf-8",
    )
    build(tmp_path / "c", tmp_path / "out", ["markdown"])
    text = (tmp_path / "out" / "markdown" / "demo.md").read_text(encoding="utf-8")
    head, matter, body = text.split("---\n", 2)
    assert head == ""
    assert YAML(typ="safe").load(matter) == {
        "layout": "guide",
        "title": "Demo (demo)",
        "weight": 3,
        "draft": False,
        "tags": ["rules", "rulepress-demo", 'a"quote: ---'],
    }
    assert body.startswith("\n# Demo: the quick reference\n")


def test_without_settings_a_guide_has_no_front_matter(tmp_path):
    build_tree(tmp_path / "c", base_tree())
    build(tmp_path / "c", tmp_path / "out", ["markdown"])
    text = (tmp_path / "out" / "markdown" / "demo.md").read_text(encoding="utf-8")
    assert text.startswith("# Demo\n")
