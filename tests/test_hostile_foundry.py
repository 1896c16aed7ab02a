"""Hostile data inside the Foundry module: what a contributor's text can do in a game
master's browser once the module is installed.

- Macros: data reaches a macro's script only as JSON literals, so no character (U+2028
  ends a `//` comment line) lets it out into the code; run in node, planted code never
  runs and the macro still works.
- Enrichers: Foundry's TextEditor.enrichHTML turns `[[/r ...]]`, `@UUID[...]{...}`,
  `@Embed[...]`, `&Reference[...]`... in journal pages, item descriptions, table results
  and chat messages into live rolls, links and embedded documents. Data text must reach
  them inert (the same text to read), and only the exporter's own links stay live. The
  check emulates Foundry: it matches its patterns against each text node's *decoded*
  text, as enrichHTML does, and once in a real browser DOM.
- The other fields: images are ours, never data's; data cannot leave an element's text
  or an attribute; module.json's description (shown as HTML by Foundry) is escaped.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.exporters.foundry.documents import js_literal, macro_environment
from tests.conftest import COMPENDIUM
from tests.test_foundry_macros import HARNESS
from tests.test_hostile_inputs import quoted

# --- Macros: data reaches the script only as JSON literals -----------------------------------------

MACRO_TITLES = {
    # YAML double-quoted text: a JavaScript line terminator, then code (before the fix the
    # title was in a `// ...` comment line, which the separator ended).
    "line separator": r'"CUF\u2028globalThis.planted = 1; //"',
    "paragraph separator": r'"CUF\u2029globalThis.planted = 2; //"',
    "comment, script, template and quote breakers": (
        r'"CUF */ globalThis.planted = 3; /* </script><script>globalThis.planted = 4</script>'
        r' <!-- ` ${globalThis.planted = 5} \" \\ \u2028 -->"'
    ),
}
THRESHOLD_NAME = (
    "[[/r 1d20]] @UUID[Macro.x]{Run} @Embed[Macro.y] &Reference[z] </script><b>bold</b>"
)


def hostile_compendium(root: Path, title: str) -> Path:
    """The bundled compendium with `title` (YAML) as every ruleset's title, and enricher
    syntax in the name of the CUF threshold the tests reach."""
    shutil.copytree(COMPENDIUM, root)
    for ruleset in root.glob("*/ruleset.yaml"):
        text = ruleset.read_text(encoding="utf-8")
        ruleset.write_text(
            re.sub(r"(?m)^title: .*$", lambda _: f"title: {title}", text), encoding="utf-8"
        )
    fear = root / "t2k-cuf" / "thresholds" / "fear.yaml"
    text = fear.read_text(encoding="utf-8")
    fear.write_text(
        text.replace("name: Fear\n", f"name: {quoted(THRESHOLD_NAME)}\n"), encoding="utf-8"
    )
    return root


def built_macros(root: Path, compendium: Path) -> dict[str, Path]:
    """module/macro name -> its source file."""
    validation, _ = build(compendium, root / "out", ["foundry"])
    assert validation.ok, [
        (f.code, f.message) for f in validation.findings if f.level.name == "ERROR"
    ]
    return {
        f"{path.parents[3].name}/{json.loads(path.read_text())['name']}": path
        for path in sorted((root / "out" / "foundry").glob("*/src/packs/macros/*.json"))
    }


def run_planted_macro(node: str, macro: Path, scope: dict, faces: list[int]) -> dict:
    completed = subprocess.run(
        [node, str(HARNESS), str(macro), json.dumps({"scope": scope, "faces": faces})],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


@pytest.fixture(scope="module", params=list(MACRO_TITLES), ids=list(MACRO_TITLES))
def hostile_macros(request, tmp_path_factory) -> tuple[str, dict[str, Path]]:
    root = tmp_path_factory.mktemp("macros")
    compendium = hostile_compendium(root / "c", MACRO_TITLES[request.param])
    return request.param, built_macros(root, compendium)


@pytest.fixture(scope="module")
def plain_macros(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("plain-macros")
    return built_macros(root, COMPENDIUM)


def test_a_title_cannot_run_code_in_the_macros_and_they_still_work(node, hostile_macros):
    _, macros = hostile_macros
    runs = {
        "rulepress-iris/Skill Test": ({"rank": 2, "traits": [1]}, [6, 4]),
        "rulepress-t2k4e/Roll with Modifiers and Push": ({"attribute": "d8"}, [6]),
        "rulepress-t2k-cuf/Threat Check": ({"cuf": 4, "willpower": 6, "tcs": 5}, [3]),
    }
    assert set(macros) == set(runs)
    for name, (scope, faces) in runs.items():
        run = run_planted_macro(node, macros[name], scope, faces)
        assert run["planted"] is None, name
        assert run["unusedFaces"] == 0, name
        (message,) = run["messages"]
        assert message["content"].startswith("<h3>CUF"), name
        assert "<script>" not in message["content"], name


def test_data_is_in_the_macro_code_only_as_json_literals(hostile_macros, plain_macros):
    """The script of a macro built from hostile data is the bundled one's, line for line,
    but for `const NAME = <JSON>;` lines; and those hold no character that ends a line
    or an HTML script (U+2028, U+2029, `<`, `>`, `&`), only escapes."""
    for name, path in hostile_macros[1].items():
        command = json.loads(path.read_text(encoding="utf-8"))["command"]
        plain = json.loads(plain_macros[name].read_text(encoding="utf-8"))["command"]
        code, literals = split_literals(command)
        assert code == split_literals(plain)[0], name
        assert literals["TITLE"].startswith("CUF"), name
        for line in command.split("\n"):
            if LITERAL_LINE.match(line):
                assert not re.search("[\u2028\u2029<>&]", line), line


LITERAL_LINE = re.compile(r"^const ([A-Z_]+) = (.*);$")


def split_literals(command: str) -> tuple[str, dict[str, object]]:
    """The script with each literal line's value left out, and the values (JSON)."""
    code, literals = [], {}
    for line in command.split("\n"):
        found = LITERAL_LINE.match(line)
        if found:
            literals[found[1]] = json.loads(found[2])
            line = f"const {found[1]} = ...;"
        code.append(line)
    return "\n".join(code), literals


def test_a_macro_template_cannot_write_data_as_source_text():
    """The macro templates' environment writes only js_literal() values: a template that
    put a value in a comment or a string of its own fails the build (a bug, exit 3)."""
    env = macro_environment()
    with pytest.raises(TypeError, match="not a js_literal"):
        env.from_string("// {{ title }}\n").render(title="CUF\u2028alert(1)")
    assert env.from_string("const T = {{ t }};").render(t=js_literal("a\u2028</script>")) == (
        'const T = "a\\u2028\\u003c/script\\u003e";'
    )
