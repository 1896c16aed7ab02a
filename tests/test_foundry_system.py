"""The Foundry system a module targets is the `foundry.system` setting: a game registers
a system's mapping (`Game.foundry_systems`), and the module's Item packs, each Item's
`type` and `system` data and the macros' reading of an actor's stats all come from the
one chosen. Simple Worldbuilding stays the default (its bytes: tests/test_foundry*.py).

The test game is registered in-process: the installed games plus `oracle-test`, which
brings the system `oracle-system` (Item type `move`, stats at `system.stats[name].value`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulepress import cli
from rulepress.commands.build import build
from rulepress.errors import PluginError
from rulepress.exporters import ExportOptions
from rulepress.kinds import Game, discovery
from rulepress.kinds.systems import item_systems
from rulepress.plugin.foundry import ItemSystem, SimpleWorldbuilding
from rulepress.validation import validate
from tests.helpers import COMPENDIUM, run_macro, unpack_with_cli

ORACLE_READER = """\
const selectedActor = () => canvas?.tokens?.controlled?.[0]?.actor ?? game?.user?.character ?? null;
// The oracle system keeps each stat at system.stats[name].value.
const actorValue = (actor, keys) => keys.map((name) => actor?.system?.stats?.[name]?.value).find((value) => value !== undefined);
"""


@dataclass(frozen=True)
class OracleSystem:
    """A test-only system: every Item is a `move`, its attributes a flat `stats` map."""

    id: str = "oracle-system"
    title: str = "The Oracle System"
    version: str = "2.1.0"
    actor_reader: str = ORACLE_READER

    def item(
        self, kind: str, attributes: Sequence[tuple], weight: object, description: str
    ) -> tuple[str, dict]:
        stats = {key: value for key, _label, value in attributes}
        return "move", {"notes": description, "stats": stats, "from": kind, "load": weight}


def with_games(monkeypatch, *extra: Game) -> None:
    """The installed games and `extra`, as the registry's games (no kind added)."""
    installed = discovery.installed_games()
    monkeypatch.setattr(discovery, "installed_games", lambda: (*installed, *extra))


@pytest.fixture
def oracle_game(monkeypatch) -> None:
    with_games(monkeypatch, Game("oracle-test", "Oracle", foundry_systems=(OracleSystem(),)))


def settings_file(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "rulepress.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def oracle_build(oracle_game, tmp_path) -> Path:
    settings = settings_file(tmp_path / "repo", "foundry:\n  system: oracle-system\n")
    out = tmp_path / "out"
    validation, _ = build(COMPENDIUM, out, ["foundry"], ExportOptions(), settings=settings)
    assert validation.ok
    return out / "foundry"


def test_the_protocol_is_public_and_the_default_meets_it():
    assert isinstance(SimpleWorldbuilding(), ItemSystem)
    assert isinstance(OracleSystem(), ItemSystem)
    assert list(item_systems()) == ["worldbuilding"]


def test_the_module_json_names_the_chosen_system_on_its_item_packs(oracle_build):
    manifest = json.loads((oracle_build / "rulepress-iris" / "module.json").read_text())
    item_packs = [pack for pack in manifest["packs"] if pack["type"] == "Item"]
    assert item_packs and {pack["system"] for pack in item_packs} == {"oracle-system"}
    others = [pack for pack in manifest["packs"] if pack["type"] != "Item"]
    assert others and all("system" not in pack for pack in others)


def test_the_items_have_the_systems_type_and_data(oracle_build, foundry_cli, tmp_path):
    unpacked = unpack_with_cli(foundry_cli, oracle_build / "rulepress-iris/packs/weapons", tmp_path)
    documents = [json.loads(p.read_text(encoding="utf-8")) for p in unpacked.iterdir()]
    items = {d["name"]: d for d in documents if d["_key"].startswith("!items!")}
    assert items and {item["type"] for item in items.values()} == {"move"}
    pistol = items["Light Combat Pistol"]
    assert set(pistol["system"]) == {"notes", "stats", "from", "load"}
    assert pistol["system"]["from"] == "weapon" and pistol["system"]["load"] == 3
    assert pistol["system"]["stats"] and "attributes" not in pistol["system"]
    assert pistol["system"]["notes"].count("<tr>") == 2 + 31  # the description as before
    stamped = (
        {d["_stats"]["systemId"] for d in documents},
        {d["_stats"]["systemVersion"] for d in documents},
    )
    assert stamped == ({"oracle-system"}, {"2.1.0"})


def test_a_macro_reads_the_actor_the_systems_way_and_runs_in_node(oracle_build, node):
    (path,) = [
        p
        for p in (oracle_build / "rulepress-iris/src/packs/macros").glob("*.json")
        if json.loads(p.read_text())["name"] == "Corruption lookup"
    ]
    command = json.loads(path.read_text())["command"]
    assert ORACLE_READER.splitlines()[-1] in command
    assert "system?.attributes" not in command  # Simple Worldbuilding's reader is gone
    actor = {"stats": {"level": {"value": 17}}}
    run = run_macro(node, path, {}, [], actor=actor, dialog={})
    (dialog,) = run["dialogs"]
    assert 'name="level" value="17"' in dialog["content"]
    assert run["result"]["result"] == "Corruption 16-17"
    # the Simple Worldbuilding layout is no stat of this system's actors
    worldbuilding = {"attributes": {"level": {"key": "level", "value": 17, "dtype": "Number"}}}
    run = run_macro(node, path, {}, [], actor=worldbuilding, dialog={})
    assert 'value="17"' not in run["dialogs"][0]["content"]


# --- The setting names a registered system ----------------------------------------------------


def settings_findings(tmp_path: Path, text: str) -> list[str]:
    validation = validate(COMPENDIUM, settings=settings_file(tmp_path, text))
    return [
        f"{f.line}:{f.col} {f.code} {f.message}"
        for f in validation.findings
        if f.file and f.file.name == "rulepress.yaml"
    ]


def test_an_unknown_system_is_an_error_at_the_setting_with_a_suggestion(oracle_game, tmp_path):
    found = settings_findings(tmp_path, "foundry:\n  id_prefix: acme\n  system: oracle-sytem\n")
    assert found == [
        "3:11 RP105 foundry.system: unknown Foundry system 'oracle-sytem' "
        "(did you mean 'oracle-system'?); registered: worldbuilding, oracle-system"
    ]


def test_the_command_line_refuses_an_unknown_system_before_writing(tmp_path, capsys):
    settings = settings_file(tmp_path, "foundry: {system: dnd5e}\n")
    out = tmp_path / "out"
    code = cli.run(["build", str(COMPENDIUM), "--out", str(out), "--settings", str(settings)])
    assert code == 1 and not out.exists()
    assert (
        "rulepress.yaml:1:19: error RP105: foundry.system: unknown Foundry system 'dnd5e'; "
        "registered: worldbuilding"
    ) in capsys.readouterr().err


def test_the_setting_takes_a_foundry_package_id_only(tmp_path):
    (finding,) = settings_findings(tmp_path, "foundry:\n  system: 'a b\\e[31m'\n")
    assert finding.startswith("2:11 RP") and "foundry.system" in finding


# --- A game's systems are checked when registered ---------------------------------------------


def test_a_system_id_registered_twice_is_refused_naming_the_package(monkeypatch):
    with_games(monkeypatch, Game("rival", "Rival", foundry_systems=(SimpleWorldbuilding(),)))
    with pytest.raises(PluginError, match="'worldbuilding' is already registered by rulepress"):
        item_systems()


@pytest.mark.parametrize(
    ("system", "says"),
    [
        (object(), "id is not a str; title is not a str"),
        (OracleSystem(actor_reader=None), "actor_reader is not a str"),  # type: ignore[arg-type]
        (OracleSystem(id="../x"), "id '../x' is not letters"),
    ],
)
def test_a_malformed_system_is_refused_naming_the_game(monkeypatch, system, says):
    with_games(monkeypatch, Game("odd", "Odd", foundry_systems=(system,)))
    with pytest.raises(PluginError, match="a Foundry system of game 'odd' from rulepress") as info:
        item_systems()
    assert says in str(info.value)


def test_the_build_stops_with_the_plugins_error_exit_2(monkeypatch, tmp_path, capsys):
    with_games(monkeypatch, Game("odd", "Odd", foundry_systems=(object(),)))
    out = tmp_path / "out"
    assert cli.run(["build", str(COMPENDIUM), "--out", str(out), "--no-cache"]) == 2
    assert "is no ItemSystem" in capsys.readouterr().err
    assert not (out / "foundry").exists()  # only the build's lock file is there
