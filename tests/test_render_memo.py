"""The render memo: a rebuild that takes unchanged pieces from the previous export writes
exactly what a build from nothing writes, whatever changed in between."""

from __future__ import annotations

import filecmp
import os
import shutil
from pathlib import Path

import pytest

from rulepress import sealed
from rulepress.commands.build import build
from rulepress.errors import RulepressError
from rulepress.exporters import BaseExporter, ExportOptions
from rulepress.exporters.memo import FILES_RECORD, FORMAT, RenderMemo, record, records
from tests.helpers import COMPENDIUM

TARGETS = ["foundry", "markdown"]
CANNON = "weapons/pistols/hand-cannon.yaml"
ITEMS = "foundry/rulepress-iris/src/packs/weapons"


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def add_weapon(root: Path) -> None:
    text = (root / CANNON).read_text(encoding="utf-8")
    copy = text.replace("id: hand-cannon", "id: hand-cannon-two").replace(
        "name: Hand Cannon", "name: Hand Cannon Two"
    )
    (root / "weapons/pistols/hand-cannon-two.yaml").write_text(
        copy.replace("header: Hand Cannon", "header: Hand Cannon Two"), encoding="utf-8"
    )


EDITS = {
    "a weapon's figure": lambda r: replace(r / CANNON, "cost: 26", "cost: 27"),
    "a weapon's name": lambda r: replace(r / CANNON, "name: Hand Cannon", "name: Hand Gun"),
    "a weapon's place in its section": lambda r: replace(r / CANNON, "order: 4", "order: 0"),
    "a section's name": lambda r: replace(
        r / "weapon-sections/pistols.yaml", "name: Pistols", "name: Handguns"
    ),
    "a skill's name": lambda r: replace(
        r / "skills/high-caliber-mastery.yaml",
        "name: High-Caliber Mastery",
        "name: Big-Bore Mastery",
    ),
    "the currency": lambda r: replace(r / "ruleset.yaml", "currency: Bar", "currency: Mark"),
    "the ruleset's title": lambda r: replace(
        r / "ruleset.yaml", "title: IRIS Quick Reference", "title: IRIS Rules"
    ),
    "a weapon removed": lambda r: (r / CANNON).unlink(),
    "a weapon added": add_weapon,
}


@pytest.fixture
def iris_copy(tmp_path) -> Path:
    return Path(shutil.copytree(COMPENDIUM / "iris", tmp_path / "iris"))


def assert_same_trees(left: Path, right: Path) -> None:
    compared = filecmp.dircmp(left, right, ignore=[])
    assert not compared.left_only and not compared.right_only, (left, compared.left_only)
    _, mismatch, errors = filecmp.cmpfiles(left, right, compared.common_files, shallow=False)
    assert not mismatch and not errors, (left, mismatch, errors)
    for folder in compared.common_dirs:
        assert_same_trees(left / folder, right / folder)


def rebuilt_and_fresh(
    root: Path, tmp: Path, options: ExportOptions | None = None
) -> tuple[Path, Path]:
    """Build `root` with the memo into tmp/out (again), and without it into tmp/fresh."""
    for out, cache in ((tmp / "out", True), (tmp / "fresh", False)):
        shutil.rmtree(tmp / "fresh", ignore_errors=True)
        validation, _ = build(root, out, TARGETS, options, cache=cache)
        assert validation.ok
    return tmp / "out", tmp / "fresh"


def inode(path: Path) -> int:
    return os.stat(path).st_ino


@pytest.mark.parametrize("edit", EDITS, ids=list(EDITS))
def test_a_rebuild_writes_what_a_fresh_build_writes(edit, iris_copy, tmp_path):
    build(iris_copy, tmp_path / "out", TARGETS, cache=True)
    EDITS[edit](iris_copy)
    assert_same_trees(*rebuilt_and_fresh(iris_copy, tmp_path))


def test_unchanged_items_and_folders_are_linked_from_the_previous_output_a_changed_one_not(
    iris_copy, tmp_path
):
    build(iris_copy, tmp_path / "out", TARGETS, cache=True)
    items = tmp_path / "out" / ITEMS

    before = {path.name: inode(path) for path in items.iterdir()}
    EDITS["a weapon's figure"](iris_copy)
    build(iris_copy, tmp_path / "out", TARGETS, cache=True)
    after = {path.name: inode(path) for path in items.iterdir()}
    changed = [name for name in after if before.get(name) != after[name]]
    assert [name for name in changed if name.startswith("Hand_Cannon_")] == changed
    assert len(changed) == 1 and len(after) > 10


def test_a_file_of_the_output_edited_by_hand_is_written_again(iris_copy, tmp_path):
    build(iris_copy, tmp_path / "out", TARGETS, cache=True)
    edited = sorted((tmp_path / "out" / ITEMS).glob("Light_Combat_Pistol_*.json"))[0]
    edited.write_text('{"edited": "by hand"}\n', encoding="utf-8")
    EDITS["a weapon's figure"](iris_copy)  # a build there is: the output is not its own
    assert_same_trees(*rebuilt_and_fresh(iris_copy, tmp_path))


def with_pieces_damaged(body: bytes) -> bytes:
    """The memo's content with every piece's own pickle spoilt, the records still whole."""
    header, _, rest = body.partition(b"\n")
    damaged = header + b"\n"
    for key, stored in records(memoryview(rest)):
        stored = bytes(stored) if key == FILES_RECORD else stored[:-9].tobytes() + b"\x00"
        damaged += record(key, stored) + stored
    return damaged


@pytest.mark.parametrize("damage", ["garbage", "cut short", "another code's", "each piece"])
def test_a_damaged_memo_is_no_memo(damage, iris_copy, tmp_path):
    """Damage to the file is caught by its seal; a file sealed by this user but written
    by other code, or with spoilt pieces inside, is no memo (or no piece) either."""
    build(iris_copy, tmp_path / "out", TARGETS, cache=True)
    memo = RenderMemo(tmp_path / "out" / "foundry")
    data = memo.path.read_bytes()
    body = sealed.read(memo.folder, memo.name)
    assert body is not None and FORMAT.encode() in body
    if damage in ("garbage", "cut short"):
        memo.path.write_bytes(b"\x00not a pickle" * 50 if damage == "garbage" else data[:-40])
    else:
        other_code = body.replace(FORMAT.encode(), b"rulepress-renders 0", 1)
        damaged = other_code if damage == "another code's" else with_pieces_damaged(body)
        assert sealed.write(memo.folder, memo.name, damaged)
    EDITS["a weapon's name"](iris_copy)
    assert_same_trees(*rebuilt_and_fresh(iris_copy, tmp_path))


def test_templates_that_change_between_builds_render_again(iris_copy, tmp_path):
    templates = tmp_path / "templates"
    (templates / "sections").mkdir(parents=True)
    shipped = COMPENDIUM.parent / "rulepress/exporters/templates"
    for name in ("sections/weapon.md.j2",):
        shutil.copy(shipped / "markdown" / name, templates / name)
    shutil.copy(shipped / "foundry/weapon-tables.html.j2", templates / "weapon-tables.html.j2")
    options = ExportOptions(templates=templates)
    build(iris_copy, tmp_path / "out", TARGETS, options, cache=True)
    replace(templates / "sections/weapon.md.j2", "(Tier ", "(tier ")
    replace(templates / "weapon-tables.html.j2", "<th>Reload</th>", "<th>Reloads</th>")
    out, fresh = rebuilt_and_fresh(iris_copy, tmp_path, options)
    assert "(tier 4)" in (out / "markdown/iris.md").read_text(encoding="utf-8")
    assert_same_trees(out, fresh)


def test_another_foundry_version_renders_again(iris_copy, tmp_path):
    build(iris_copy, tmp_path / "out", TARGETS, ExportOptions(foundry_version=12), cache=True)
    assert_same_trees(*rebuilt_and_fresh(iris_copy, tmp_path, ExportOptions(foundry_version=13)))


def test_a_failed_export_keeps_the_previous_memo(iris_copy, tmp_path):
    build(iris_copy, tmp_path / "out", TARGETS, cache=True)
    memo = RenderMemo(tmp_path / "out" / "foundry").path
    saved = memo.read_bytes()
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "weapon-item.html.j2").write_text("{{ no_such_value }}", encoding="utf-8")
    EDITS["a weapon's figure"](iris_copy)
    with pytest.raises(RulepressError, match="template error: 'no_such_value' is undefined"):
        build(iris_copy, tmp_path / "out", TARGETS, ExportOptions(templates=templates), cache=True)
    assert memo.read_bytes() == saved
    assert not list(memo.parent.glob("*.tmp"))
    assert_same_trees(*rebuilt_and_fresh(iris_copy, tmp_path))


def test_a_fresh_build_renders_even_what_a_hand_edit_hid_from_the_memo(iris_copy, tmp_path):
    build(iris_copy, tmp_path / "out", TARGETS, cache=True)
    edited = sorted((tmp_path / "out" / ITEMS).glob("Light_Combat_Pistol_*.json"))[0]
    status, text = edited.stat(), edited.read_text(encoding="utf-8")
    edited.write_text(text.replace('"cost"', '"COST"'), encoding="utf-8")  # same size
    os.utime(edited, ns=(status.st_atime_ns, status.st_mtime_ns))  # and the same time
    build(iris_copy, tmp_path / "out", TARGETS, cache=True, fresh=True)  # `build --force`
    fresh = tmp_path / "fresh"
    build(iris_copy, fresh, TARGETS)
    assert_same_trees(tmp_path / "out", fresh)


class Recording(BaseExporter):
    """An exporter that notes whether it was given a memo (without `uses_render_memo`
    it has BaseExporter's default)."""

    name = description = "recording"

    def __init__(self, **declared: bool) -> None:
        self.__dict__.update(declared)
        self.given: list[bool] = []

    def export(self, compendium, out, options, memo=None) -> None:
        self.given.append(memo is not None)


@pytest.mark.parametrize(
    ("declared", "given"),
    [({"uses_render_memo": True}, True), ({"uses_render_memo": False}, False), ({}, False)],
)
def test_only_an_exporter_that_uses_the_memo_is_given_one(
    declared, given, iris_copy, tmp_path, monkeypatch
):
    exporter = Recording(**declared)
    monkeypatch.setattr(
        "rulepress.commands.build.available_exporters", lambda: {"recording": exporter}
    )
    build(iris_copy, tmp_path / "out", ["recording"], cache=True)
    build(iris_copy, tmp_path / "out", ["recording"], cache=False)
    assert exporter.given == [given, False]
