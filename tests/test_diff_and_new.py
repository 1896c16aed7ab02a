"""`rulepress diff` and `rulepress new`, and ids that survive renames; each on a small tree
or a temporary git repository built in the test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulepress.commands.diff import format_changes
from rulepress.errors import RulepressError
from rulepress.exporters.site.pages import generate
from rulepress.games.cuf.commands import new_tc_source
from rulepress.games.iris.commands import new_skill, new_weapon
from rulepress.history import compare, load_side
from rulepress.validation import validate
from tests.helpers import SKILL, WEAPON_FILE, base_tree, build_tree, commit_all, git


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository with the demo compendium committed twice: the second commit
    changes an AP cell, renames the weapon (keeping its old id) and a skill's trait."""
    root = tmp_path / "repo"
    build_tree(
        root / "compendium",
        {
            **base_tree(),
            "demo/traits/vigor.yaml": "kind: trait\nid: vigor\nname: Vigor\norder: 3\n",
        },
    )
    git(root, "init", "-q")
    commit_all(root, "first")
    weapon = root / "compendium" / WEAPON_FILE
    text = weapon.read_text().replace("{ap: 12, damage: 12,", "{ap: 12, damage: 14,")
    text = text.replace("id: test-pistol", "id: trusty-pistol\nprevious_ids: [test-pistol]")
    text = text.replace("name: Test Pistol", "name: Trusty Pistol")
    weapon.unlink()
    (root / "compendium/demo/weapons/trusty-pistol.yaml").write_text(text)
    skill = root / "compendium/demo/skills/bio-lore.yaml"
    skill.write_text(skill.read_text().replace("[acuity, resolve]", "[acuity, vigor]"))
    commit_all(root, "second")
    return root


def diff_lines(repo: Path) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-m", "rulepress", "diff", "HEAD~1", "HEAD"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.splitlines()


def test_diff_between_revisions_names_a_changed_ap_cell(repo):
    assert "demo: Trusty Pistol: damage at AP 12 from 12 to 14" in diff_lines(repo)


def test_diff_shows_a_renamed_weapon_as_a_rename(repo):
    lines = diff_lines(repo)
    assert (
        "demo: renamed weapon: Test Pistol (test-pistol) to Trusty Pistol (trusty-pistol)" in lines
    )
    assert not any("removed weapon" in line or "new weapon" in line for line in lines)


def test_diff_shows_a_changed_skill_trait(repo):
    assert "demo: skill Bio Lore: traits from Acuity/Resolve to Acuity/Vigor" in diff_lines(repo)


def test_diff_as_markdown_is_a_pull_request_comment(repo):
    result = subprocess.run(
        [sys.executable, "-m", "rulepress", "diff", "HEAD~1", "HEAD", "--format", "markdown"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.startswith(r"### Rules changes (HEAD\~1 -> HEAD)")
    assert "- Trusty Pistol: damage at AP 12 from 12 to 14" in result.stdout


def test_diff_as_json_lists_each_change(repo):
    result = subprocess.run(
        [sys.executable, "-m", "rulepress", "diff", "HEAD~1", "HEAD", "--format", "json"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    changes = json.loads(result.stdout)["changes"]
    assert {
        "ruleset": "demo",
        "kind": "weapon",
        "document": "trusty-pistol",
        "change": "renamed",
        "text": "renamed weapon: Test Pistol (test-pistol) to Trusty Pistol (trusty-pistol)",
        "before": None,
        "after": None,
    } in changes


def test_diff_between_folders_reports_new_and_removed_documents(tmp_path):
    old = build_tree(tmp_path / "old", base_tree())
    tree = base_tree()
    del tree["demo/skills/bio-lore.yaml"]
    tree["demo/skills/chem-lore.yaml"] = SKILL.replace("bio-lore", "chem-lore").replace(
        "Bio Lore", "Chem Lore"
    )
    tree["demo/sections/pistols.yaml"] = tree["demo/sections/pistols.yaml"].replace(
        "bio-lore", "chem-lore"
    )
    new = build_tree(tmp_path / "new", tree)
    texts = [c.text for c in compare(load_side(str(old)), load_side(str(new)))]
    assert "removed skill: Bio Lore" in texts and "new skill: Chem Lore" in texts
    assert "weapon section Pistols: skill from Bio Lore to Chem Lore" in texts


def test_diff_reports_what_a_change_does_to_computed_odds(tmp_path, bundled):
    import shutil

    from tests.helpers import COMPENDIUM

    changed = tmp_path / "c"
    shutil.copytree(COMPENDIUM, changed)
    test = changed / "iris" / "skill-test.yaml"
    test.write_text(test.read_text().replace("  6: 2\n", "  6: 3\n"))
    changes = compare(bundled.compendium, load_side(str(changed)))
    assert (
        "iris: chance of 3 AP or more at rank 2: from 13.9% to 30.6%"
        in format_changes(changes, "text", "a", "b").splitlines()
    )
    listed = json.loads(format_changes(changes, "json", "a", "b"))["changes"]
    moved = next(c for c in listed if c["document"] == "chance of 3 AP or more at rank 2")
    assert (moved["before"], moved["after"]) == ("5/36", "11/36")  # exact, not rounded


def test_diff_refuses_what_is_neither_folder_nor_revision(tmp_path):
    with pytest.raises(RulepressError, match="neither a compendium folder nor a git revision"):
        load_side(str(tmp_path / "nothing"))


def test_a_renamed_slug_keeps_its_old_foundry_id_and_old_anchor(tmp_path):
    from rulepress.commands.build import build
    from rulepress.exporters.foundry.ids import foundry_id

    tree = base_tree()
    tree[WEAPON_FILE] = tree[WEAPON_FILE].replace(
        "id: test-pistol", "id: trusty-pistol\nprevious_ids: [test-pistol]"
    )
    build_tree(tmp_path / "c", tree)
    build(tmp_path / "c", tmp_path / "out", ["foundry", "site"])
    items = [
        json.loads(p.read_text())
        for p in (tmp_path / "out/foundry/rulepress-demo/src/packs/weapons").glob("*.json")
    ]
    assert foundry_id("demo", "weapon", "test-pistol") in {i["_id"] for i in items}
    page = (tmp_path / "out/site/demo/weapons/pistols.html").read_text()
    assert 'id="test-pistol"' in page and 'id="trusty-pistol"' in page


def test_a_renamed_weapon_section_page_redirects(tmp_path, bundled):
    tree = base_tree()
    tree["demo/sections/pistols.yaml"] = tree["demo/sections/pistols.yaml"].replace(
        "id: pistols", "id: handguns\nprevious_ids: [pistols]"
    )
    tree[WEAPON_FILE] = tree[WEAPON_FILE].replace("section: pistols", "section: handguns")
    build_tree(tmp_path / "c", tree)
    generate(validate(tmp_path / "c").compendium, tmp_path / "site")
    redirect = (tmp_path / "site/docs/demo/weapons/pistols.md").read_text()
    assert "url=handguns.html" in redirect


def test_validation_refuses_a_slug_reused_for_another_document(tmp_path):
    tree = base_tree()
    tree[WEAPON_FILE] = tree[WEAPON_FILE].replace(
        "id: test-pistol", "id: trusty-pistol\nprevious_ids: [bio-lore]"
    )
    build_tree(tmp_path / "c", tree)
    codes = {f.code for f in validate(tmp_path / "c").findings}
    assert "RP202" in codes


def test_new_weapon_writes_a_valid_draft_in_its_section_folder(tmp_path):
    build_tree(tmp_path, base_tree())
    path = new_weapon(tmp_path, "demo", "Riot Shotgun", "pistols", 2)
    assert path == tmp_path / "demo/weapons/pistols/riot-shotgun.yaml"
    data = yaml.safe_load(path.read_text())
    assert data["status"] == "draft" and data["tier"] == 2 and data["order"] == 2
    assert validate(tmp_path).ok


def test_new_skill_writes_a_valid_skill(tmp_path):
    build_tree(tmp_path, base_tree())
    path = new_skill(tmp_path, "demo", "Chem Lore", "academic", ["acuity", "resolve"])
    assert path.name == "chem-lore.yaml"
    assert validate(tmp_path).findings == ()


def test_new_tc_source_writes_a_valid_source(tmp_path):
    build_tree(tmp_path, base_tree())
    path = new_tc_source(tmp_path, "demo", "Hearing a scream", -1)
    assert yaml.safe_load(path.read_text())["effect"] == "reduces"
    assert validate(tmp_path).ok


def test_new_refuses_an_id_already_taken(tmp_path):
    build_tree(tmp_path, base_tree())
    with pytest.raises(RulepressError, match="already used"):
        new_skill(tmp_path, "demo", "Bio Lore", "academic", ["acuity", "resolve"])


def test_the_pre_commit_hooks_run_validate_and_fmt_check():
    from tests.helpers import REPO

    hooks = {
        hook["id"]: hook for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    }
    assert hooks["rulepress-validate"]["entry"] == "rulepress validate"
    assert hooks["rulepress-fmt"]["entry"] == "rulepress fmt --check"
