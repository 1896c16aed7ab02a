"""rulepress's own games are plugins like any other (issue 27): each module under
rulepress/games/ imports, of rulepress, only the public API (rulepress.plugin and its
modules cli, site and foundry) and its own game's package. A game that needs a core name
the API lacks adds it to rulepress.plugin, where every plugin can rely on it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rulepress

GAMES = Path(rulepress.__file__).parent / "games"
PUBLIC = frozenset(
    {
        "rulepress.plugin",
        "rulepress.plugin.cli",
        "rulepress.plugin.site",
        "rulepress.plugin.foundry",
    }
)
MODULES = sorted(path.relative_to(GAMES).as_posix() for path in GAMES.rglob("*.py"))


def _module_name(relative: str) -> str:
    """The dotted name of a module under rulepress/games/ (`cool/models.py` ->
    `rulepress.games.cool.models`; a package's `__init__.py` is the package)."""
    parts = ["rulepress", "games", *Path(relative).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, name: str) -> list[tuple[int, str]]:
    """Every module the file imports, with its line, relative imports resolved against
    `name`, those inside functions and `if TYPE_CHECKING:` blocks included. `from M import
    n` gives `M`, or `M.n` when that is a module the game may import (`from rulepress
    import plugin`)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    own_game = _own_game(name)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                allowed = _allowed(submodule, own_game) and not _allowed(module, own_game)
                found.append((node.lineno, submodule if allowed else module))
    return found


def _own_game(name: str) -> str | None:
    """The game package a module belongs to (`rulepress.games.<game>`), or None for
    rulepress/games/__init__.py, which belongs to no game."""
    parts = name.split(".")
    return ".".join(parts[:3]) if len(parts) > 2 else None


def _allowed(module: str, own_game: str | None) -> bool:
    """Whether a game's module may import `module`: anything outside rulepress, the
    public API, or its own game's package."""
    if module != "rulepress" and not module.startswith("rulepress."):
        return True
    if module in PUBLIC:
        return True
    return own_game is not None and (module == own_game or module.startswith(own_game + "."))


@pytest.mark.parametrize("relative", MODULES)
def test_a_game_module_imports_only_the_plugin_api_and_its_own_game(relative):
    name = _module_name(relative)
    refused = [
        f"{relative}:{line}: {module}"
        for line, module in _imported(GAMES / relative, name)
        if not _allowed(module, _own_game(name))
    ]
    assert refused == [], "import these through rulepress.plugin (add what it lacks)"


def test_the_scan_reads_every_game_and_resolves_relative_imports(tmp_path):
    assert {"cool/models.py", "cool/kinds.py", "cool/__init__.py"} <= set(MODULES)
    assert _module_name("cool/__init__.py") == "rulepress.games.cool"
    source = tmp_path / "commands.py"
    source.write_text(
        "from . import models\nfrom .models import X\nfrom .. import iris\n"
        "import rulepress.dice\nfrom rulepress import dice, plugin\n"
        "from rulepress.plugin.cli import emit\n",
        encoding="utf-8",
    )
    imported = [module for _, module in _imported(source, "rulepress.games.cool.commands")]
    assert imported == [
        "rulepress.games.cool",
        "rulepress.games.cool.models",
        "rulepress.games",
        "rulepress.dice",
        "rulepress",
        "rulepress.plugin",
        "rulepress.plugin.cli",
    ]
    allowed = [_allowed(module, "rulepress.games.cool") for module in imported]
    assert allowed == [True, True, False, False, False, True, True]
