"""The history by change: each revision is the working compendium with the files git says
differ put in (rulepress.history.patched), which must give what loading each revision's
whole checkout gives, for the edits a repository's history holds, hostile ones too; and
the changes kept between builds (rulepress.history.stored) are never trusted blindly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import rulepress.history.patched as patched
from rulepress.compendium.cache import DocumentCache
from rulepress.history import history
from rulepress.validation import validate
from tests.helpers import SKILL, WEAPON_FILE, base_tree, build_tree, commit_all, git

NEW_SKILL = SKILL.replace("bio-lore", "chem-lore").replace("Bio Lore", "Chem Lore")
OTHER_SKILL = SKILL.replace("bio-lore", "aa-lore").replace("Bio Lore", "Aa Lore")


def dearer(tree: Path, damage: int) -> None:
    path = tree / WEAPON_FILE
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("{ap: 12, damage: 12,", f"{{ap: 12, damage: {damage},", 1), encoding="utf-8"
    )


def add(tree: Path, relative: str, content: str | bytes) -> None:
    path = tree / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


EDITS = {
    # documents added deep and shallow: the walk's order (a folder's files, then its folders)
    "documents added in folders": lambda t: (
        add(t, "demo/skills/zz/deep/chem-lore.yaml", NEW_SKILL),
        add(t, "demo/aa-lore.yaml", OTHER_SKILL),
    ),
    "a document removed": lambda t: (t / "demo/skills/bio-lore.yaml").unlink(),
    "a file moved to another folder": lambda t: (t / WEAPON_FILE).rename(
        t / "demo/test-pistol.yaml"
    ),
    "a file the walk never reads": lambda t: (
        add(t, "demo/.hidden/chem-lore.yaml", NEW_SKILL),
        add(t, "demo/notes.txt", "not a document\n"),
        add(t, "README.md", "about\n"),
    ),
    "a file that does not parse": lambda t: add(t, "demo/skills/broken.yaml", "order: [1\n"),
    "a file too large to be a document": lambda t: add(
        t, "demo/skills/huge.yaml", "x: " + "y" * (3 * 2**20) + "\n"
    ),
    "a file that is not UTF-8": lambda t: add(t, "demo/skills/latin.yaml", b"name: caf\xe9\n"),
    "the ruleset's own file changed": lambda t: add(
        t,
        "demo/ruleset.yaml",
        (t / "demo/ruleset.yaml").read_text(encoding="utf-8") + "# a note\n",
    ),
    "a new ruleset folder": lambda t: build_tree(
        t / "other", {k.replace("demo/", "", 1): v for k, v in base_tree().items()}
    ),
    "a document beside the ruleset folders": lambda t: add(t, "stray.yaml", NEW_SKILL),
    "YAML in a folder that is no ruleset": lambda t: add(t, "loose/chem-lore.yaml", NEW_SKILL),
    "a name that is not UTF-8": lambda t: Path(
        os.fsdecode(os.fsencode(t / "demo/skills") + b"/caf\xe9.yaml")
    ).write_text(NEW_SKILL, encoding="utf-8"),
    "a document renamed, its old id kept": lambda t: add(
        t,
        WEAPON_FILE,
        (t / WEAPON_FILE)
        .read_text(encoding="utf-8")
        .replace("id: test-pistol", "id: new-pistol\nprevious_ids: [test-pistol]"),
    ),
    "a link to a file inside": lambda t: (t / "demo/skills/again.yaml").symlink_to("bio-lore.yaml"),
    "a link out": lambda t: (t / "demo/skills/evil.yaml").symlink_to("/etc/passwd"),
}


def histories(root: Path, tree: Path, monkeypatch) -> tuple[list, list]:
    """The history by change, and the history of whole checkouts, of the same repository."""
    by_change = history(validate(tree).compendium, limit=10)

    def unplaceable(_working):
        raise patched.Unplaceable("every revision checked out whole")

    monkeypatch.setattr(patched, "_held", unplaceable)
    whole = history(validate(tree).compendium, limit=10)
    monkeypatch.undo()
    return by_change, whole


@pytest.mark.parametrize("edit", EDITS.values(), ids=list(EDITS))
def test_the_history_by_change_is_the_history_of_whole_checkouts(tmp_path, monkeypatch, edit):
    """A commit before and after the edit changes a rule, so the edit's commit stands
    between two that are shown; the working tree is the last commit or has the edit
    undone, so the first revision taken from it differs too."""
    root = tmp_path / "repo"
    tree = build_tree(root / "compendium", base_tree())
    git(root, "init", "-q")
    commit_all(root, "first")
    dearer(tree, 13)
    commit_all(root, "dearer")
    edit(tree)
    commit_all(root, "the edit")
    path = tree / WEAPON_FILE
    if path.exists():
        path.write_text(path.read_text(encoding="utf-8").replace("damage: 13,", "damage: 14,"))
        commit_all(root, "dearer again")
    by_change, whole = histories(root, tree, monkeypatch)
    assert by_change == whole
    assert whole  # the comparison compared something


def test_a_working_tree_unlike_every_revision_gives_the_same_history(tmp_path, monkeypatch):
    """Files that are not committed (edited, added, removed) are no revision's."""
    root = tmp_path / "repo"
    tree = build_tree(root / "compendium", base_tree())
    git(root, "init", "-q")
    commit_all(root, "first")
    dearer(tree, 13)
    commit_all(root, "dearer")
    (tree / WEAPON_FILE).write_text(
        (tree / WEAPON_FILE).read_text(encoding="utf-8").replace("damage: 13,", "damage: 99,")
    )
    add(tree, "demo/skills/chem-lore.yaml", NEW_SKILL)
    (tree / "demo/skills/bio-lore.yaml").unlink()
    by_change, whole = histories(root, tree, monkeypatch)
    assert by_change == whole
    assert [c.text for r in whole for c in r.changes] == [
        "Test Pistol: damage at AP 12 from 12 to 13"
    ]


def test_a_submodule_in_a_revision_is_left_out_as_the_checkout_leaves_it(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    tree = build_tree(root / "compendium", base_tree())
    git(root, "init", "-q")
    commit_all(root, "first")
    head = git(root, "rev-parse", "HEAD").strip()
    git(root, "update-index", "--add", "--cacheinfo", f"160000,{head},compendium/demo/sub.yaml")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a submodule")
    dearer(tree, 13)
    git(root, "add", str(tree / WEAPON_FILE))
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "dearer")
    by_change, whole = histories(root, tree, monkeypatch)
    assert by_change == whole
    assert [c.text for r in whole for c in r.changes] == [
        "Test Pistol: damage at AP 12 from 12 to 13"
    ]


@pytest.fixture
def cached(tmp_path) -> tuple[Path, Path]:
    """A repository of two commits (a dearer pistol) and the cache folder of its builds."""
    root = tmp_path / "repo"
    tree = build_tree(root / "compendium", base_tree())
    git(root, "init", "-q")
    commit_all(root, "first")
    dearer(tree, 13)
    commit_all(root, "dearer")
    return tree, tmp_path / "cache"


def cached_history(tree: Path, folder: Path) -> list:
    return history(validate(tree, cache=DocumentCache(tree, folder)).compendium)


def test_the_changes_are_kept_by_tree_and_read_back(cached, monkeypatch):
    tree, folder = cached
    first = cached_history(tree, folder)
    assert [c.text for c in first[0].changes] == ["Test Pistol: damage at AP 12 from 12 to 13"]
    assert len(list(folder.glob("history-*.json"))) == 1

    def no_revision(*_args):
        raise AssertionError("a revision was loaded")

    monkeypatch.setattr(patched.PatchedRevisions, "load", no_revision)
    assert cached_history(tree, folder) == first


@pytest.mark.parametrize(
    "tamper",
    [
        lambda data: data.replace(b"from 12 to 13", b"from 12 to 66"),  # the seal breaks
        lambda data: data[:-5],
        lambda data: b"x" * 100,
        lambda data: b"",
    ],
    ids=["a changed word", "cut short", "another file", "empty"],
)
def test_a_tampered_store_of_changes_is_ignored(cached, tamper):
    tree, folder = cached
    first = cached_history(tree, folder)
    (stored,) = folder.glob("history-*.json")
    stored.write_bytes(tamper(stored.read_bytes()))
    assert cached_history(tree, folder) == first


def test_a_store_of_changes_of_another_shape_is_ignored(cached, monkeypatch):
    """Sealed with the user's key but not what this code writes (an older rulepress's):
    read as no store, and written afresh."""
    from rulepress import sealed
    from rulepress.history import stored

    tree, folder = cached
    first = cached_history(tree, folder)
    (file,) = folder.glob("history-*.json")
    header = stored.cache_header(stored.FORMAT)
    for body in (b'{"a b": [[1, 2]]}', b'["not", "a", "mapping"]', b"{not json"):
        assert sealed.write(str(folder), file.name, header + b"\n" + body)
        assert cached_history(tree, folder) == first


def test_a_store_larger_than_its_bound_is_not_read(cached, monkeypatch):
    from rulepress import sealed
    from rulepress.history import stored

    tree, folder = cached
    first = cached_history(tree, folder)
    (file,) = folder.glob("history-*.json")
    monkeypatch.setattr(stored, "MAX_BYTES", 10)
    assert sealed.read(str(folder), file.name, limit=stored.MAX_BYTES) is None
    assert cached_history(tree, folder) == first
