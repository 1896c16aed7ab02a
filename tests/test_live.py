"""The compendium kept in memory between edits (rulepress.live): it follows the files,
says what changed, and is never replaced by a compendium with errors."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepress.live import LiveCompendium, Update
from rulepress.validation import validate
from rulepress.validators import tiers
from tests.helpers import (
    COMPENDIUM,
    RULESET,
    RULESET_FILE,
    SKILL,
    SKILL_FILE,
    WEAPON_FILE,
    Session,
    base_tree,
    build_tree,
    weapon,
)


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


# --- every update gives what a fresh validation of the same files gives -------------------


def named(update: Update, ruleset: str = "demo") -> frozenset[str]:
    """The ids an update says changed in one ruleset (it must have become the state)."""
    assert update.ok and update.changes is not None
    return update.changes.documents.get(ruleset, frozenset())


SECOND = "demo/weapons/second.yaml"


def second_weapon(**fields: object) -> str:
    """The demo weapon as a second one of its section: id second-pistol, tier 2."""
    text = weapon().replace("id: test-pistol", "id: second-pistol")
    text = text.replace("name: Test Pistol\nheader: Test Pistol", "name: Second\nheader: Second")
    text = text.replace("tier: 1", "tier: 2").replace("cost: 1\n", "cost: 5\n")
    for name, value in fields.items():
        text = re.sub(rf"(?m)^{name}: .*$", f"{name}: {value}", text)
    return text


def test_edits_of_the_demo_tree_follow_the_files(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "c", base_tree())
    session = Session(root)
    assert named(session.write(WEAPON_FILE, weapon().replace("cost: 1\n", "cost: 2\n"))) == {
        "test-pistol"
    }
    assert named(session.write(SECOND, second_weapon())) == {"second-pistol"}
    # a warning (tier 2 cheaper than tier 1), then lines added above it: it moves
    assert session.write(SECOND, second_weapon(cost=0)).ok
    assert session.write(SECOND, "# a comment\n# another\n" + second_weapon(cost=0)).ok
    assert session.write(SECOND, second_weapon(header="Test Pistol")).ok  # RP213, RP214
    assert named(session.move(SECOND, "demo/weapons/other/renamed.yaml")) == {"second-pistol"}
    renamed = "demo/weapons/other/renamed.yaml"
    moved = second_weapon(id="third-pistol") + "previous_ids: [second-pistol]\n"
    assert named(session.write(renamed, moved)) == {"second-pistol", "third-pistol"}
    assert not session.write(WEAPON_FILE, weapon().replace("cost: 1\n", "cost: [\n")).ok
    assert not session.write(WEAPON_FILE, weapon().replace("cost: 1\n", "cost: many\n")).ok
    assert named(session.write(WEAPON_FILE, weapon())) == {"test-pistol"}
    assert not session.write("demo/weapons/copy.yaml", weapon()).ok  # a duplicate id
    assert session.delete("demo/weapons/copy.yaml").changes.empty
    assert not session.write(SKILL_FILE, SKILL.replace("resolve]", "resolv]")).ok  # dangling
    assert not session.delete("demo/traits/resolve.yaml").ok  # still dangling, now two ways
    resolve = "kind: trait\nid: resolve\nname: Resolve\norder: 2\n"
    assert not session.write("demo/traits/resolve.yaml", resolve).ok
    assert named(session.write(SKILL_FILE, SKILL)) == set()  # as the last good state
    update = session.write(RULESET_FILE, RULESET.replace("A tiny", "A small"))
    assert update.changes.rulesets == {"demo"} and update.whole
    settings = tmp_path / "rulepress.yaml"
    assert session.write("../rulepress.yaml", "site: {title: Other}\n").changes.settings
    settings.unlink()
    assert session.step([settings]).changes.settings
    assert named(session.delete(renamed)) == {"third-pistol"}
    assert session.write("demo/weapons/.hidden.yaml", "not: [yaml").changes.empty
    assert session.write("demo/weapons/test-pistol.yaml~", "backup").changes.empty
    assert not session.step([root / "elsewhere.txt"]).whole  # nothing the loader reads


def test_a_folder_renamed_is_walked_again(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "c", base_tree())
    session = Session(root)
    (root / "demo/weapons").rename(root / "demo/arms")
    update = session.step([root / "demo/weapons", root / "demo/arms"])
    assert named(update) == {"test-pistol"} and not update.whole


def test_a_new_ruleset_folder_reloads_everything(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "c", base_tree())
    session = Session(root)
    other = RULESET.replace("id: demo", "id: other")
    update = session.write("other/ruleset.yaml", other)
    assert update.whole and update.changes.rulesets == {"other"}
    shutil.rmtree(root / "other")
    update = session.step([root / "other"])
    assert update.whole and update.changes.rulesets == {"other"}


def test_edits_of_the_bundled_compendium_follow_the_files(tmp_path: Path) -> None:
    root = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM, root)
    session = Session(root)
    shotgun = "iris/weapons/shotguns/heavy-shotgun.yaml"
    original = (root / shotgun).read_text(encoding="utf-8")
    # lines added above everything: every finding of the file moves, acknowledged or not
    assert named(session.write(shotgun, "# moved down\n\n" + original), "iris") == {"heavy-shotgun"}
    assert session.write(shotgun, original.replace("cost: ", "cost: 1", 1)).ok
    fright = "t2k-cuf/thresholds/fright.yaml"
    text = (root / fright).read_text(encoding="utf-8")
    assert session.write(fright, "# a note\n" + text).ok  # acknowledged findings move
    assert session.delete(fright).ok is validate(root).ok
    assert session.write(fright, text).ok
    assert not session.write(shotgun, original.replace("section: shotguns", "section: nope")).ok
    assert named(session.write(shotgun, original), "iris") == {"heavy-shotgun"}
    sniper = "iris/weapons/sniper-rifles/tactical-railgun.yaml"
    assert session.move(sniper, "iris/weapons/railgun.yaml").ok


EDITS = {
    "cost": lambda: {WEAPON_FILE: weapon().replace("cost: 1\n", "cost: 7\n")},
    "restore": lambda: {WEAPON_FILE: weapon(), SKILL_FILE: SKILL},
    "broken yaml": lambda: {WEAPON_FILE: weapon().replace("cost: 1\n", "cost: [\n")},
    "broken model": lambda: {WEAPON_FILE: weapon().replace("cost: 1\n", "cost: many\n")},
    "second": lambda: {SECOND: second_weapon()},
    "second cheap": lambda: {SECOND: second_weapon(cost=0)},
    "second same tier": lambda: {SECOND: "# moved\n" + second_weapon(tier=1)},
    "second same header": lambda: {SECOND: second_weapon(header="Test Pistol")},
    "duplicate id": lambda: {"demo/weapons/copy.yaml": weapon()},
    "dangling": lambda: {SKILL_FILE: SKILL.replace("resolve]", "resolv]")},
    "delete second": lambda: {SECOND: None},
    "delete copy": lambda: {"demo/weapons/copy.yaml": None},
    "move second": lambda: {SECOND: None, "demo/weapons/z/second.yaml": second_weapon()},
}
"""Edits of the demo tree: relative path -> new text (None: deleted)."""


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.sampled_from(sorted(EDITS)), min_size=1, max_size=8))
def test_any_edit_sequence_follows_the_files(tmp_path: Path, names: list[str]) -> None:
    with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
        root = build_tree(Path(folder) / "c", base_tree())
        session = Session(root)
        for name in names:
            paths = []
            for relative, text in EDITS[name]().items():
                path = root / relative
                paths.append(path)
                if text is None:
                    path.unlink(missing_ok=True)
                else:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text, encoding="utf-8")
            session.step(paths)


def test_a_saved_translation_is_checked_again(tmp_path: Path) -> None:
    """A translation file is no document of the ruleset, yet its checks (RP4xx) read it:
    saving one re-runs them (it once kept their last findings), and only them."""
    root = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM, root)
    session = Session(root)
    shock = "cool/translations/de/shock-roll.yaml"
    text = (root / shock).read_text(encoding="utf-8")
    moved = session.write(shock, text.replace("language: de", "language: fr"))
    assert any(f.code == "RP405" for f in moved.findings)
    assert session.live._checks["cool"].rerun["RP405"] == "whole"
    assert session.live._checks["cool"].rerun["RP229"] == "kept"
    stale = session.write(
        shock, text.replace("digest: 92c1d3c6a68dd367", "digest: 0000000000000000")
    )
    assert not any(f.code == "RP405" for f in stale.findings)
    assert session.write(shock, text).ok


def test_a_field_left_out_is_checked_again_and_a_figure_changed_is_not(tmp_path: Path) -> None:
    """usual-field-missing (RP227) reads which optional figures a document carries, not
    their values: a dearer cost keeps its findings, a magazine left out runs it again."""
    root = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM, root)
    session = Session(root)
    shotgun = "iris/weapons/shotguns/heavy-shotgun.yaml"
    text = (root / shotgun).read_text(encoding="utf-8")
    session.write(shotgun, text.replace("cost: 26", "cost: 27"))
    assert session.live._checks["iris"].rerun["RP227"] == "kept"
    missing = session.write(shotgun, text.replace("magazine: 6\n", ""))
    assert session.live._checks["iris"].rerun["RP227"] == "whole"
    assert any(f.code == "RP227" and "magazine" in f.message for f in missing.findings)


def test_a_tier_figure_changed_redoes_its_group_and_keeps_the_others(tmp_path: Path) -> None:
    """RP229 keeps what it worked out of each group of weapons while its entries are the
    same objects: a magazine edited in one section works out that section again and keeps
    the others', and brings its finding or takes it away as a fresh `validate` does."""
    root = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM, root)
    live = LiveCompendium(root)
    cannon = root / "iris/weapons/rapid-fire-weapons/tactical-auto-cannon.yaml"
    text = cannon.read_text(encoding="utf-8")

    def saved(new: str) -> list[str]:
        cannon.write_text(new, encoding="utf-8")
        found = [f.message for f in live.update([cannon]).findings if f.code == "RP229"]
        kept = dict(tiers._KEPT["iris"])
        fresh = [f.message for f in validate(root).findings if f.code == "RP229"]
        assert found == fresh
        tiers._KEPT["iris"] = kept  # the fresh validate's groups were other entries
        return found

    assert len(saved(text.replace("cost: ", "cost: 1", 1))) == 1
    before = dict(tiers._KEPT["iris"])
    assert "magazine: 6\n" in text
    assert saved(text.replace("magazine: 6\n", "magazine: 12\n")) == []
    after = tiers._KEPT["iris"]
    assert len(after) == len(before) > 1
    assert len(set(after) - set(before)) == 1  # the cannon's section, the one made again
    assert all(after[key] is group for key, group in before.items() if key in after)
    assert len(saved(text)) == 1
