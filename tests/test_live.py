"""The compendium kept in memory between edits (rulepress.live): it follows the files,
says what changed, and is never replaced by a compendium with errors."""

from __future__ import annotations

from pathlib import Path

from rulepress.live import LiveCompendium
from tests.helpers import WEAPON_FILE, base_tree, build_tree, weapon


def test_an_edit_is_taken_and_named(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "c", base_tree())
    live = LiveCompendium(root)
    assert live.validation.ok
    (root / WEAPON_FILE).write_text(weapon().replace("cost: 1\n", "cost: 2\n"))
    update = live.update([root / WEAPON_FILE])
    assert update.ok and update.changes is not None
    assert update.changes.documents == {"demo": frozenset({"test-pistol"})}
    assert not update.changes.rulesets and not update.changes.settings
    assert live.validation.compendium.ruleset("demo").get("test-pistol").cost == 2


def test_a_broken_edit_keeps_the_last_good_state(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "c", base_tree())
    live = LiveCompendium(root)
    good = live.validation
    (root / WEAPON_FILE).write_text(weapon().replace("cost: 1\n", "cost: [\n"))
    update = live.update([root / WEAPON_FILE])
    assert not update.ok and update.changes is None
    assert any(f.file == root / WEAPON_FILE for f in update.findings)
    assert live.validation is good
    (root / WEAPON_FILE).write_text(weapon().replace("cost: 1\n", "cost: 3\n"))
    fixed = live.update([root / WEAPON_FILE])
    assert fixed.ok and fixed.changes.documents == {"demo": frozenset({"test-pistol"})}


def test_the_same_bytes_saved_again_change_nothing(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "c", base_tree())
    live = LiveCompendium(root)
    (root / WEAPON_FILE).write_text(weapon())
    assert live.update([root / WEAPON_FILE]).changes.empty
