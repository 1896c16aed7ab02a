"""Session setup and the fixtures every module may ask for; plain helpers live in helpers.py."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import sys
import tempfile
import textwrap
import threading
from pathlib import Path

import pytest

from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.games.t2k4e.models.step_dice import ModifierRule, OpposedRoll, StepDice
from rulepress.validation import Validation, validate
from tests.helpers import (
    AXE,
    CHROMIUM,
    COMPENDIUM,
    FOUNDRY_CLI,
    SEEDS,
    base_tree,
    build_bundled,
    build_tree,
    clear_registry,
    require_tool,
)

# The CLI keeps a document cache and build stamps; tests (and the CLIs they start) keep
# theirs in a throwaway folder, never in the working tree.
os.environ["RULEPRESS_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulepress-test-cache-")


@pytest.fixture(scope="session")
def bundled() -> Validation:
    """The bundled compendium, loaded and checked once per test session."""
    return validate(COMPENDIUM)


@pytest.fixture(scope="session")
def iris(bundled):
    """The IRIS ruleset, from the bundled compendium."""
    return bundled.compendium.ruleset("iris")


@pytest.fixture(scope="session")
def t2k(bundled):
    """Twilight 2000 (4th edition), from the bundled compendium."""
    return bundled.compendium.ruleset("t2k4e")


@pytest.fixture(scope="session")
def cuf(bundled):
    """Coolness Under Fire for Twilight: 2000, from the bundled compendium."""
    return bundled.compendium.ruleset("t2k-cuf")


@pytest.fixture(scope="session")
def cool(bundled):
    """The Cool ruleset (shock and fear rolls), from the bundled compendium."""
    return bundled.compendium.ruleset("cool")


@pytest.fixture(scope="module")
def skill_test(iris) -> SkillTest:
    """Iris's skill test: how a rank and traits become AP."""
    return iris.one(SkillTest)


@pytest.fixture(scope="module")
def step_dice(t2k) -> StepDice:
    """Twilight 2000's step dice: what each die's faces count as."""
    return t2k.one(StepDice)


@pytest.fixture(scope="module")
def modifiers(t2k) -> ModifierRule:
    """Twilight 2000's modifier rule: how a modifier shifts the dice."""
    return t2k.one(ModifierRule)


@pytest.fixture(scope="module")
def opposed(t2k) -> OpposedRoll:
    """Twilight 2000's opposed roll."""
    return t2k.one(OpposedRoll)


@pytest.fixture(scope="session")
def seed_text():
    """A reader of the source texts in fixtures/seeds/, by file name."""

    def read(name: str) -> str:
        return (SEEDS / name).read_text(encoding="utf-8")

    return read


@pytest.fixture(scope="module")
def iris_page(seed_text) -> str:
    """The Iris wiki page the Iris rules are transcribed from."""
    return seed_text("iris-wiki.txt")


@pytest.fixture(scope="session")
def node() -> str:
    """The node executable, for the Foundry CLI and the macros."""
    path = shutil.which("node")
    require_tool(path is not None, "node")
    return path


@pytest.fixture(scope="session")
def axe_script() -> str:
    """axe-core's script, to run in a page of the site (`make test` installs it)."""
    require_tool(AXE.is_file(), "axe-core (npm, tools/axe)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def foundry_cli(node) -> list[str]:
    """The command that runs the official Foundry CLI."""
    require_tool(FOUNDRY_CLI.is_file(), "the official Foundry CLI (@foundryvtt/foundryvtt-cli)")
    return [node, str(FOUNDRY_CLI)]


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


@pytest.fixture
def demo(tmp_path) -> Path:
    """The small demo compendium written to a fresh folder."""
    return build_tree(tmp_path / "c", base_tree())


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The built site (`mkdocs build --strict` passed, or the build raised)."""
    return build_bundled(tmp_path_factory.mktemp("site-dist"), "site")


@pytest.fixture
def install(tmp_path, monkeypatch):
    """install(distribution, {group: {name: value}}, {file: source}): a distribution with
    these entry points and modules, installed for this test only."""
    clear_registry()
    root = tmp_path / "site"
    modules: list[str] = []

    def installer(distribution: str, groups: dict, files: dict | None = None) -> Path:
        meta = root / f"{distribution.replace('-', '_')}-0.1.dist-info"
        meta.mkdir(parents=True)
        (meta / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.1\n", encoding="utf-8"
        )
        (meta / "entry_points.txt").write_text(
            "".join(
                f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in points.items())
                for group, points in groups.items()
            ),
            encoding="utf-8",
        )
        for name, source in (files or {}).items():
            modules.append(Path(name).parts[0].removesuffix(".py"))
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(textwrap.dedent(source), encoding="utf-8")
        return root

    monkeypatch.syspath_prepend(str(root))
    yield installer
    clear_registry()
    for module in modules:  # the next case's module of the same name is its own
        sys.modules.pop(module, None)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(site) -> str:
    """The built site served on localhost, for the browser tests."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
