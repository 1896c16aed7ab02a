"""Test modules share code only through helpers.py and conftest.py, so each one can be
read, run and changed alone."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def is_test_module(name: str) -> bool:
    """Whether a dotted module name is a test module or conftest (not a helper module)."""
    last = name.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def imported_modules(tree: ast.Module) -> list[str]:
    """Every module an import statement anywhere in `tree` names (`from . import x` as x)."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.module:
                names.append(node.module)
            if not node.module or node.level:
                names += [alias.name for alias in node.names]
    return names


def test_no_test_module_imports_another():
    imports = {
        path.relative_to(TESTS).as_posix(): [
            name
            for name in imported_modules(ast.parse(path.read_text(encoding="utf-8")))
            if is_test_module(name)
        ]
        for path in sorted(TESTS.rglob("*.py"))
    }
    assert {name: found for name, found in imports.items() if found} == {}


def test_the_guard_sees_every_way_of_importing_a_test_module():
    tree = ast.parse(
        "import tests.test_cli\nfrom tests.conftest import x\nfrom .test_site import site\n"
        "from . import test_fuzz\ndef f():\n    from tests.test_checks import y\n"
        "from tests.helpers import run\nimport pytest\n"
    )
    found = [name for name in imported_modules(tree) if is_test_module(name)]
    assert found == [
        "tests.test_cli",
        "tests.conftest",
        "test_site",
        "test_fuzz",
        "tests.test_checks",
    ]
