"""The Foundry module: read back by the official Foundry CLI, deterministic, safe to rebuild.

The official CLI is the judge: it unpacks every pack we wrote and must give our JSON
sources back, and it packs our JSON sources into the keys and values we wrote.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.errors import RulepressError
from rulepress.exporters import ExportOptions, available_exporters
from rulepress.exporters.foundry.ids import VALID_ID, foundry_id
from rulepress.exporters.foundry.leveldb import read_pack
from rulepress.exporters.foundry.pack import Pack
from tests.helpers import COMPENDIUM, REPO, base_tree, build_bundled, build_tree, unpack_with_cli

MODULES = ("rulepress-iris", "rulepress-t2k4e", "rulepress-t2k-cuf", "rulepress-cool")


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    return build_bundled(tmp_path_factory.mktemp("dist"), "foundry")


def packs_of(dist: Path) -> list[tuple[str, Path]]:
    return [
        (module, pack) for module in MODULES for pack in sorted((dist / module / "packs").iterdir())
    ]


def copy_pack(pack: Path, tmp: Path) -> Path:
    """Opening a LevelDB rewrites some of its files: read copies, never the output."""
    target = tmp / f"{pack.parent.parent.name}-{pack.name}"
    shutil.copytree(pack, target)
    return target


def sources(folder: Path) -> dict[str, dict]:
    return {path.name: json.loads(path.read_text()) for path in sorted(folder.glob("*.json"))}


def test_every_ruleset_gets_a_module_with_a_manifest(dist):
    for module in MODULES:
        manifest = json.loads((dist / module / "module.json").read_text())
        assert manifest["id"] == module
        assert manifest["version"]
        assert manifest["compatibility"] == {"minimum": "14", "verified": "14"}
        for pack in manifest["packs"]:
            assert "." not in pack["name"]
            assert (dist / module / pack["path"] / "CURRENT").is_file()
            assert pack["type"] != "Item" or pack["system"] == "worldbuilding"
        assert manifest["packFolders"][0]["packs"] == [p["name"] for p in manifest["packs"]]


def test_the_cuf_module_keeps_the_games_studio_93_credit(dist):
    manifest = json.loads((dist / "rulepress-t2k-cuf" / "module.json").read_text())
    assert "Games Studio 93" in manifest["description"]


def test_the_official_cli_unpacks_every_pack_to_our_sources(dist, foundry_cli, tmp_path):
    for module, pack in packs_of(dist):
        out = unpack_with_cli(foundry_cli, pack, tmp_path)
        ours = sources(dist / module / "src" / "packs" / pack.name)
        theirs = sources(out)
        assert ours, pack
        assert theirs == ours, f"{module}/{pack.name}"


def test_the_official_cli_packs_our_sources_into_the_same_keys_and_values(
    dist, foundry_cli, tmp_path
):
    for module, pack in packs_of(dist):
        out = tmp_path / f"cli-{module}"
        subprocess.run(
            [
                *foundry_cli,
                "package",
                "pack",
                "-n",
                pack.name,
                "--in",
                str(dist / module / "src" / "packs" / pack.name),
                "--out",
                str(out),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        assert read_pack(out / pack.name) == read_pack(copy_pack(pack, tmp_path))


def test_building_twice_gives_byte_identical_modules(dist, tmp_path):
    build(COMPENDIUM, tmp_path, ["foundry"])
    again = tmp_path / "foundry"
    files = sorted(p.relative_to(dist) for p in dist.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for relative in files:
        assert (dist / relative).read_bytes() == (again / relative).read_bytes(), relative


def test_every_document_has_a_valid_unique_id_matching_its_key(dist, tmp_path):
    for _, pack in packs_of(dist):
        stored = read_pack(copy_pack(pack, tmp_path))
        for key, value in stored.items():
            assert VALID_ID.match(value["_id"]), key
            assert key.endswith(value["_id"])
        primary = [key for key in stored if key.count("!") == 2 and "." not in key.split("!")[1]]
        assert len({stored[key]["_id"] for key in primary}) == len(primary)


def test_parents_hold_their_embedded_ids_in_order(dist, tmp_path):
    stored = read_pack(copy_pack(dist / "rulepress-iris" / "packs" / "rules", tmp_path))
    for key, value in stored.items():
        if key.startswith("!journal!"):
            assert value["pages"], key
            for page in value["pages"]:
                assert f"!journal.pages!{value['_id']}.{page}" in stored


def test_a_weapon_item_carries_its_stats_and_full_profile(dist):
    items = sources(dist / "rulepress-iris" / "src" / "packs" / "weapons")
    (pistol,) = [d for d in items.values() if d.get("name") == "Light Combat Pistol"]
    assert pistol["type"] == "item"
    assert pistol["_id"] == foundry_id("iris", "weapon", "light-combat-pistol")
    attributes = pistol["system"]["attributes"]
    assert attributes["tier"]["value"] == 2 and attributes["magazine"]["value"] == 3
    assert attributes["skill"]["value"] == "High-Caliber Mastery"
    assert pistol["system"]["weight"] == 3
    profile = pistol["flags"]["rulepress"]["profile"]
    assert profile["table"][11] == {
        "ap": 12,
        "damage": 13,
        "defense": 17,
        "move": "Base",
        "range": 20,
    }
    # the stats table (header and one row), then the AP table (header and 30 rows)
    assert pistol["system"]["description"].count("<tr>") == 2 + 31
    folder = items[next(n for n in items if items[n]["_id"] == pistol["folder"])]
    assert folder["name"] == "Pistols" and folder["type"] == "Item"


def test_drafts_are_left_out_of_the_packs(dist):
    names = [
        d.get("name")
        for d in sources(dist / "rulepress-iris" / "src" / "packs" / "weapons").values()
    ]
    assert "Tactical Railgun" not in names and None not in names
    assert (
        len(
            [
                n
                for n in names
                if n not in ("Pistols", "Shotguns", "Sniper Rifles", "Rapid-Fire Weapons")
            ]
        )
        == 13
    )


def test_corruption_tables_are_roll_tables_keyed_by_level(dist):
    tables = sources(dist / "rulepress-iris" / "src" / "packs" / "tables")
    (triggers,) = [t for t in tables.values() if t["name"] == "Corruption Triggers"]
    assert triggers["formula"] == "@level"  # drawn for the level given, never at random
    assert [r["range"] for r in triggers["results"]] == [
        [10, 11],
        [12, 13],
        [14, 15],
        [16, 17],
        [18, 19],
        [20, 20],
    ]
    assert [r["name"] for r in triggers["results"]][:2] == ["Corruption 10-11", "Corruption 12-13"]
    assert triggers["results"][-1]["name"] == "Corruption 20"
    assert "torture" in triggers["results"][0]["description"]


def test_foundry_12_gets_the_v12_table_result_shape(tmp_path):
    build(COMPENDIUM, tmp_path, ["foundry"], ExportOptions(foundry_version=12))
    module = tmp_path / "foundry" / "rulepress-iris"
    manifest = json.loads((module / "module.json").read_text())
    assert manifest["compatibility"] == {"minimum": "12", "verified": "12"}
    result = next(iter(sources(module / "src" / "packs" / "tables").values()))["results"][0]
    assert "text" in result and "name" not in result and "documentUuid" not in result


def test_journal_pages_link_to_pages_that_exist(dist):
    entries = sources(dist / "rulepress-iris" / "src" / "packs" / "rules")
    pages = {(e["_id"], p["_id"]) for e in entries.values() for p in e["pages"]}
    links = re.findall(
        r"@UUID\[Compendium\.rulepress-iris\.rules\.JournalEntry\.(\w+)"
        r"\.JournalEntryPage\.(\w+)\]",
        json.dumps(list(entries.values())),
    )
    assert len(links) > 20
    assert set(links) <= pages


def test_journal_text_is_html_with_tables(dist):
    entries = sources(dist / "rulepress-t2k4e" / "src" / "packs" / "rules")
    (dice,) = [e for e in entries.values() if e["name"] == "Dice"]
    (odds,) = [p for p in dice["pages"] if p["name"] == "Odds of Success: Pushed Roll"]
    assert odds["text"]["format"] == 1
    assert (
        "<table>" in odds["text"]["content"] and "<strong>62%</strong>" in odds["text"]["content"]
    )


def test_html_in_the_data_is_escaped_in_journal_pages(tmp_path):
    tree = base_tree()
    tree["demo/rules/intro.yaml"] = (
        "kind: rule\nid: intro\ntitle: Intro\nchapter: Introduction\norder: 1\n"
        'text: "<script>alert(1)</script> {{ 7*7 }} a | b"\n'
    )
    build_tree(tmp_path / "c", tree)
    build(tmp_path / "c", tmp_path / "out", ["foundry"])
    (entry,) = [
        e
        for e in sources(tmp_path / "out/foundry/rulepress-demo/src/packs/rules").values()
        if e["name"] == "Introduction"
    ]
    content = entry["pages"][0]["text"]["content"]
    assert "<script>" not in content
    assert "&lt;script&gt;alert(1)&lt;/script&gt; {{ 7*7 }} a | b" in content


def test_a_renamed_weapon_keeps_its_foundry_id(tmp_path):
    tree = base_tree()
    tree["demo/weapons/test-pistol.yaml"] = tree["demo/weapons/test-pistol.yaml"].replace(
        "id: test-pistol", "id: trusty-pistol\nprevious_ids: [test-pistol]"
    )
    build_tree(tmp_path / "c", tree)
    build(tmp_path / "c", tmp_path / "out", ["foundry"])
    items = sources(tmp_path / "out/foundry/rulepress-demo/src/packs/weapons")
    ids = {d["_id"] for d in items.values() if d.get("type") == "item"}
    assert ids == {foundry_id("demo", "weapon", "test-pistol")}


def test_a_pack_held_open_is_not_replaced(tmp_path):
    out = tmp_path / "out"
    build(COMPENDIUM, out, ["foundry"])
    pack = out / "foundry" / "rulepress-iris" / "packs" / "weapons"
    before = (out / "foundry").stat().st_ino
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import plyvel, sys, time; db = plyvel.DB(sys.argv[1]); "
            "print('open', flush=True); time.sleep(60)",
            str(pack),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "open"
        with pytest.raises(RulepressError, match="in use"):
            build(COMPENDIUM, out, ["foundry"])
    finally:
        holder.kill()
        holder.wait()
    assert (out / "foundry").stat().st_ino == before  # the module folder was not replaced
    # and no staging folder is left
    assert sorted(p.name for p in out.iterdir()) == [".rulepress-build.lock", "foundry"]
    assert read_pack(copy_pack(pack, tmp_path))


def test_the_foundry_target_is_listed_in_build_help():
    result = subprocess.run(
        [sys.executable, "-m", "rulepress", "build", "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    assert "--foundry-version" in result.stdout and "foundry" in result.stdout
    listed = " ".join(result.stdout.split())  # help text is wrapped
    assert f"(repeatable): {', '.join(available_exporters())}, or an installed plugin's;" in listed


def test_a_weapon_section_page_shows_the_tables_of_its_weapons_items(dist):
    """Each weapon's tables are rendered once: the journal page and the item show the same."""
    items = sources(dist / "rulepress-iris" / "src" / "packs" / "weapons")
    journal = sources(dist / "rulepress-iris" / "src" / "packs" / "rules")
    (weapons,) = [e for e in journal.values() if e["name"] == "Weapons"]
    (pistols,) = [p for p in weapons["pages"] if p["name"] == "Pistols"]
    content = pistols["text"]["content"]
    pistol_items = [i for i in items.values() if i.get("type") == "item" and "Pistol" in i["name"]]
    assert len(pistol_items) >= 2
    for item in pistol_items:
        described = item["system"]["description"].split("\n<p data-rulepress-item=")[0]
        tables = described.split("</table>\n<p>")[0]
        assert f">{item['name']} (Tier " in content and tables in content
    assert content.startswith("<p>Skill: @UUID[Compendium.rulepress-iris.rules.")


def test_user_templates_override_the_foundry_html_templates(tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "weapon-tables.html.j2").write_text(
        "<p>AP rows: {{ weapon.table | length }} of {{ weapon.name }}</p>\n"
    )
    build_tree(tmp_path / "c", base_tree())
    build(tmp_path / "c", tmp_path / "out", ["foundry"], ExportOptions(templates=templates))
    folder = tmp_path / "out/foundry/rulepress-demo/src/packs"
    (item,) = [d for d in sources(folder / "weapons").values() if d["type"] == "item"]
    assert item["system"]["description"].startswith(f"<p>AP rows: 30 of {item['name']}</p>")
    pages = [p for e in sources(folder / "rules").values() for p in e["pages"]]
    assert any(f"<p>AP rows: 30 of {item['name']}</p>" in p["text"]["content"] for p in pages)


def test_a_value_json_cannot_hold_is_refused_with_its_key():
    pack = Pack("weapons", "Weapons", "Item", system="worldbuilding")
    item_id = foundry_id("demo", "weapon", "nan")
    with pytest.raises(RulepressError, match=rf"!items!{item_id}: NaN or infinity"):
        pack.add(
            {
                "_id": item_id,
                "_key": f"!items!{item_id}",
                "name": "x",
                "system": {"w": float("nan")},
            }
        )


def test_journal_pages_headings_follow_the_page_title_without_a_jump(tmp_path):
    """A page's title is shown as its h1 (`title.level` 1): the headings inside it start
    at h2, never h4, in every journal page of every ruleset."""
    import re

    out = build_bundled(tmp_path, "foundry")
    folders = sorted(out.glob("*/src/packs/rules"))
    assert len(folders) == len(list(out.glob("*/module.json"))) > 3
    with_headings = 0
    for path in (path for folder in folders for path in folder.iterdir()):
        entry = json.loads(path.read_text(encoding="utf-8"))
        for page in entry["pages"]:
            assert page["title"]["level"] == 1
            levels = sorted({int(n) for n in re.findall(r"<h([1-6])", page["text"]["content"])})
            if levels:
                with_headings += 1
                assert levels == list(range(2, levels[-1] + 1)), (page["name"], levels)
    assert with_headings > 4  # the weapon sections' pages and the rulings


def test_an_item_kind_without_a_guide_section_gets_an_empty_description(iris):
    """A plugin may map a kind to Items without giving it a section in the guide."""
    from rulepress import kinds
    from rulepress.exporters.foundry.packs.items import _section_html
    from rulepress.exporters.markdown_text import environment

    weapon_kind = kinds.registry()["weapon"]
    assert weapon_kind.guide is None and weapon_kind.foundry is not None
    weapon = iris.get("light-combat-pistol")
    assert _section_html(environment(), weapon_kind, weapon, iris) == ""


def test_each_weapon_has_its_sections_icon_guns_a_gun(dist):
    """A core icon per weapon section (paths in Foundry core's icon set), not the sword
    for every weapon; each table its own icon."""
    from rulepress.games.iris.kinds import WEAPON_ICONS

    items = [
        d
        for d in sources(dist / "rulepress-iris" / "src" / "packs" / "weapons").values()
        if d.get("type") != "Item" or "system" in d
    ]
    weapons = [i for i in items if "flags" in i and "rulepress" in i["flags"]]
    assert weapons
    for weapon in weapons:
        section = weapon["flags"]["rulepress"]["profile"]["section"]
        assert weapon["img"] == WEAPON_ICONS[section], weapon["name"]
        if section in ("pistols", "shotguns", "sniper-rifles", "rapid-fire-weapons", "smgs"):
            assert weapon["img"].startswith("icons/weapons/guns/")
    tables = sources(dist / "rulepress-iris" / "src" / "packs" / "tables").values()
    icons = [t["img"] for t in tables]
    assert len(set(icons)) == len(icons) and "icons/svg/d20-grey.svg" not in icons


def test_the_rulings_journal_page_titles_rulings_in_words(dist):
    folder = dist / "rulepress-t2k4e" / "src" / "packs" / "rules"
    pages = [
        page["text"]["content"]
        for path in sorted(folder.iterdir())
        for page in json.loads(path.read_text(encoding="utf-8"))["pages"]
        if page["name"] == "Rulings"
    ]
    assert len(pages) == 1
    assert "<h2>Pushing Your Roll: The text does not say whether a roll can be pushed" in pages[0]
    assert "push-how-often" not in pages[0]
