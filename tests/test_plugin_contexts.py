"""What a game's templates see is documented (issue 27): every name the code passes to a
section template, an Item's description or a macro, and every helper `_common.js.j2`
defines, is on docs/plugins.md's "What a game's templates see", read from the code that
renders them so that a new name cannot go undocumented."""

from __future__ import annotations

import ast
import re

import pytest

from tests.helpers import REPO

PAGE = REPO / "docs" / "plugins.md"
PACKAGE = REPO / "rulepress"
COMMON = PACKAGE / "exporters/templates/foundry/macros/_common.js.j2"


def _section() -> str:
    text = PAGE.read_text("utf-8")
    start = text.index("## What a game's templates see")
    return text[start : text.index("\n## ", start + 1)]


def _render_keywords(module: str, function: str) -> set[str]:
    """The keyword names of the `.render(...)` calls in `function` of `module`."""
    tree = ast.parse((PACKAGE / module).read_text("utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and getattr(call.func, "attr", "") == "render":
                    found |= {k.arg for k in call.keywords if k.arg}
    return found


def _dict_keys(module: str, function: str) -> set[str]:
    """The string keys of the dict displays in `function` of `module` (a context built
    as a dict before it is rendered)."""
    tree = ast.parse((PACKAGE / module).read_text("utf-8"))
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            for display in ast.walk(node):
                if isinstance(display, ast.Dict):
                    keys |= {k.value for k in display.keys if isinstance(k, ast.Constant)}
    return keys


CONTEXTS = [
    ("exporters/markdown_text.py", "render_section", _render_keywords, 7),
    ("exporters/foundry/packs/macros.py", "macros_pack", _render_keywords, 6),
    ("exporters/foundry/packs/items.py", "render", _dict_keys, 3),
]


@pytest.mark.parametrize(("module", "function", "names_of", "at_least"), CONTEXTS)
def test_every_name_a_template_is_given_is_documented(module, function, names_of, at_least):
    names = names_of(module, function)
    assert len(names) >= at_least, (module, function, names)  # the scan found the call
    section = _section()
    assert not [name for name in sorted(names) if f"`{name}`" not in section]


def test_every_javascript_helper_of_the_macros_is_documented():
    helpers = re.findall(r"^const (\w+) =", COMMON.read_text("utf-8"), re.M)
    assert {"inert", "ask", "inputs", "linkedItem"} <= set(helpers)
    section = _section()
    assert not [name for name in helpers if f"`{name}" not in section]
