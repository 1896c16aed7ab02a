"""History that never vanishes without a word: the publish workflow fetches the whole
history, and a build whose history is shallow (a real `git clone --depth N` of a local
repository, as GitHub's checkout makes one) or missing says so in one line, with what it
left out, instead of dropping the Changes page in silence."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulepress.commands.init import init_repository
from rulepress.history import history
from rulepress.validation import validate
from tests.helpers import WEAPON_FILE, base_tree, build_tree, commit_all, git

SHALLOW = "history: this clone's git history is shallow (it stops at "
HOW_TO_FETCH = (
    "fetch the whole history (`git fetch --unshallow`; in GitHub Actions, actions/checkout "
    "with `fetch-depth: 0`) to show it"
)


@pytest.fixture(scope="module")
def origin(tmp_path_factory) -> Path:
    """A repository of four commits, each after the first changing a weapon's damage."""
    root = tmp_path_factory.mktemp("origin") / "rules"
    tree = build_tree(root / "compendium", base_tree())
    git(root, "init", "-q")
    commit_all(root, "first")
    for before, after in ((12, 13), (13, 14), (14, 15)):
        path = tree / WEAPON_FILE
        text = path.read_text(encoding="utf-8")
        old, new = f"{{ap: 12, damage: {before},", f"{{ap: 12, damage: {after},"
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        commit_all(root, f"damage {after}")
    return root


def clone(origin: Path, where: Path, depth: int | None) -> Path:
    """A clone of `origin` through the file:// transport, which honours --depth as a
    remote does (a plain local path would ignore it)."""
    deep = ["--depth", str(depth)] if depth else []
    git(where, "clone", "-q", *deep, f"file://{origin}", "clone")
    return where / "clone"


def history_lines(folder: Path) -> tuple[list, list[str]]:
    """(the revisions, the lines history said) of the compendium in `folder`."""
    said: list[str] = []
    revisions = history(validate(folder / "compendium").compendium, say=said.append)
    return revisions, said


def test_the_origin_shows_three_commits_and_says_nothing(origin):
    revisions, said = history_lines(origin)
    assert [r.changes[0].text for r in revisions] == [
        "Test Pistol: damage at AP 12 from 14 to 15",
        "Test Pistol: damage at AP 12 from 13 to 14",
        "Test Pistol: damage at AP 12 from 12 to 13",
    ]
    assert said == []


def test_a_full_clone_says_nothing(origin, tmp_path):
    revisions, said = history_lines(clone(origin, tmp_path, None))
    assert len(revisions) == 3 and said == []


def test_a_clone_of_one_commit_says_the_changes_page_is_left_out(origin, tmp_path):
    shallow = clone(origin, tmp_path, 1)
    assert git(shallow, "rev-parse", "--is-shallow-repository").strip() == "true"
    head = git(shallow, "log", "-1", "--format=%ad, commit %h", "--date=short").strip()
    revisions, said = history_lines(shallow)
    assert revisions == []
    assert said == [f"{SHALLOW}{head}): the site's Changes page is left out; {HOW_TO_FETCH}"]


def test_a_clone_of_two_commits_says_what_it_shows_and_leaves_out(origin, tmp_path):
    revisions, said = history_lines(clone(origin, tmp_path, 2))
    assert [r.changes[0].text for r in revisions] == ["Test Pistol: damage at AP 12 from 14 to 15"]
    assert len(said) == 1 and said[0].startswith(SHALLOW)
    assert (
        "the site's Changes page shows 1 of the last 3 commits that changed a rule, and "
        "leaves out the older ones; " in said[0]
    )


def test_a_shallow_clone_deep_enough_says_nothing(origin, tmp_path):
    revisions, said = history_lines(clone(origin, tmp_path, 4))
    assert len(revisions) == 3 and said == []


def test_a_compendium_outside_git_says_it_has_no_history(tmp_path):
    build_tree(tmp_path / "rules" / "compendium", base_tree())
    revisions, said = history_lines(tmp_path / "rules")
    assert revisions == []
    assert said == [
        f"history: {tmp_path / 'rules' / 'compendium'} is in no git repository (or git "
        "cannot read it), so the site has no Changes page; build from a clone of the "
        "repository to have it"
    ]


def test_the_build_of_a_shallow_clone_prints_the_line_and_writes_no_changes_page(origin, tmp_path):
    """The whole command, as the publish workflow ran it with GitHub's default checkout."""
    shallow = clone(origin, tmp_path, 1)
    built = subprocess.run(
        [sys.executable, "-m", "rulepress", "build", "--target", "site", "--no-cache"],
        cwd=shallow,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    lines = [line for line in built.stderr.splitlines() if line.startswith("history:")]
    assert len(lines) == 1 and lines[0].startswith(SHALLOW), built.stderr
    assert "the site's Changes page is left out" in lines[0]
    assert not (shallow / "dist/site/changes.html").exists()
    assert (shallow / "dist/site/index.html").is_file()


def test_the_publish_workflow_fetches_the_whole_history(tmp_path):
    init_repository(tmp_path / "rules", title="Iron Oath", github="me/iron-oath")
    workflow = yaml.safe_load((tmp_path / "rules/.github/workflows/publish.yml").read_text())
    build = workflow["jobs"]["build"]["steps"]
    checkout = next(step for step in build if step.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0  # the history the Changes page reads
    assert checkout["with"]["persist-credentials"] is False
