"""The public plugin API (rulepress.plugin) and the game registry behind it.

Games are found through installed metadata, so each case installs its own distributions:
a `.dist-info` folder (and the modules it names) in a temporary folder put first on
sys.path, which importlib.metadata reads as it reads site-packages.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib

import pytest

import rulepress.plugin
import rulepress.plugin.cli
import rulepress.plugin.foundry
import rulepress.plugin.site
from rulepress import caching, kinds
from rulepress.cli import run
from rulepress.errors import RulepressError
from tests.helpers import REPO, clear_registry, game_module

ARMOUR = REPO / "tests" / "fixtures" / "armour-plugin"
PLUGINS_PAGE = REPO / "docs" / "plugins.md"
# Each game's kinds, games and kinds in the registry's order: the order of every output
# (the guide's ties, the packs, the macros), which no move of a game's code may change.
GAME_KINDS = {
    "core": ("ruleset", "rule", "roll-table", "translation"),
    "iris": (
        "trait",
        "skill",
        "skill-test",
        "weapon-section",
        "weapon",
        "corruption-rules",
        "corruption-triggers",
        "obedience-consequences",
        "cp-spending",
        "cp-earning",
    ),
    "t2k4e": (
        "step-dice",
        "push-rule",
        "modifier-rule",
        "group-roll",
        "opposed-roll",
        "odds-table",
        "time-units",
        "character-improvement",
    ),
    "cuf": ("cuf-rating", "threat-threshold", "tc-source", "tc-ladder"),
    "cool": ("shock-roll", "fear-roll", "critical-failure"),
}
KIND_ORDER = tuple(kind for names in GAME_KINDS.values() for kind in names)
HEAVY_MODULES = ("jinja2", "click", "mkdocs", "markdown", "rulepress.exporters", "rulepress.cli")


def test_the_registry_keeps_todays_kind_order_and_the_games_order():
    clear_registry()
    assert list(kinds.registry()) == list(KIND_ORDER)
    assert {game.id: tuple(k.name for k in game.kinds) for game in kinds.games()} == GAME_KINDS
    assert [game.id for game in kinds.games()] == ["core", "iris", "t2k4e", "cuf", "cool"]
    assert {kind.package for kind in kinds.registry().values()} == {"rulepress"}


def test_rulepress_registers_its_games_through_its_own_entry_points():
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    points = pyproject["project"]["entry-points"]["rulepress.games"]
    assert points == {
        game: f"rulepress.games.{game}:GAME" for game in ("iris", "t2k4e", "cuf", "cool")
    }


def test_games_sort_by_order_then_id_and_a_kinds_entry_point_is_a_game_at_1000(install):
    install(
        "rulepress-early",
        {"rulepress.games": {"zeta": "early_game:GAME"}},
        {"early_game.py": game_module("zeta", order=5, kind="zeta-thing")},
    )
    install(
        "rulepress-late",
        {
            "rulepress.games": {"alpha": "late_game:GAME"},
            "rulepress.kinds": {"beta": "late_kinds:KINDS"},
        },
        {
            "late_game.py": game_module("alpha", kind="alpha-thing"),
            "late_kinds.py": game_module("unused", kind="beta-thing") + "KINDS = [Kind(Thing)]\n",
        },
    )
    ids = [(game.id, game.order, game.package) for game in kinds.games()]
    assert ids == [
        ("core", 0, "rulepress"),
        ("zeta", 5, "rulepress-early"),
        ("iris", 10, "rulepress"),
        ("t2k4e", 20, "rulepress"),
        ("cuf", 30, "rulepress"),
        ("cool", 40, "rulepress"),
        ("alpha", 1000, "rulepress-late"),
        ("beta", 1000, "rulepress-late"),
    ]
    names = list(kinds.registry())
    assert names.index("zeta-thing") == names.index("translation") + 1
    assert names[-2:] == ["alpha-thing", "beta-thing"]
    assert kinds.registry()["beta-thing"].package == "rulepress-late"


def test_the_armour_fixture_still_registers_through_the_old_kinds_group(install, monkeypatch):
    monkeypatch.syspath_prepend(str(ARMOUR))
    install("rulepress-armour", {"rulepress.kinds": {"armour": "rulepress_armour:KINDS"}})
    registry = kinds.registry()
    assert list(registry)[:-1] == list(KIND_ORDER)
    assert list(registry)[-1] == "armour"
    assert registry["armour"].package == "rulepress-armour"
    assert kinds.games()[-1].id == "armour" and kinds.games()[-1].order == 1000
    assert ARMOUR / "rulepress_armour" / "templates" in kinds.template_folders()


def test_a_game_id_registered_twice_is_refused_naming_both_packages(install):
    install(
        "rulepress-rival",
        {"rulepress.games": {"iris": "rival_game:GAME"}},
        {"rival_game.py": game_module("iris", kind="rival-thing")},
    )
    with pytest.raises(RulepressError) as error:
        kinds.registry()
    assert "game 'iris' is registered twice: by rulepress and by rulepress-rival" in str(
        error.value
    )


def test_a_kind_name_registered_twice_is_refused_naming_both_packages(install):
    install(
        "rulepress-skills",
        {"rulepress.games": {"skills": "skills_game:GAME"}},
        {"skills_game.py": game_module("skills", kind="skill")},
    )
    with pytest.raises(RulepressError) as error:
        kinds.registry()
    message = str(error.value)
    assert message == (
        "rulepress-skills (entry point 'skills'): kind 'skill' is already registered by "
        "rulepress (entry point 'iris')"
    )


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (game_module("other", kind="other-thing"), "the game's id 'other' must be the entry point's name"),
        (game_module("x", kind="x-thing").replace("GAME = Game", "NOT = Game") + "GAME = [Kind(Thing)]\n", "must name a rulepress.plugin.Game"),
        (game_module("named", kind="named-thing").replace("order=1000", "order='first'"), "order must be a whole number"),
        (game_module("named").replace("kinds=()", "kinds=(1,)"), "the game's kinds must name a list of rulepress.kinds.Kind"),
    ],
)  # fmt: skip
def test_a_malformed_game_is_refused_naming_its_entry_point(install, source, message):
    install(
        "rulepress-bad", {"rulepress.games": {"named": "bad_game:GAME"}}, {"bad_game.py": source}
    )
    with pytest.raises(RulepressError) as error:
        kinds.registry()
    assert message in str(error.value)
    assert "entry point 'named' (bad_game:GAME) of rulepress-bad" in str(error.value)


def test_a_stale_install_of_rulepress_without_its_games_is_an_error_saying_to_reinstall(
    tmp_path, monkeypatch, capsys
):
    """An egg-info written before the games' entry points, first on the path (as the
    source folder is under pytest), hides the installed metadata: never run with no games."""
    clear_registry()
    stale = tmp_path / "rulepress.egg-info"
    stale.mkdir()
    (stale / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: rulepress\nVersion: 0.1.0\n")
    (stale / "entry_points.txt").write_text(
        "[console_scripts]\nrulepress = rulepress.launch:main\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(RulepressError, match=r"Reinstall it: `pip install -e \.`"):
            kinds.registry()
        assert run(["roll", "--help"]) == 2
        assert "rulepress's own games are not registered" in capsys.readouterr().err
    finally:
        clear_registry()


def test_the_code_digest_covers_a_game_plugins_code(install):
    """The launcher's no-op build and the caches key on the plugins' code, found in the
    entry_points.txt files: a game registered under the new group counts."""
    root = install(
        "rulepress-digest",
        {"rulepress.games": {"digest": "digest_game:GAME"}},
        {"digest_game/__init__.py": game_module("digest", kind="digest-thing")},
    )
    assert str(root / "digest_game") in caching.code_folders()
    assert caching.code_folders()[0] == caching.PACKAGE


def imported_modules(command: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", command],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "|" in line}


def test_the_public_module_imports_no_exporter_and_no_click():
    modules = imported_modules("import rulepress.plugin")
    assert "rulepress.plugin" in modules and "rulepress.kinds" in modules
    heavy = sorted(
        m for m in modules if m.split(".")[0] in HEAVY_MODULES or m.startswith(HEAVY_MODULES)
    )
    assert heavy == []


def isort_style(name: str) -> tuple[int, str]:
    """A name's place in `__all__` as ruff sorts it (RUF022): constants, then classes,
    then the rest."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


def test_the_public_modules_export_what_they_name_and_the_page_lists_it():
    page = PLUGINS_PAGE.read_text(encoding="utf-8")
    for module in (
        rulepress.plugin,
        rulepress.plugin.cli,
        rulepress.plugin.site,
        rulepress.plugin.foundry,
    ):
        assert module.__all__ == sorted(module.__all__, key=isort_style)
        for name in module.__all__:
            assert getattr(module, name) is not None
            assert f"`{name}`" in page, name
    assert "semantic versioning" in page and "semantic versioning" in rulepress.plugin.__doc__


def code_blocks(language: str) -> list[str]:
    text = PLUGINS_PAGE.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)


def test_the_documented_example_imports_only_the_public_module_and_registers(install):
    (example,) = code_blocks("python")
    imported = []
    for node in ast.walk(ast.parse(example)):
        if isinstance(node, ast.ImportFrom):
            imported.append(node.module)
        elif isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
    ours = [name for name in imported if name.split(".")[0] == "rulepress"]
    assert ours and all(
        name == "rulepress.plugin" or name.startswith("rulepress.plugin.") for name in ours
    )
    # installed as the page says, the example is a game of the registry
    (toml,) = code_blocks("toml")
    points = tomllib.loads(toml)["project"]["entry-points"]
    module_file = example.splitlines()[0].removeprefix("# ").strip()
    install("rulepress-oracle", points, {module_file: example})
    assert kinds.games()[-1].id == "oracle"
    assert list(kinds.registry())[-1] == "omen"
    assert kinds.registry()["omen"].package == "rulepress-oracle"
