"""The site's Changes page: what each recent commit changed in the game, from the
rules-aware diff, on a git repository built in the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.exporters.site.pages import generate
from rulepress.history import RevisionCheckout, history
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


def test_a_revision_is_compared_when_its_files_load_and_skipped_when_one_does_not(tmp_path):
    """The history loads each revision without the cross-document checks: a commit whose
    weapon names a section that does not exist still shows what it changed; a commit
    holding a file that does not parse is skipped, and so is the one after it."""
    root = tmp_path / "repo"
    tree = build_tree(root / "compendium", base_tree())
    git(root, "init", "-q")
    commit_all(root, "initial import")
    edit(tree / WEAPON_FILE, "section: pistols", "section: no-such-section")
    edit(tree / WEAPON_FILE, "{ap: 12, damage: 12,", "{ap: 12, damage: 14,")
    assert not validate(tree).ok  # a cross-document check fails
    commit_all(root, "a weapon in a section nobody wrote")
    edit(tree / WEAPON_FILE, "section: no-such-section", "section: pistols")
    edit(tree / "demo/skills/bio-lore.yaml", "order: 1", "order: [1")
    commit_all(root, "a skill that does not parse")
    edit(tree / "demo/skills/bio-lore.yaml", "order: [1", "order: 1")
    edit(tree / WEAPON_FILE, "{ap: 12, damage: 14,", "{ap: 12, damage: 16,")
    commit_all(root, "fixed, and a dearer weapon")
    revisions = history(validate(tree).compendium, limit=5)
    texts = [[change.text for change in revision.changes] for revision in revisions]
    assert texts == [
        [
            "Test Pistol: section from Pistols to no-such-section",
            "Test Pistol: damage at AP 12 from 12 to 14",
        ]
    ]


def test_a_revision_checkout_turns_a_file_into_a_folder_and_back(tmp_path):
    """Each revision changes only the files that differ from the one written before; a
    path that was a file and is now a folder (or the other way) is written afresh."""
    root = tmp_path / "repo"
    tree = build_tree(root / "compendium", base_tree())
    (tree / "demo/notes").write_text("a file\n", encoding="utf-8")
    git(root, "init", "-q")
    commit_all(root, "notes as a file")
    as_file = git(root, "rev-parse", "HEAD").strip()
    (tree / "demo/notes").unlink()
    build_tree(tree, {"demo/notes/skill.yaml": NEW_SKILL})
    commit_all(root, "notes as a folder")
    as_folder = git(root, "rev-parse", "HEAD").strip()
    checkout = RevisionCheckout(tmp_path / "checkout", "compendium", root)
    for commit in (as_file, as_folder, as_file, as_folder):
        written = checkout.check_out(commit, commit)
        listing = sorted(p.relative_to(written).as_posix() for p in written.rglob("*"))
        expected = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*"))
        if commit == as_file:
            expected = [p for p in expected if not p.startswith("demo/notes/")]
            assert (written / "demo/notes").read_text(encoding="utf-8") == "a file\n"
        assert listing == expected
    assert (written / "demo/notes/skill.yaml").read_text(encoding="utf-8") == NEW_SKILL
