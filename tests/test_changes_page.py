"""The site's Changes page: what each recent commit changed in the game, from the
rules-aware diff, on a git repository built in the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.exporters.site.pages import generate
from rulepress.validation import validate
from tests.helpers import SKILL, WEAPON_FILE, base_tree, build_tree, commit_all, git

SKILL_TEST = """\
kind: skill-test
id: skill-test
name: Skill Test
die: d6
dice_per_rank: 1
ap_by_face:
  4: 1
  5: 1
  6: 2
trait_bonus: higher-of-skill-traits
text: Roll a d6 per rank.
"""
NEW_SKILL = SKILL.replace("bio-lore", "chem-lore").replace("Bio Lore", "Chem <b>Lore</b> *x*")
HOSTILE_MESSAGE = "<script>alert(1)</script> *tool* [link](http://evil.example)"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def changes_page(tmp_path) -> str:
    """The Changes page of a repository whose commits, after the first, change a weapon's
    figure, add a skill, touch no rule (a comment), and change what a die face scores."""
    root = tmp_path / "repo"
    tree = build_tree(root / "compendium", {**base_tree(), "demo/skill-test.yaml": SKILL_TEST})
    git(root, "init", "-q")
    commit_all(root, "initial import")
    edit(tree / WEAPON_FILE, "{ap: 12, damage: 12,", "{ap: 12, damage: 14,")
    commit_all(root, HOSTILE_MESSAGE)
    (tree / "demo/skills/chem-lore.yaml").write_text(NEW_SKILL, encoding="utf-8")
    commit_all(root, "add a skill")
    edit(tree / "demo/skills/bio-lore.yaml", "kind: skill\n", "# a note\nkind: skill\n")
    commit_all(root, "tidying up")
    edit(tree / "demo/skill-test.yaml", "  6: 2\n", "  6: 3\n")
    commit_all(root, "sixes score more")
    generate(validate(tree).compendium, tmp_path / "site")
    return (tmp_path / "site/docs/changes.md").read_text(encoding="utf-8")


def test_the_changes_page_says_what_changed_in_the_game(changes_page):
    lines = changes_page.splitlines()
    assert "- Test Pistol: damage at AP 12 from 12 to 14" in lines
    assert r"- new skill: Chem &lt;b&gt;Lore&lt;/b&gt; \*x\*" in lines
    assert "- skill test Skill Test: ap by face 6 from 2 to 3" in lines
    assert "- chance of 3 AP or more at rank 2: from 13.9% to 30.6%" in lines  # odds it moves
    assert lines.count("### Demo") == 3


def test_the_changes_page_skips_commits_that_changed_no_rule(changes_page):
    assert changes_page.count("\n## ") == 3
    assert "note" not in changes_page


def test_the_changes_page_never_shows_commit_messages(changes_page):
    for message in ("initial", "script", "tool", "evil", "add a skill", "tidying", "sixes"):
        assert message not in changes_page
