"""Seams that were weapon-shaped are hooks of the kind: a Foundry Item's description
(`FoundryItems.description` and `description_context`) and what a watch may keep of the
rendered pieces after an edit (`Kind.steady`). A plugin's kind uses both as IRIS's
weapons do, and the core modules behind them name no bundled model.

The plugin is registered in-process, as in test_plugin_errors: the kind registry is
replaced by rulepress's own kinds plus the test's (package "rulepress-talents").
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Literal

import pytest

from rulepress import kinds
from rulepress.commands.build import build
from rulepress.commands.watch import Watch
from rulepress.errors import PluginError
from rulepress.exporters import ExportOptions
from rulepress.live import LiveCompendium
from rulepress.models import Document
from rulepress.models.base import Name, Text
from tests.helpers import REPO, assert_equal_outputs, edit, register_kinds, unpack_with_cli

PACKAGE = "rulepress-talents"


class Talent(Document):
    """A talent: a Skill-like plugin kind, described by its own HTML template."""

    KIND = "talent"
    kind: Literal["talent"]
    name: Name
    rank: int = 1
    text: Text = ""


RULESET = """\
kind: ruleset
id: talents
title: Talents
version: 0.1.0
game: Talents
system: talents-d6
summary: A game of gifted people.
sources:
  - title: The Talent Sheet
    author: A Publisher
    credit: Rules by A Publisher, for the seams test.
"""

RULE = """\
kind: rule
id: gifts
title: Gifts
chapter: Basics
order: 1
text: Every character has a gift.
"""

TALENT = """\
kind: talent
id: {id}
name: {name}
rank: {rank}
text: Quick <b>hands</b>.
"""

ITEM_TEMPLATE = """\
<p>{{ document.name }} of {{ ruleset.info.title }}, rank {{ rank_words }}.</p>
<p>{{ document.text }} See {{ links.html("gifts", "Gifts") }}.</p>
"""


def rank_words(talent: Talent, ruleset, shared) -> dict:
    """The plugin's `description_context` hook: what its template sees besides the document."""
    return {"rank_words": ["none", "one", "two", "three"][talent.rank]}


def talent_kind(templates: Path, **changes) -> kinds.Kind:
    items = {
        "pack": "talents",
        "label": "Talents",
        "attributes": lambda talent, ruleset: [("rank", "Rank", talent.rank)],
        "description": "talent-item",
        "description_context": rank_words,
        **changes.pop("items", {}),
    }
    return kinds.Kind(
        Talent, foundry=kinds.FoundryItems(**items), templates=templates, package=PACKAGE, **changes
    )


def register(monkeypatch, kind: kinds.Kind) -> None:
    register_kinds(monkeypatch, kind)


def compendium(root: Path) -> Path:
    folder = root / "compendium" / "talents"
    (folder / "talents").mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(RULESET, encoding="utf-8")
    (folder / "gifts.yaml").write_text(RULE, encoding="utf-8")
    for talent_id, name, rank in (("deft", "Deft", 2), ("keen", "Keen", 1)):
        (folder / "talents" / f"{talent_id}.yaml").write_text(
            TALENT.format(id=talent_id, name=name, rank=rank), encoding="utf-8"
        )
    return root / "compendium"


@pytest.fixture
def templates(tmp_path) -> Path:
    folder = tmp_path / "plugin-templates"
    (folder / "foundry").mkdir(parents=True)
    (folder / "foundry" / "talent-item.html.j2").write_text(ITEM_TEMPLATE, encoding="utf-8")
    return folder


def built_items(tmp_path: Path) -> dict[str, dict]:
    root = compendium(tmp_path)
    validation, _ = build(root, tmp_path / "dist", ("foundry",), ExportOptions())
    assert validation.ok
    module = tmp_path / "dist" / "foundry" / "rulepress-talents"
    sources = sorted((module / "src" / "packs" / "talents").glob("*.json"))
    return {
        item["name"]: item for item in (json.loads(p.read_text(encoding="utf-8")) for p in sources)
    }


def test_a_plugin_kind_is_described_by_its_own_template_and_context(
    tmp_path, templates, monkeypatch
):
    """Before, every description template got a weapon's tables: 'Talent' object has no
    attribute 'capacity'."""
    register(monkeypatch, talent_kind(templates))
    items = built_items(tmp_path)
    deft = items["Deft"]["system"]["description"]
    assert "<p>Deft of Talents, rank two.</p>" in deft
    assert "Quick &lt;b&gt;hands&lt;/b&gt;." in deft  # data, escaped by the template
    # the link is the journal's: to the page showing the rule text
    assert "See @UUID[Compendium.rulepress-talents.rules.JournalEntry." in deft
    assert "{Gifts}." in deft
    assert "rank one" in items["Keen"]["system"]["description"]


def test_the_plugin_items_read_back_with_the_official_cli(
    tmp_path, templates, monkeypatch, foundry_cli
):
    register(monkeypatch, talent_kind(templates))
    built_items(tmp_path)
    pack = tmp_path / "dist" / "foundry" / "rulepress-talents" / "packs" / "talents"
    unpacked = unpack_with_cli(foundry_cli, pack, tmp_path)
    names = {json.loads(p.read_text(encoding="utf-8"))["name"]: p for p in unpacked.glob("*.json")}
    assert sorted(names) == ["Deft", "Keen"]
    item = json.loads(names["Deft"].read_text(encoding="utf-8"))
    assert "rank two" in item["system"]["description"]


def test_a_description_hook_named_as_module_function_and_one_giving_no_dict(
    tmp_path, templates, monkeypatch
):
    named = talent_kind(templates, items={"description_context": "tests.test_seams:rank_words"})
    register(monkeypatch, named)
    assert "rank two" in built_items(tmp_path)["Deft"]["system"]["description"]

    register(monkeypatch, talent_kind(templates, items={"description_context": lambda *a: 3}))
    with pytest.raises(PluginError, match=r"kind 'talent' from plugin rulepress-talents gave int"):
        built_items(tmp_path / "again")


def test_without_a_description_template_an_item_shows_its_guide_section(
    tmp_path, templates, monkeypatch
):
    section = templates / "markdown" / "sections" / "talent.md.j2"
    section.parent.mkdir(parents=True)
    section.write_text("{% for t in docs %}*{{ t.name }}*, rank {{ t.rank }}{% endfor %}\n")
    guided = talent_kind(
        templates, items={"description": None}, guide=kinds.Guide("Talents", "talent")
    )
    register(monkeypatch, guided)
    assert built_items(tmp_path)["Deft"]["system"]["description"] == "<p><em>Deft</em>, rank 2</p>"


class TalentWatch:
    """A watch run of the talents compendium in-process (as test_watch's InProcessWatch):
    how many pieces of the Foundry module each update renders again."""

    def __init__(self, work: Path) -> None:
        self.root, self.out = compendium(work), work / "live"
        self.live = LiveCompendium(self.root)
        validation, _ = build(self.root, self.out, ("foundry",), ExportOptions())
        assert validation.ok
        self.watch = Watch(self.live, self.out, ("foundry",), ExportOptions())
        self.builds = 0

    def follow(self, changed: Path) -> int:
        update = self.live.update([changed])
        assert update.ok, update.findings
        assert self.watch.apply(update) == []
        self.builds += 1
        fresh = self.root.parent / f"fresh-{self.builds}"
        validation, _ = build(self.root, fresh, ("foundry",), ExportOptions())
        assert validation.ok
        assert_equal_outputs(self.out, fresh)
        return self.watch.updaters["foundry"].pieces["talents"].made


def edits_made(tmp_path: Path) -> tuple[int, int, int]:
    """Pieces made by the first update, a second edit of a talent's rank, then of its name."""
    watch = TalentWatch(tmp_path)
    deft = watch.root / "talents" / "talents" / "deft.yaml"
    edit(deft, "rank: 2\n", "rank: 3\n")
    first = watch.follow(deft)
    edit(deft, "rank: 3\n", "rank: 1\n")
    again = watch.follow(deft)
    edit(deft, "name: Deft\n", "name: Nimble\n")
    renamed = watch.follow(deft)
    return first, again, renamed


def test_a_kind_with_a_steady_hook_keeps_the_pieces_an_edit_leaves(
    tmp_path, templates, monkeypatch
):
    register(monkeypatch, talent_kind(templates, steady=lambda talent: (talent.id, talent.name)))
    first, again, renamed = edits_made(tmp_path)
    assert again == 1  # the talent's Item, ready to write
    assert first > again and renamed == first  # its name is read by others: all again


def test_a_kind_without_one_renders_every_piece_after_an_edit(tmp_path, templates, monkeypatch):
    register(monkeypatch, talent_kind(templates))
    first, again, renamed = edits_made(tmp_path)
    assert again == first == renamed > 2


def test_a_plugins_failing_steady_hook_names_the_plugin(tmp_path, templates, monkeypatch):
    """The update is not written; the target is written whole on the next change."""
    register(monkeypatch, talent_kind(templates, steady=lambda talent: talent.missing))
    watch = TalentWatch(tmp_path)
    deft = watch.root / "talents" / "talents" / "deft.yaml"
    edit(deft, "rank: 2\n", "rank: 3\n")
    update = watch.live.update([deft])
    assert update.ok
    (problem,) = watch.watch.apply(update)
    assert problem.startswith("foundry: steady hook of kind 'talent' from plugin rulepress-talents")
    assert "AttributeError" in problem
    assert watch.watch.behind == {"foundry"}


CORE_MODULES = (
    "rulepress/exporters/pieces.py",
    "rulepress/exporters/foundry/packs/items.py",
    "rulepress/exporters/foundry/packs/common.py",
)


def bundled_names() -> set[str]:
    """The names of the bundled games' models, and of the weapon tables they had."""
    games = [game for game in kinds.games() if game.id != "core"]
    models = {kind.model.__name__ for game in games for kind in game.kinds}
    assert {"WeaponProfile", "WeaponSection", "Skill"} <= models
    return models | {"WeaponTables"}


@pytest.mark.parametrize("module", CORE_MODULES)
def test_the_core_modules_behind_these_seams_name_no_bundled_model(module):
    tree = ast.parse((REPO / module).read_text(encoding="utf-8"))
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            named |= {alias.name for alias in node.names}
            named.add(node.module or "")
        elif isinstance(node, ast.Name):
            named.add(node.id)
        elif isinstance(node, ast.Attribute):
            named.add(node.attr)
    assert not named & bundled_names()
    assert not {name for name in named if name.startswith("rulepress.models.")}
    assert not {name for name in named if name.startswith("rulepress.games")}
