"""What several test modules share, defined here once, so no test module imports another."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

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
