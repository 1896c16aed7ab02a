"""Hostile files: what a pull request can commit besides YAML, run on by CI.

Everything in a content repository is untrusted: its caches, its special files (named
pipes, sockets, links to devices, huge sparse files), its links and its file names. Each
case asserts the exact clear outcome: a finding at `path:line:col`, an exit code,
nothing unpickled, nothing written outside, and no hang (commands run with a time limit
and an address-space limit, so a regression fails the test instead of the machine).

- `CASES`: trees validated in process and by the command line (the hostile corpus's
  runner, reused from tests/test_hostile_inputs.py).
- Caches, the render memo and the build stamp: crafted, forged, linked or special.
- Special files the build stamp digests, `fmt` and links, stamps of unexpected shapes.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from rulepress.compendium.loader import load_compendium
from tests.conftest import build_tree
from tests.test_broken_inputs import SKILL, base_tree
from tests.test_cli import run
from tests.test_hostile_inputs import (
    Hostile,
    params,
    symlink,
)
from tests.test_hostile_inputs import (
    test_hostile_input_gives_its_finding_at_its_place as gives_its_finding_at_its_place,
)
from tests.test_hostile_inputs import (
    test_the_command_line_gives_the_same_outcome as command_line_gives_the_same_outcome,
)

HUGE = 64 * 2**30
"""A sparse file this large costs no disk, but reading it would exhaust any memory."""
MEMORY_LIMIT = 2**30
"""Address space for each command run: a regression that reads a huge file fails fast."""
DEEP = " " * 300 + "# indented deeper than the C parser is trusted with\n"
"""A first line that sends a file down the pure-Python parser path."""


def mkfifo(relative: str):
    def setup(root: Path) -> None:
        path = root / relative
        if path.exists():
            path.unlink()
        os.mkfifo(path)

    return setup


def unix_socket(relative: str):
    def setup(root: Path) -> None:
        path = root / relative
        path.unlink(missing_ok=True)
        here = os.getcwd()
        os.chdir(path.parent)  # a socket's path is limited to ~100 bytes: bind it relatively
        try:
            socket.socket(socket.AF_UNIX).bind(path.name)
        finally:
            os.chdir(here)

    return setup


def sparse(relative: str, size: int = HUGE):
    def setup(root: Path) -> None:
        with open(root / relative, "wb") as file:
            file.truncate(size)

    return setup


def replaced_by_link(relative: str, target):
    def setup(root: Path) -> None:
        (root / relative).unlink()
        symlink(relative, target)(root)

    return setup


NOT_UTF8 = os.fsdecode(b"bad\xff")
"""A name holding a byte that is not UTF-8 (as Python sees it: a surrogate escape)."""


CASES = [
    # --- special files where a document is read -------------------------------------
    Hostile(
        "ruleset.yaml is a named pipe",
        {},
        "RP001",
        "demo/ruleset.yaml",
        1,
        1,
        setup=mkfifo("demo/ruleset.yaml"),
        cli=True,
        seconds=5.0,
    ),
    Hostile(
        "ruleset.yaml is a socket",
        {},
        "RP001",
        "demo/ruleset.yaml",
        1,
        1,
        setup=unix_socket("demo/ruleset.yaml"),
        seconds=5.0,
    ),
    Hostile(
        "ruleset.yaml links to /dev/zero",
        {},
        "RP008",
        "demo/ruleset.yaml",
        1,
        1,
        setup=replaced_by_link("demo/ruleset.yaml", "/dev/zero"),
        cli=True,
        seconds=5.0,
    ),
    Hostile(
        "a 64 GB sparse document",
        {},
        "RP001",
        "demo/skills/huge.yaml",
        1,
        1,
        setup=sparse("demo/skills/huge.yaml"),
        cli=True,
        seconds=5.0,
    ),
    Hostile(
        "a 64 GB sparse ruleset.yaml",
        {},
        "RP001",
        "demo/ruleset.yaml",
        1,
        1,
        setup=sparse("demo/ruleset.yaml"),
        seconds=5.0,
    ),
    # --- names that are not text ------------------------------------------------------
    Hostile(
        "a document whose file name is not UTF-8",
        {f"demo/skills/{NOT_UTF8}.yaml": SKILL.replace("bio-lore", "other-lore")},
        "RP002",
        f"demo/skills/{NOT_UTF8}.yaml",
        1,
        1,
    ),
    Hostile(
        "a folder whose name is not UTF-8",
        {f"demo/{NOT_UTF8}/other.yaml": SKILL.replace("bio-lore", "other-lore")},
        "RP002",
        f"demo/{NOT_UTF8}",
        1,
        1,
    ),
    # --- surrogate escapes on the pure-Python parser path -----------------------------
    Hostile(
        "a surrogate escape as a mapping key (pure-Python parser)",
        {"demo/skills/bio-lore.yaml": DEEP + SKILL + '"\\udc80": 1\n'},
        "RP003",
        "demo/skills/bio-lore.yaml",
        8,
        2,
        cli=True,
    ),
    Hostile(
        "a surrogate escape in a value (pure-Python parser)",
        {"demo/skills/bio-lore.yaml": DEEP + SKILL.replace("Bio Lore", '"Bio \\udc80 Lore"')},
        "RP003",
        "demo/skills/bio-lore.yaml",
        4,
        12,
        cli=True,
    ),
    Hostile(
        "an escaped surrogate pair in a value (pure-Python parser)",
        {"demo/skills/bio-lore.yaml": DEEP + SKILL.replace("Bio Lore", '"\\ud83d\\ude00"')},
        "RP003",
        "demo/skills/bio-lore.yaml",
        4,
        8,
    ),
    Hostile(
        "a surrogate escape in a key below a long line (pure-Python parser)",
        {"demo/skills/bio-lore.yaml": DEEP + SKILL + 'table:\n  - {ap: 1, "x\\uDFFF": 2}\n'},
        "RP003",
        "demo/skills/bio-lore.yaml",
        9,
        15,
    ),
]


@pytest.mark.parametrize("case", params(CASES))
def test_hostile_file_gives_its_finding_at_its_place(tmp_path, case: Hostile):
    gives_its_finding_at_its_place(tmp_path, case)


@pytest.mark.parametrize("case", params([c for c in CASES if c.cli]))
def test_the_command_line_gives_the_same_outcome_for_a_hostile_file(tmp_path, case: Hostile):
    command_line_gives_the_same_outcome(tmp_path, case)


def test_a_ruleset_file_linking_out_is_refused_unread(tmp_path):
    """Only the link is reported: what it points at is never read (nor quoted)."""
    root = build_tree(tmp_path / "c", base_tree())
    outside = build_tree(tmp_path / "secret", {"ruleset.yaml": "password: [hunter2\n"})
    replaced_by_link("demo/ruleset.yaml", outside / "ruleset.yaml")(root)
    findings = load_compendium(root).findings
    assert [(f.code, f.file, f.line) for f in findings] == [
        ("RP008", root / "demo/ruleset.yaml", 1)
    ]


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_file_name_that_is_not_utf8_is_printed_safely(tmp_path, fmt):
    """Its bad byte shown as \\xff: the output stays UTF-8 (and JSON stays JSON)."""
    tree = {**base_tree(), f"demo/skills/{NOT_UTF8}.yaml": SKILL.replace("bio-lore", "x")}
    build_tree(tmp_path / "c", tree)
    result = run("validate", "c", "--format", fmt, cwd=tmp_path)  # decodes strictly
    assert result.returncode == 1
    if fmt == "json":
        (finding,) = json.loads(result.stdout)["findings"]
        assert (finding["file"], finding["code"]) == ("c/demo/skills/bad\\xff.yaml", "RP002")
        return
    assert "c/demo/skills/bad\\xff.yaml" in result.stdout
    if fmt == "text":
        assert (
            "c/demo/skills/bad\\xff.yaml:1:1: error RP002: file name is not UTF-8: byte 0xff "
            "cannot be decoded; rename it" in result.stdout
        )


def test_a_refused_file_says_what_it_is(tmp_path):
    root = build_tree(tmp_path / "c", base_tree())
    os.mkfifo(root / "demo/skills/pipe.yaml")
    sparse("demo/skills/huge.yaml")(root)
    messages = {f.file.name: f.message for f in load_compendium(root).findings}
    assert messages["pipe.yaml"] == "cannot read file: not a regular file (a named pipe); refused"
    assert messages["huge.yaml"].startswith("cannot read file: larger than ")
    assert messages["huge.yaml"].endswith(" MiB; refused")
