"""A second game, of another shape than the armour fixture, does everything a bundled game
does from its own package, importing only rulepress's public module (rulepress.plugin).

The game is Omens (examples/oracle-plugin, the `rulepress-oracle` distribution):
moves rolled on 2d6 plus a stat (10+ strong hit, 7-9 weak hit, 6- miss) with rich text
and worked examples, stats, a model check (OMN101) and a cross-document check (OMN001),
`rulepress odds move`, a site calculator with its own script, a macro, its own Foundry
system `omens`, and a core d66 roll table. rulepress is built into a wheel and installed
with the plugin, by pip, into a fresh virtual environment; rulepress's dependencies come
from this environment's site-packages (a `.pth` line: no download, and no `.pth` of this
environment's runs there, so this checkout's editable rulepress is not what is imported).
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from helpers import run_macro, unpack_with_cli

from tests.helpers import copy_package_sources, venv_environment

PLUGIN = Path(__file__).parent.parent / "examples" / "oracle-plugin"
PACKAGE = PLUGIN / "rulepress_oracle"
"""What rulepress's wheel is built from (what its sdist holds)."""
MOVES = "compendium/omens/moves"


def _quiet(command: list, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def omens(tmp_path_factory) -> dict:
    """A fresh virtual environment holding rulepress's wheel and the Omens plugin, the
    environment variables to run it with, and a content repository to copy."""
    root = tmp_path_factory.mktemp("omens")
    source = root / "rulepress-source"
    source.mkdir()
    copy_package_sources(source)
    plugin = shutil.copytree(
        PLUGIN, root / "plugin-source", ignore=shutil.ignore_patterns("content")
    )
    wheels = root / "wheels"
    pip = [sys.executable, "-m", "pip"]
    _quiet([*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(source)])
    (wheel,) = wheels.glob("rulepress-*.whl")
    venv = root / "venv"
    _quiet([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    _quiet(
        [*pip, "--python", str(python), "install", "--quiet", "--no-deps", str(wheel), str(plugin)]
    )
    purelib = Path(
        _quiet(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
        ).stdout.strip()
    )
    (purelib / "rulepress-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = venv_environment(venv, root / "cache")
    return {"venv": venv, "env": env, "purelib": purelib}


def rulepress(omens: dict, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """The installed `rulepress ARGS` in `cwd`; never a traceback."""
    result = subprocess.run(
        [str(omens["venv"] / "bin" / "rulepress"), *args],
        cwd=cwd,
        env=omens["env"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return result


def content(tmp_path: Path, files: dict[str, str] | None = None) -> Path:
    """A copy of the Omens content repository (rulepress.yaml targets the `omens` system),
    with `files` written over it."""
    work = shutil.copytree(PLUGIN / "content", tmp_path / "content")
    for relative, text in (files or {}).items():
        (work / relative).write_text(text, encoding="utf-8")
    return work


def findings(omens: dict, work: Path) -> list[tuple]:
    result = rulepress(omens, work, "validate", "--format", "json")
    return [
        (f["level"], f["code"], f["file"], f["line"], f["col"], f["acknowledged"])
        for f in json.loads(result.stdout)["findings"]
    ]


@pytest.fixture(scope="module")
def built(omens, tmp_path_factory) -> Path:
    """Every target built from the Omens content repository."""
    work = content(tmp_path_factory.mktemp("omens-build"))
    result = rulepress(omens, work, "build")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors, 0 warnings" in result.stdout, result.stdout
    return work / "dist"


def test_the_installed_rulepress_is_the_wheels_and_finds_the_game(omens, tmp_path):
    found = _quiet(
        [
            str(omens["venv"] / "bin" / "python"),
            "-c",
            "import rulepress, rulepress_oracle; from rulepress.kinds import games; "
            "print(rulepress.__file__); print(rulepress_oracle.__file__); "
            "print([(g.id, g.package) for g in games()][-1])",
        ],
        cwd=tmp_path,
        env=omens["env"],
    ).stdout.splitlines()
    assert Path(found[0]).is_relative_to(omens["purelib"]), found
    assert Path(found[1]).is_relative_to(omens["purelib"]), found
    assert found[2] == "('oracle', 'rulepress-oracle')"


BAD_BANDS = """\
kind: move
id: bad-bands
name: Bad Bands
stat: wits
text: A move whose bands leave a gap.
outcomes:
  - {outcome: miss, low: 2, high: 6}
  - {outcome: weak-hit, low: 8, high: 9}
  - {outcome: strong-hit, low: 10, high: 12}
"""
CHARM = "kind: move\nid: charm\nname: Charm\nstat: grace\ntext: When you charm, roll +Grace.\n"


def test_validate_finds_the_planted_problems_at_their_place_under_the_plugins_codes(
    omens, tmp_path
):
    clean = content(tmp_path / "clean")
    assert findings(omens, clean) == []
    work = content(
        tmp_path / "planted", {f"{MOVES}/bad-bands.yaml": BAD_BANDS, f"{MOVES}/charm.yaml": CHARM}
    )
    result = rulepress(omens, work, "validate")
    assert result.returncode == 1
    assert (
        "compendium/omens/moves/bad-bands.yaml:8:30: error OMN101: outcomes[1].low: "
        "this band starts at 8, not 7" in result.stdout
    )
    assert (
        "compendium/omens/moves/charm.yaml:4:7: warning OMN001: no stat document defines "
        "'grace' (stats: nerve, wits)" in result.stdout
    )
    assert findings(omens, work) == [
        ("error", "OMN101", f"{MOVES}/bad-bands.yaml", 8, 30, False),
        ("warning", "OMN001", f"{MOVES}/charm.yaml", 4, 7, False),
    ]


def test_the_cross_document_finding_can_be_acknowledged_and_a_model_error_cannot(omens, tmp_path):
    acknowledge = "acknowledged:\n  - {code: %s, at: '%s', reason: Planted for the test.}\n"
    work = content(
        tmp_path,
        {
            f"{MOVES}/bad-bands.yaml": BAD_BANDS + acknowledge % ("OMN101", "outcomes[1].low"),
            f"{MOVES}/charm.yaml": CHARM + acknowledge % ("OMN001", "stat"),
        },
    )
    # an error is never acknowledged (a document that does not load cannot be built)
    assert findings(omens, work) == [
        ("error", "OMN101", f"{MOVES}/bad-bands.yaml", 8, 30, False),
        ("warning", "OMN001", f"{MOVES}/charm.yaml", 4, 7, True),
    ]


def test_the_worked_example_replays_and_a_wrong_expect_is_rp302(omens, tmp_path):
    path = PLUGIN / "content" / MOVES / "act-under-pressure.yaml"
    text = path.read_text(encoding="utf-8")
    assert "expect: {total: 10, outcome: strong-hit}" in text  # replayed: no finding above
    wrong = text.replace("expect: {total: 10,", "expect: {total: 11,")
    work = content(tmp_path, {f"{MOVES}/act-under-pressure.yaml": wrong})
    result = rulepress(omens, work, "validate")
    line = next(n for n, row in enumerate(wrong.splitlines(), 1) if "expect:" in row)
    assert f"act-under-pressure.yaml:{line}:" in result.stdout and "RP302" in result.stdout
    assert "11" in result.stdout and "10" in result.stdout, result.stdout


def test_odds_move_prints_the_exact_chances_by_stat(omens, tmp_path):
    work = content(tmp_path)
    result = rulepress(omens, work, "odds", "move")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Act Under Pressure: 2d6+stat, exact chances (of 36)",
        "-1: strong hit 3/36 (8.33%), weak hit 12/36 (33.33%), miss 21/36 (58.33%)",
        "+0: strong hit 6/36 (16.67%), weak hit 15/36 (41.67%), miss 15/36 (41.67%)",
        "+1: strong hit 10/36 (27.78%), weak hit 16/36 (44.44%), miss 10/36 (27.78%)",
        "+2: strong hit 15/36 (41.67%), weak hit 15/36 (41.67%), miss 6/36 (16.67%)",
        "+3: strong hit 21/36 (58.33%), weak hit 12/36 (33.33%), miss 3/36 (8.33%)",
    ]
    data = json.loads(rulepress(omens, work, "odds", "move", "--json").stdout)
    zero = next(row for row in data["rows"] if row["stat"] == 0)
    assert [zero[o]["fraction"] for o in ("strong-hit", "weak-hit", "miss")] == [
        "1/6",
        "5/12",
        "5/12",
    ]
    unknown = rulepress(omens, work, "odds", "move", "--move", "Nope")
    assert unknown.returncode == 2 and "--move" in unknown.stderr


def test_the_guide_shows_the_rich_text_and_the_table(built):
    guide = (built / "markdown" / "omens.md").read_text(encoding="utf-8")
    assert "When you act despite a *looming* danger" in guide
    assert "- it costs you **dearly**" in guide
    assert "| 7-9 | Weak hit |" in guide
    assert "| 41-56 | Yes. | 33.3% |" in guide


def test_the_site_loads_the_games_calculator_script(built):
    page = (built / "site" / "omens" / "calculator.html").read_text(encoding="utf-8")
    assert 'data-calculator="omens-move"' in page
    assert page.index("javascripts/calculator.js") < page.index("javascripts/oracle/omens.js")
    shipped = built / "site" / "javascripts" / "oracle" / "omens.js"
    assert shipped.read_bytes() == (PACKAGE / "scripts" / "omens.js").read_bytes()
    assert "Strong hit" in page and "1/6" in page  # the figures the script looks up


def _unpacked(foundry_cli, module: Path, pack: str, tmp: Path) -> list[dict]:
    folder = unpack_with_cli(foundry_cli, module / "packs" / pack, tmp)
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.iterdir())]


def test_the_foundry_module_targets_the_games_system(built, foundry_cli, tmp_path):
    module = built / "foundry" / "rulepress-omens"
    manifest = json.loads((module / "module.json").read_text(encoding="utf-8"))
    packs = {pack["name"]: pack for pack in manifest["packs"]}
    assert packs["moves"]["type"] == "Item" and packs["moves"]["system"] == "omens"
    items = {item["name"]: item for item in _unpacked(foundry_cli, module, "moves", tmp_path)}
    assert sorted(items) == ["Act Under Pressure", "Read the Signs"]
    act = items["Act Under Pressure"]
    assert act["type"] == "move" and act["_stats"]["systemId"] == "omens"
    assert act["system"]["stat"] == "nerve" and act["system"]["roll"] == "2d6+stat"
    assert "<em>looming</em>" in act["system"]["description"]

    (table,) = _unpacked(foundry_cli, module, "tables", tmp_path)
    assert table["name"] == "The Oracle" and table["formula"] == "1d6*10+1d6"
    assert [tuple(r["range"]) for r in table["results"]] == [(11, 16), (21, 36), (41, 56), (61, 66)]

    (macro,) = _unpacked(foundry_cli, module, "macros", tmp_path)
    assert macro["name"] == "Make a Move" and macro["type"] == "script"
    assert "actor?.system?.stats?.[key]?.value" in macro["command"]  # the system's reader


def test_the_macro_rolls_2d6_plus_the_stat(built, node):
    (path,) = (built / "foundry" / "rulepress-omens" / "src" / "packs" / "macros").glob("*.json")
    run = run_macro(node, path, {"move": "act-under-pressure", "stat": 1}, [4, 5])
    assert run["result"] == {
        "test": "omens-move",
        "move": "act-under-pressure",
        "stat": 1,
        "faces": [4, 5],
        "total": 10,
        "outcome": "strong-hit",
    }
    # from the hotbar it asks, prefilled with the actor's stat (the system's layout)
    asked = run_macro(node, path, {}, [1, 2], actor={"stats": {"nerve": {"value": 3}}}, dialog={})
    assert asked["result"]["total"] == 6 and asked["result"]["outcome"] == "miss"
    assert "rolled 1 + 2 = 6" in asked["messages"][0]["content"]


def test_the_plugin_ships_its_macros_words_in_the_modules_lang_file(built):
    module = built / "foundry" / "rulepress-omens"
    words = json.loads((module / "lang" / "en.json").read_text(encoding="utf-8"))
    assert words["RULEPRESS"]["omens_move_stat"] == "Stat value"  # the plugin's catalog
    assert words["RULEPRESS"]["omens_move_title"] == "Make a Move"
    assert words["RULEPRESS"]["common_roll"] == "Roll"  # the core's
    assert set(words["RULEPRESS"]) == {
        "common_roll",
        *(f"omens_move_{word}" for word in ("title", "move", "stat", "rolled")),
    }  # only its macro's and the shared words, none of the bundled games'
    manifest = json.loads((module / "module.json").read_text(encoding="utf-8"))
    assert manifest["languages"] == [{"lang": "en", "name": "English", "path": "lang/en.json"}]


def test_the_plugin_imports_only_the_public_module_of_rulepress():
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) >= 5
    for file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            for name in names:
                if name.split(".")[0] == "rulepress":
                    assert name == "rulepress.plugin" or name.startswith("rulepress.plugin."), (
                        f"{file.name} imports {name}"
                    )
