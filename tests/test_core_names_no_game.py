"""The core knows no bundled game (issue 27): outside rulepress/games, no module names a
bundled game's id, kind or class, in code or in a string, and no core template does. A
game is first-class when everything it does comes through the plugin API, so the core
must be unable to name it (import-linter checks the imports; this checks the names)."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import rulepress
from rulepress.kinds import games

PACKAGE = Path(rulepress.__file__).parent
BUNDLED = [game for game in games() if game.package == "rulepress" and game.id != "core"]


def _core_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts)


def _core_defined() -> set[str]:
    """The classes and functions the core's own modules define (a game may define one of
    the same name, as CUF's `Check`, which names nothing of the game there)."""
    return {
        node.name
        for path in _core_modules()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef | ast.FunctionDef)
    }


def _bundled_names() -> tuple[set[str], set[str]]:
    """The bundled games' class names (their models and what the games' modules define,
    less the names the core defines too), and the strings that name them (game ids and
    kind names)."""
    classes, strings = set(), set()
    for game in BUNDLED:
        strings.add(game.id)
        for kind in game.kinds:
            strings.add(kind.name)
            classes.add(kind.model.__name__)
            module = inspect.getmodule(kind.model)
            classes |= {
                name
                for name, value in vars(module).items()
                if inspect.isclass(value) and value.__module__ == module.__name__
            }
    return classes - _core_defined(), strings


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes (a module's, a class's, a function's, an attribute's)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                found.add(id(statement.value))
    return found


def _named(tree: ast.AST, classes: set[str], strings: set[str]) -> list[tuple[int, str]]:
    docstrings = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in classes:
            hits.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute) and node.attr in classes:
            hits.append((node.lineno, node.attr))
        elif isinstance(node, ast.alias) and node.name.split(".")[-1] in classes:
            hits.append((node.lineno, node.name))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and node.value in strings
        ):
            hits.append((node.lineno, repr(node.value)))
    return hits


def test_the_registry_has_the_four_bundled_games():
    assert [game.id for game in BUNDLED] == ["iris", "t2k4e", "cuf", "cool"]


def test_no_core_module_names_a_bundled_game():
    classes, strings = _bundled_names()
    assert {"WeaponProfile", "StepDice", "ShockRoll", "TcSource"} <= classes
    hits = []
    for path in _core_modules():
        for line, name in _named(ast.parse(path.read_text()), classes, strings):
            hits.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {name}")
    assert not hits, "\n".join(hits)


def test_no_core_template_names_a_bundled_game():
    """The core's templates test what a chapter declares (`page_per_section`), never its
    title or a kind of a game."""
    classes, strings = _bundled_names()
    words = re.compile(r"[\"']([\w-]+)[\"']")
    hits = []
    for path in sorted((PACKAGE / "exporters" / "templates").rglob("*.j2")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for word in words.findall(line):
                if word in strings or word in classes:
                    hits.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {word}")
    assert not hits, "\n".join(hits)


def test_the_scan_finds_a_name_where_there_is_one():
    classes, strings = _bundled_names()
    tree = ast.parse('"""IRIS\'s WeaponProfile."""\nx = WeaponProfile\ny = "iris"\n')
    assert _named(tree, classes, strings) == [(2, "WeaponProfile"), (3, "'iris'")]
