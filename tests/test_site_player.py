"""The built site as a player meets it, in the real Chromium (Playwright) at a desktop's
1280 px and a phone's 390 px: one game at a time, charts whose text stays readable,
calculator controls a finger can hit, a named search dialog, and no command line."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from rulepress.cli import cli
from rulepress.exporters.site.calculators import for_players
from tests.helpers import screenshot

RULESETS = {
    "cool": "Cool: shock and fear rolls",
    "iris": "IRIS Quick Reference",
    "t2k-cuf": "Coolness Under Fire for Twilight: 2000 v2.2",
    "t2k4e": "Twilight: 2000 4th Edition Task Resolution",
}
CALCULATORS = ("cool", "iris", "t2k-cuf", "t2k4e")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def browse(chromium):
    """browse(viewport, scheme="light") -> a new page; every context is closed after."""
    contexts = []

    def open_page(viewport: dict, scheme: str = "light"):
        context = chromium.new_context(viewport=viewport, color_scheme=scheme)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def load(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")


# The links a reader can see and click: the element under the link's centre is the link
# (Material's drawer keeps its other panels in the page, slid out of view).
SHOWN_MENU_LINKS = """selector => [...document.querySelectorAll(selector)].filter(a => {
    const box = a.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const x = box.left + box.width / 2, y = box.top + Math.min(box.height / 2, 10);
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return hit !== null && (hit === a || a.contains(hit));
}).map(a => new URL(a.href).pathname)"""


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_desktop_menu_shows_one_game_and_a_tab_per_game(browse, base_url, ruleset):
    page = browse(DESKTOP)
    load(page, base_url + f"{ruleset}/index.html")
    tabs = page.locator(".md-tabs__link")
    titles = [text.strip() for text in tabs.all_inner_texts()]
    assert set(RULESETS.values()) <= set(titles), titles
    active = page.locator(".md-tabs__item--active .md-tabs__link")
    assert active.inner_text().strip() == RULESETS[ruleset]
    links = page.evaluate(SHOWN_MENU_LINKS, ".md-sidebar--primary a.md-nav__link")
    assert len(links) >= 4, links  # the game's chapters, calculator, rulings, sources
    others = [link for link in links if not link.startswith(f"/{ruleset}/")]
    assert others == [], f"the menu shows other pages than {ruleset}'s: {others}"
    screenshot(page, f"menu-{ruleset}.png")


def test_the_phone_menu_opens_on_the_current_game(browse, base_url):
    page = browse(PHONE)
    load(page, base_url + "iris/skills.html")
    page.click(".md-header label[for=__drawer]")
    page.wait_for_timeout(500)  # the drawer slides in
    links = page.evaluate(SHOWN_MENU_LINKS, ".md-sidebar--primary a.md-nav__link")
    assert "/iris/combat.html" in links and "/iris/calculator.html" in links, links
    assert [link for link in links if not link.startswith("/iris/")] == [], links
    screenshot(page, "menu-390px.png")


def chart_pages(site) -> list[str]:
    return sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if 'class="rp-chart"' in path.read_text(encoding="utf-8")
    )


# Each chart's text: the size it is drawn at on screen (its font size in the viewBox's
# units times the SVG's scale on the page) and the height of its box, in CSS px.
MEASURE_CHART_TEXT = """() => [...document.querySelectorAll('figure.rp-chart')].map(figure => ({
    scrolls: figure.scrollWidth > figure.clientWidth,
    focusable: figure.tabIndex === 0,
    texts: [...figure.querySelectorAll('svg text')].map(text => ({
        text: text.textContent,
        size: parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a,
        height: text.getBoundingClientRect().height,
    })),
}))"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_chart_text_is_at_least_12_css_px(browse, site, base_url, viewport):
    pages = chart_pages(site)
    assert {"iris/index.html", "t2k4e/index.html"} <= set(pages), pages
    page = browse(viewport)
    for path in pages:
        load(page, base_url + path)
        charts = page.evaluate(MEASURE_CHART_TEXT)
        assert charts, path
        for chart in charts:
            assert len(chart["texts"]) > 10, path  # the axes' ticks and the legend
            small = [t for t in chart["texts"] if t["size"] < 12 or t["height"] < 12]
            assert small == [], (path, small[:3])
            if viewport is PHONE:  # wider than the phone: it scrolls, by keyboard too
                assert chart["scrolls"] and chart["focusable"], (path, chart["scrolls"])
        # the chart scrolls in its figure: the page itself never scrolls sideways
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"], (path, width)
    if viewport is PHONE:
        page.locator("figure.rp-chart").first.scroll_into_view_if_needed()
        screenshot(page, "chart-390px.png")


def test_a_keyboard_scrolls_a_chart_on_a_phone(browse, base_url):
    page = browse(PHONE)
    load(page, base_url + "t2k4e/index.html")
    figure = page.locator("figure.rp-chart").first
    figure.focus()
    assert page.evaluate("() => document.activeElement.matches('figure.rp-chart')")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelector('figure.rp-chart').scrollLeft > 0", timeout=5_000
    )


MEASURE_CONTROLS = """() => [...document.querySelectorAll('.rp-calculator input, .rp-calculator select')]
    .map(control => {
        const box = control.getBoundingClientRect();
        const style = getComputedStyle(control);
        return {name: control.name, tag: control.tagName, width: box.width, height: box.height,
                border: parseFloat(style.borderTopWidth), radius: parseFloat(style.borderTopLeftRadius),
                font: parseFloat(style.fontSize), appearance: style.appearance,
                background: style.backgroundColor, colour: style.color,
                labelAbove: document.querySelector('label[for="' + control.id + '"]')
                    .getBoundingClientRect().bottom <= box.top + 1};
    })"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_calculator_controls_are_styled_with_44_px_targets(
    browse,
    base_url,
    viewport,
    scheme,
):
    page = browse(viewport, scheme)
    for ruleset in CALCULATORS:
        load(page, base_url + f"{ruleset}/calculator.html")
        page_colours = page.evaluate(
            "() => [getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.querySelector('.md-typeset')).color]"
        )
        controls = page.evaluate(MEASURE_CONTROLS)
        assert controls, ruleset
        for control in controls:
            where = (ruleset, control)
            assert control["width"] >= 44 and control["height"] >= 44, where
            assert control["border"] >= 1 and control["radius"] > 0, where
            assert control["font"] >= 16, where  # a phone zooms into smaller fields
            assert [control["background"], control["colour"]] == page_colours, where
            assert control["labelAbove"], where
            if control["tag"] == "SELECT":  # its own arrow, in the page's colours
                assert control["appearance"] == "none", where
        if viewport is PHONE and ruleset == "t2k4e":
            screenshot(page, f"calculator-controls-390px-{scheme}.png")


def test_a_calculator_control_shows_the_focus_ring(browse, base_url):
    page = browse(PHONE)
    load(page, base_url + "t2k4e/calculator.html")
    page.get_by_label("Attribute die").focus()
    page.keyboard.press("Tab")
    outline = page.evaluate(
        "() => [document.activeElement.name, getComputedStyle(document.activeElement).outlineWidth]"
    )
    assert outline[0] == "skill" and float(outline[1].removesuffix("px")) >= 2, outline


def test_the_search_dialog_has_a_name(browse, base_url):
    for viewport in (PHONE, DESKTOP):
        page = browse(viewport)
        load(page, base_url + "iris/index.html")
        # a phone opens the search with the header's button, a desktop in its field
        page.locator(
            ".md-header label[for=__search]:visible, input.md-search__input:visible"
        ).first.click()
        # the theme gives the dialog's box no size of its own: its field is what shows
        dialog = page.get_by_role("dialog", name="Search", include_hidden=True)
        assert dialog.count() == 1
        dialog.locator("input.md-search__input").wait_for(state="visible", timeout=5_000)


def test_the_404_page_names_its_search_dialog_too(site):
    assert (
        '<div class="md-search" data-md-component="search" role="dialog" aria-label="Search">'
        in (site / "404.html").read_text(encoding="utf-8")
    )


# --- No command line for players -----------------------------------------------------------


class _Text(HTMLParser):
    """A page's text as a reader gets it: no script, style or search index."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs) -> None:
        self._hidden += tag in ("script", "style")

    def handle_endtag(self, tag) -> None:
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data) -> None:
        if not self._hidden:
            self.parts.append(data)


def page_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


CONTRIBUTORS_PAGE = "contributing.html"


def test_no_players_page_gives_a_rulepress_command(site):
    commands = sorted(cli.commands)
    assert {"build", "odds", "roll", "validate", "diff"} <= set(commands)
    command = re.compile(r"\brulepress (?:" + "|".join(map(re.escape, commands)) + r")\b")
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    found = {}
    # each language's site (a folder with its own search) has its contributors' page
    languages = [folder.name for folder in site.iterdir() if (folder / "search").is_dir()]
    contributors = {CONTRIBUTORS_PAGE, *(f"{code}/{CONTRIBUTORS_PAGE}" for code in languages)}
    for path in pages:
        relative = path.relative_to(site).as_posix()
        text = page_text(path.read_text(encoding="utf-8"))
        hits = command.findall(text)
        if relative in contributors:
            assert hits, "the contributors' page gives the commands they run"
        elif hits:
            found[relative] = hits
    assert found == {}


def test_a_calculators_text_keeps_what_it_says_to_players_and_drops_commands():
    text = (
        "Give a rank. Ranks above 20 are not precomputed: their figures are too large. "
        "For a higher rank, run `rulepress odds iris --rank RANK`, which works them out. "
        "Totals above 200 are not precomputed (see above): `rulepress roll cuf --tcs TCS` "
        "works any total out. The weapons shown are the first 300."
    )
    assert for_players(text) == (
        "Give a rank. Ranks above 20 are not precomputed: their figures are too large. "
        "Totals above 200 are not precomputed (see above). The weapons shown are the first 300."
    )
    assert for_players("Plain text, `code` kept.") == "Plain text, `code` kept."
