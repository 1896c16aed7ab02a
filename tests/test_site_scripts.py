"""The site's calculator scripts: a game's script (`Game.scripts`) is copied into the site
and loaded after calculator.js, whose `rulepress.calculators.register` it calls, so a
plugin's calculator works in the browser; the publisher's `site.extra_javascript` is
loaded on every page (and refused, RP010, through a link out or into `.git`); a kind's
chart is on its chapter's page as well as the overview.

The plugin (game `orbs`, kind `orb`, package "rulepress-orbs") is registered in-process.
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
import types
from pathlib import Path
from typing import Literal

import pytest

from rulepress import kinds
from rulepress.commands.build import build
from rulepress.compendium.settings import load_settings
from rulepress.errors import PluginError
from rulepress.exporters.site.calculators import (
    Calculator,
    calculator_form,
    game_scripts,
    number_input,
)
from rulepress.exporters.site.pages import generate
from rulepress.kinds import discovery
from rulepress.models import Document
from rulepress.models.base import Name
from rulepress.validation import validate

PACKAGE = "rulepress-orbs"
SCRIPT = """\
(function () {
  const { register, helpers } = window.rulepress.calculators;
  register("orb-glow", function (form, data) {
    const glow = helpers.readWhole(form, "glow");
    if (glow.error) return [helpers.paragraph(glow.error)];
    return [helpers.paragraph("Glow " + glow.value + " shines " + data.shine[glow.value] + " feet.")];
  });
})();
"""


class Orb(Document):
    """A glowing orb: its glow lights this many feet times ten."""

    KIND = "orb"
    kind: Literal["orb"]
    name: Name
    glow: int = 1


def orb_charts(ruleset) -> dict:
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>Glow</title></svg>'
    return {f"{ruleset.id}-glow.svg": ("How far each orb shines", svg)}


def orb_calculator(ruleset) -> Calculator:
    form = calculator_form(
        "orb-glow", "Orb glow", [number_input("orb-glow", "glow", "Glow", 0, 9, 2)]
    )
    data = {"shine": [glow * 10 for glow in range(10)]}
    return Calculator("orb-glow", "Orb glow", "How far an orb shines.", form, data)


@pytest.fixture
def orbs(monkeypatch, tmp_path):
    """rulepress's games and the `orbs` game, whose script is `tmp_path/orbs.js`."""
    hooks = types.ModuleType("orb_hooks")
    hooks.orb_calculator = orb_calculator
    hooks.orb_charts = orb_charts
    monkeypatch.setitem(sys.modules, "orb_hooks", hooks)
    script = tmp_path / "orbs.js"
    script.write_text(SCRIPT, encoding="utf-8")
    templates = tmp_path / "templates"
    (templates / "markdown" / "sections").mkdir(parents=True)
    (templates / "markdown" / "sections" / "orb.md.j2").write_text(
        "{% for orb in section.documents %}{{ orb.name | md }} glows {{ orb.glow }}.\n{% endfor %}",
        encoding="utf-8",
    )
    kind = kinds.Kind(
        Orb,
        guide=kinds.Guide("Lights", "orb", page_per_section=True),
        chart="orb_hooks:orb_charts",
        calculator="orb_hooks:orb_calculator",
        templates=templates,
    )
    game = kinds.Game("orbs", "Orbs", kinds=(kind,), scripts=(script,), package=PACKAGE)
    games = (*discovery.installed_games(), game)
    monkeypatch.setattr(discovery, "installed_games", lambda: games)
    _forget_the_registry()
    yield game
    _forget_the_registry()


def _forget_the_registry() -> None:
    """The registry and the models are cached: made again from the games patched in."""
    kinds.registry.cache_clear()
    kinds.models.cache_clear()


RULESET = """\
kind: ruleset
id: orbs
title: Orbs
version: 0.1.0
game: Orbs
system: orbs-d10
summary: A game of glowing things.
sources:
  - title: The Orb Sheet
    author: A Publisher
    credit: Rules by A Publisher, for the script test.
"""


def repository(root: Path, settings: str = "") -> Path:
    """A content repository with one orb ruleset (and `settings` as its rulepress.yaml);
    the compendium's folder."""
    folder = root / "repo" / "compendium" / "orbs"
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(RULESET, encoding="utf-8")
    (folder / "bright.yaml").write_text("kind: orb\nid: bright\nname: Bright\nglow: 3\n", "utf-8")
    (folder / "dim.yaml").write_text("kind: orb\nid: dim\nname: Dim\nglow: 1\n", "utf-8")
    (root / "repo" / "rulepress.yaml").write_text(settings, encoding="utf-8")
    return root / "repo" / "compendium"


@pytest.fixture
def built(orbs, tmp_path) -> Path:
    compendium = repository(tmp_path, "site:\n  extra_javascript: [art/house.js]\n")
    (compendium.parent / "art").mkdir()
    house = "document.documentElement.dataset.house = 'loaded';\n"
    (compendium.parent / "art" / "house.js").write_text(house, encoding="utf-8")
    validation, _ = build(compendium, tmp_path / "out", ["site"])
    assert validation.ok, [f.message for f in validation.findings]
    return tmp_path / "out" / "site"


def test_a_plugins_script_is_copied_and_loaded_after_calculator_js(built):
    assert (built / "javascripts" / "orbs" / "orbs.js").read_text(encoding="utf-8") == SCRIPT
    page = (built / "orbs" / "calculator.html").read_text(encoding="utf-8")
    order = [
        page.index(f'src="../{src}"')
        for src in (
            "javascripts/calculator.js",
            "javascripts/orbs/orbs.js",
            "_publisher/art/house.js",
        )
    ]
    assert order == sorted(order)
    # the bundled games' scripts are not loaded where none of their calculators is
    assert "javascripts/iris/" not in page


def test_a_plugins_calculator_renders_and_answers_in_the_browser(built, chromium):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(built))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    context = chromium.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"http://127.0.0.1:{server.server_port}/orbs/calculator.html")
        output = page.locator("#orb-glow-output")
        assert output.inner_text() == "Glow 2 shines 20 feet."
        page.fill("#orb-glow-glow", "7")
        assert output.inner_text() == "Glow 7 shines 70 feet."
        assert page.evaluate("document.documentElement.dataset.house") == "loaded"
        assert errors == []
    finally:
        context.close()
        server.shutdown()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.mark.parametrize(
    ("link", "why"),
    [("../.git/config", "points into .git"), ("../../foreign.js", "points outside the repository")],
    ids=["into .git", "outside"],
)
def test_extra_javascript_through_a_bad_link_is_refused_unread(tmp_path, link, why):
    compendium = repository(tmp_path, "site:\n  extra_javascript: [art/house.js]\n")
    repo = compendium.parent
    (repo / ".git").mkdir()
    (repo / ".git" / "config").write_text("SECRET", encoding="utf-8")
    (tmp_path / "foreign.js").write_text("SECRET", encoding="utf-8")
    (repo / "art").mkdir()
    (repo / "art" / "house.js").symlink_to(link)
    publisher, findings = load_settings(repo / "rulepress.yaml")
    assert publisher.assets == {}
    found = [f"{f.line}:{f.col} {f.code} {f.message}" for f in findings]
    assert found == [f"2:22 RP010 site.extra_javascript.0: art/house.js: {why}; refused"]


def test_extra_javascript_must_be_a_js_file(tmp_path):
    compendium = repository(tmp_path, "site:\n  extra_javascript: [art/house.css]\n")
    (compendium.parent / "art").mkdir()
    (compendium.parent / "art" / "house.css").write_text("", encoding="utf-8")
    _, findings = load_settings(compendium.parent / "rulepress.yaml")
    assert [(f.code, f.message) for f in findings] == [
        ("RP010", "site.extra_javascript.0: art/house.css: must be a .js file")
    ]


def test_a_game_script_that_is_missing_or_no_js_file_is_an_error_naming_the_plugin(
    orbs, tmp_path, monkeypatch
):
    rulesets = list(validate(repository(tmp_path)).compendium)
    for script, problem in ((tmp_path / "gone.js", "cannot be read"), (tmp_path / "a.txt", ".js")):
        game = kinds.Game("orbs", "Orbs", kinds=orbs.kinds, scripts=(script,), package=PACKAGE)
        games = (*discovery.installed_games()[:-1], game)
        monkeypatch.setattr(discovery, "installed_games", lambda games=games: games)
        with pytest.raises(PluginError, match=f"plugin {PACKAGE} .*{problem}"):
            game_scripts(rulesets)


def test_a_kinds_chart_is_on_its_chapters_page_as_well_as_the_overview(bundled, tmp_path):
    generate(bundled.compendium, tmp_path)
    for page in ("t2k4e/dice.md", "t2k4e/index.md"):
        text = (tmp_path / "docs" / page).read_text(encoding="utf-8")
        assert '<figure class="rp-chart" tabindex="0">' in text
    dice = (tmp_path / "docs" / "t2k4e" / "dice.md").read_text(encoding="utf-8")
    assert "[The chart as an SVG file](../assets/t2k4e-success-odds.svg)" in dice
    skills = (tmp_path / "docs" / "iris" / "skills.md").read_text(encoding="utf-8")
    assert "rp-chart" not in skills  # the skill-test chart is on the skill test's page
    assert "rp-chart" in (tmp_path / "docs" / "iris" / "skill-test.md").read_text("utf-8")


def test_a_plugins_chart_is_on_its_own_section_pages_and_the_overview_links_them(orbs, tmp_path):
    """A kind whose sections are pages of their own, in a chapter not titled "Weapons":
    its chart is on each of its pages (the assets two folders up), and the overview links
    each page, not an anchor of the chapter's first."""
    project = tmp_path / "project"
    generate(validate(repository(tmp_path)).compendium, project)
    page = (project / "docs" / "orbs" / "lights" / "bright.md").read_text(encoding="utf-8")
    assert "## How far each orb shines" in page
    assert "[The chart as an SVG file](../../assets/orbs-glow.svg)" in page
    assert (project / "docs" / "assets" / "orbs-glow.svg").is_file()
    overview = (project / "docs" / "orbs" / "index.md").read_text(encoding="utf-8")
    assert "[Bright](lights/bright.md)" in overview and "[Dim](lights/dim.md)" in overview
    assert "## How far each orb shines" in overview
