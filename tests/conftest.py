"""Shared fixtures: the bundled compendium, the source texts, throwaway compendium trees."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from rulepress.validation import Validation, validate

# The CLI keeps a document cache and build stamps; tests (and the CLIs they start) keep
# theirs in a throwaway folder, never in the working tree.
os.environ["RULEPRESS_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulepress-test-cache-")

REPO = Path(__file__).resolve().parents[1]
COMPENDIUM = REPO / "compendium"
SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"


@pytest.fixture(scope="session")
def bundled() -> Validation:
    """The bundled compendium, loaded and checked once per test session."""
    return validate(COMPENDIUM)


@pytest.fixture(scope="session")
def iris(bundled):
    return bundled.compendium.ruleset("iris")


@pytest.fixture(scope="session")
def t2k(bundled):
    return bundled.compendium.ruleset("t2k4e")


@pytest.fixture(scope="session")
def cuf(bundled):
    return bundled.compendium.ruleset("t2k-cuf")


@pytest.fixture(scope="session")
def cool(bundled):
    return bundled.compendium.ruleset("cool")


@pytest.fixture(scope="session")
def seed_text():
    def read(name: str) -> str:
        return (SEEDS / name).read_text(encoding="utf-8")

    return read


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


FOUNDRY_CLI = REPO / "tools/foundry-cli/node_modules/@foundryvtt/foundryvtt-cli/fvtt.mjs"


def require_tool(available: bool, what: str) -> None:
    """Tests that need an outside tool fail in CI when it is missing; on a developer
    machine they skip, saying how to get it."""
    if available:
        return
    message = f"{what} is missing; `make test` installs it (needs Node.js and npm)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def node() -> str:
    path = shutil.which("node")
    require_tool(path is not None, "node")
    return path


@pytest.fixture(scope="session")
def foundry_cli(node) -> list[str]:
    """The command that runs the official Foundry CLI."""
    require_tool(FOUNDRY_CLI.is_file(), "the official Foundry CLI (@foundryvtt/foundryvtt-cli)")
    return [node, str(FOUNDRY_CLI)]


CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="session")
def chromium():
    """Debian's Chromium driven by Playwright (no browser download: the system one)."""
    require_tool(CHROMIUM.is_file(), "Chromium (Debian package `chromium`)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require_tool(False, "Playwright for Python")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


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
