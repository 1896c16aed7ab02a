"""`rulepress serve` in the real Chromium: a save that breaks the compendium shows its
findings on the page the contributor is looking at, as text (a finding quotes the file,
markup and all), until a save fixes it."""

from __future__ import annotations

import re

import pytest

from rulepress.commands.serve_findings import BANNER_ID, MOST_LINES, Problems
from tests.helpers import PAGE, PATIENCE, WEAPON, Served, screenshot

BANNER = f"#{BANNER_ID}"
HOSTILE = '<img src=x onerror="window.injected=1">'


@pytest.fixture
def served(tmp_path):
    server = Served(tmp_path)
    try:
        server.wait_for(lambda: "Salvaged Pistol" in server.get(PAGE), "the first page served")
        yield server
    finally:
        assert server.stop() == 0
        assert "Traceback" not in server.output()


def test_a_broken_save_shows_its_findings_in_the_page_until_it_is_fixed(chromium, served):
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{served.port}/{PAGE}")
    page.wait_for_load_state("load")
    assert page.locator(BANNER).count() == 0
    served.save(WEAPON, "magazine: 3", f"magazine: '{HOSTILE}'")
    banner = page.locator(BANNER)
    banner.wait_for(state="visible", timeout=PATIENCE * 1000)  # the page reloaded by itself
    assert banner.get_attribute("role") == "alert"
    text = banner.inner_text()
    assert "the compendium has errors" in text
    assert re.search(r"salvaged-pistol\.yaml:\d+:\d+: error RP\d{3}: magazine", text), text
    assert HOSTILE in text  # shown as the file's text, never run as markup
    assert banner.locator("img").count() == 0
    assert page.evaluate("() => window.injected") is None
    assert "Salvaged Pistol" in page.locator("article").inner_text()  # the last good page
    screenshot(page, "serve-findings-390px.png")
    # another page opened while the save is broken shows it too
    page.goto(f"http://127.0.0.1:{served.port}/iris/index.html")
    page.locator(BANNER).wait_for(state="visible", timeout=10_000)
    served.save(WEAPON, f"magazine: '{HOSTILE}'", "magazine: 3")
    page.locator(BANNER).wait_for(state="detached", timeout=PATIENCE * 1000)
    assert page.locator("h1").first.inner_text().startswith("IRIS Quick Reference")
    context.close()


def test_the_banner_escapes_its_text_and_keeps_to_its_first_lines():
    problems = Problems()
    assert problems.banner() == b""
    findings = "\n".join(f"a.yaml:{n}:1: error RP103: <b>&</b>" for n in range(1, 100))
    problems.show("headline <i>", findings)
    banner = problems.banner().decode()
    assert "&lt;b&gt;&amp;&lt;/b&gt;" in banner and "<b>" not in banner
    assert "headline &lt;i&gt;" in banner
    assert banner.count("error RP103") == MOST_LINES
    assert f"... and {99 - MOST_LINES} more lines" in banner
    problems.clear()
    assert problems.banner() == b""
