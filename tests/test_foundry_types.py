"""The exported documents, as creation data, and the macros' JavaScript (`checkJs`) pass
the TypeScript compiler against the community's Foundry types, the newest they publish
(@league-of-foundry-developers/foundry-vtt-types 13.346.0-beta.20251209192131,
tools/foundry-types): the shapes proven without Foundry itself. They publish no v14
types yet; what v14 changed is checked against real v14 packs (test_foundry_v14.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from rulepress.commands.build import build
from tests.helpers import COMPENDIUM, REPO, require_tool

TOOLS = REPO / "tools" / "foundry-types"
TSC = TOOLS / "node_modules" / "typescript" / "bin" / "tsc"
TYPES = TOOLS / "node_modules" / "fvtt-types" / "package.json"

# The creation-data type of each pack collection (a source's `_key` names it).
CREATE_DATA = {
    "items": "Item",
    "folders": "Folder",
    "tables": "RollTable",
    "journal": "JournalEntry",
    "macros": "Macro",
}

# JSON holds Foundry's branded numbers (ownership levels, page formats) as plain
# numbers; every other field is checked as the types say.
PLAIN = (
    "type Plain<T> = unknown extends T ? T : T extends number ? number"
    " : T extends string | boolean | null | undefined ? T"
    " : T extends (...args: never[]) => unknown ? T : { [K in keyof T]: Plain<T[K]> };"
)


@pytest.fixture(scope="module")
def tsc(node) -> list[str]:
    require_tool(TSC.is_file() and TYPES.is_file(), "TypeScript and foundry-vtt-types")
    return [node, str(TSC)]


def _without_keys(value: object) -> object:
    """`_key` is the Foundry CLI's, not a document field."""
    if isinstance(value, dict):
        return {k: _without_keys(v) for k, v in value.items() if k != "_key"}
    if isinstance(value, list):
        return [_without_keys(v) for v in value]
    return value


def _checked_files(sources: list[Path], folder: Path) -> None:
    """documents.ts: each source as a typed constant; a .js file per macro, its script
    as the body of the async function Foundry runs it in."""
    lines = ["export {};", PLAIN]
    for number, path in enumerate(sources):
        document = json.loads(path.read_text(encoding="utf-8"))
        collection = document["_key"].split("!")[1]
        lines.append(f"// {path.parent.name}/{path.name}")
        data = json.dumps(_without_keys(document), ensure_ascii=False)
        lines.append(f"const d{number}: Plain<{CREATE_DATA[collection]}.CreateData> = {data};")
        if collection == "macros":
            (folder / f"macro_{number}.js").write_text(
                "// @ts-check\nexport {};\n/** @param {Record<string, any>} scope */\n"
                f"async function macro(scope) {{\n{document['command']}\n}}\n",
                encoding="utf-8",
            )
    (folder / "documents.ts").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _type_check(tsc: list[str], folder: Path) -> subprocess.CompletedProcess:
    config = {"extends": str(TOOLS / "tsconfig.json"), "include": [str(folder / "*")]}
    (folder / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    return subprocess.run(
        [*tsc, "-p", str(folder / "tsconfig.json"), "--pretty", "false"],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_every_exported_document_and_macro_type_checks_against_the_foundry_types(tsc, tmp_path):
    out = tmp_path / "out"
    build(COMPENDIUM, out, ["foundry"])
    sources = sorted((out / "foundry").glob("*/src/packs/*/*.json"))
    packs = {path.parent.name for path in sources}
    assert {"weapons", "tables", "rules", "macros"} <= packs
    checked = tmp_path / "checked"
    checked.mkdir()
    _checked_files(sources, checked)
    assert len(list(checked.glob("macro_*.js"))) == 4
    completed = _type_check(tsc, checked)
    assert completed.returncode == 0, completed.stdout[-6000:]


def test_the_type_check_reports_a_wrong_field(tsc, tmp_path):
    """The check is not vacuous: a macro with a numeric name is reported."""
    out = tmp_path / "out"
    build(COMPENDIUM, out, ["foundry"])
    (macro,) = [
        p
        for p in (out / "foundry").glob("rulepress-iris/src/packs/macros/*.json")
        if "Skill" in p.name
    ]
    document = json.loads(macro.read_text())
    document["name"] = 7
    broken = tmp_path / "broken"
    broken.mkdir()
    wrong = broken / "sources" / "macros" / "wrong.json"
    wrong.parent.mkdir(parents=True)
    wrong.write_text(json.dumps(document))
    checked = tmp_path / "checked"
    checked.mkdir()
    _checked_files([wrong], checked)
    completed = _type_check(tsc, checked)
    assert completed.returncode != 0
    assert "documents.ts" in completed.stdout and "not assignable to type 'string'" in (
        completed.stdout
    )
    shutil.rmtree(broken)
