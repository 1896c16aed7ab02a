"""What several test modules share, defined here once, so no test module imports another."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulepress.errors import Level

# --- Where things are -------------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[1]
"""The checkout: the folder the command line runs in, as a contributor runs it."""
COMPENDIUM = REPO / "compendium"
"""The bundled compendium, the data every faithful test checks against its source."""
SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"
"""Copies of the four source texts the bundled rules are transcribed from."""
ARTIFACTS = REPO / "test-artifacts"
"""Where tests leave what a person looks at after a run (screenshots)."""
FOUNDRY_CLI = REPO / "tools/foundry-cli/node_modules/@foundryvtt/foundryvtt-cli/fvtt.mjs"
"""The official Foundry CLI, installed by `make test`, that reads packs as Foundry does."""
CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, so the browser tests download no browser."""
HARNESS = Path(__file__).resolve().parent / "foundry" / "run_macro.mjs"
"""Runs a generated macro in node against stand-ins for Foundry's Roll and ChatMessage."""


# --- Throwaway compendium trees ---------------------------------------------------------------


def build_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `files` (relative path -> text or bytes) under `root`; return `root`."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


RULESET_FILE = "demo/ruleset.yaml"
"""Where the small demo tree keeps its ruleset."""
ACUITY_FILE = "demo/traits/acuity.yaml"
"""Where the small demo tree keeps the trait Acuity."""
SKILL_FILE = "demo/skills/bio-lore.yaml"
"""Where the small demo tree keeps its one skill."""
SECTION_FILE = "demo/sections/pistols.yaml"
"""Where the small demo tree keeps its one weapon section."""
WEAPON_FILE = "demo/weapons/test-pistol.yaml"
"""Where the small demo tree keeps its one weapon."""

RULESET = """\
kind: ruleset
id: demo
title: Demo
version: "1.0.0"
game: Demo
system: iris-ap
summary: A tiny ruleset for tests.
sources:
  - {title: Test page, author: Tests, credit: Written for the tests.}
"""
"""The demo tree's ruleset: the fewest fields a valid ruleset needs."""
TRAITS = {
    ACUITY_FILE: "kind: trait\nid: acuity\nname: Acuity\norder: 1\n",
    "demo/traits/resolve.yaml": "kind: trait\nid: resolve\nname: Resolve\norder: 2\n",
}
"""The demo tree's two traits, by file."""
SKILL = "kind: skill\nid: bio-lore\nname: Bio Lore\ncategory: academic\norder: 1\ntraits: [acuity, resolve]\n"
"""The demo tree's skill, using both traits."""
SECTION = "kind: weapon-section\nid: pistols\nname: Pistols\norder: 1\nskill: bio-lore\n"
"""The demo tree's weapon section, for the skill."""


MESSY_SKILL = """\
# Bio Lore: a lore skill.
id: bio-lore   # the slug
kind: skill
traits:
- acuity
- resolve
order: 1
name: 'Bio Lore'
category: academic
status: published
"""
"""The demo skill as a person might write it: keys out of order, comments, quotes."""


def weapon(rows: list[str] | None = None, head: str = "") -> str:
    """The demo weapon's file: `rows` instead of its full 30-row table, `head` before it."""
    rows = (
        rows
        if rows is not None
        else [
            f"  - {{ap: {ap}, damage: {ap}, defense: {ap}, move: Base, range: 10}}"
            for ap in range(1, 31)
        ]
    )
    return (
        "kind: weapon\nid: test-pistol\nname: Test Pistol\nheader: Test Pistol\ntier: 1\n"
        "section: pistols\norder: 1\nmagazine: 3\nreload: 3\nweight: 2\ncost: 1\n"
        f"rarity: Common\n{head}table:\n" + "\n".join(rows) + "\n"
    )


def base_tree() -> dict[str, str | bytes]:
    """The smallest valid compendium (one ruleset, two traits, a skill, a section, a
    weapon), for a test to change one file of."""
    return {
        RULESET_FILE: RULESET,
        **TRAITS,
        SKILL_FILE: SKILL,
        SECTION_FILE: SECTION,
        WEAPON_FILE: weapon(),
    }


# --- Cases ------------------------------------------------------------------------------------


@dataclass
class Case:
    """A broken tree and the one finding it must give: code, file, line, column, level."""

    name: str
    files: dict[str, str | bytes]
    code: str
    file: str
    line: int
    col: int
    level: Level = Level.ERROR


# --- Commands run as a user runs them ---------------------------------------------------------


def run(
    *args: str,
    cwd: Path = REPO,
    env: dict[str, str] | None = None,
    seconds: float = 120,
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess:
    """`python -m rulepress ARGS` in `cwd` (with `env` instead of this process's, if given),
    failing the test if it runs past `seconds` or prints a traceback."""
    try:
        result = subprocess.run(
            [sys.executable, "-m", "rulepress", *args],
            cwd=cwd,
            env=env,
            preexec_fn=preexec_fn,
            capture_output=True,
            text=True,
            timeout=seconds,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"rulepress {' '.join(args)} ran past {seconds} s")
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result


def git(repo: Path, *args: str) -> str:
    """`git ARGS` in `repo`, which must succeed; its output."""
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout


def run_macro(node: str, macro: Path, scope: dict, faces: list[int]) -> dict:
    """Run a generated macro's JSON document in node with `scope` and the dice showing
    `faces`; what it rolled and said."""
    completed = subprocess.run(
        [node, str(HARNESS), str(macro), json.dumps({"scope": scope, "faces": faces})],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


# --- Outside tools ----------------------------------------------------------------------------


def require_tool(available: bool, what: str) -> None:
    """Tests that need an outside tool fail in CI when it is missing; on a developer
    machine they skip, saying how to get it."""
    if available:
        return
    message = f"{what} is missing; `make test` installs it (needs Node.js and npm)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def unpack_with_cli(foundry_cli: list[str], pack: Path, tmp: Path) -> Path:
    """Unpack a copy of `pack` with the official CLI (opening a LevelDB rewrites some of its
    files, so the output itself is never opened); return the folder of unpacked sources."""
    copy = tmp / f"copy-{pack.parent.parent.name}-{pack.name}"
    suffix = 2
    while copy.exists():
        copy, suffix = (
            copy.with_name(f"copy-{pack.parent.parent.name}-{pack.name}-{suffix}"),
            suffix + 1,
        )
    shutil.copytree(pack, copy)
    out = copy.with_name(f"{copy.name}-unpacked")
    command = [
        *foundry_cli,
        "package",
        "unpack",
        "-n",
        copy.name,
        "--in",
        str(copy.parent),
        "--out",
        str(out),
    ]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    return out
