"""The built site in a real browser (Debian's Chromium, driven by Playwright), served on
localhost: what a reader sees and does. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
import urllib.request
from collections import Counter
from fractions import Fraction
from html.parser import HTMLParser
from urllib.parse import urljoin, urlparse

import pytest

from rulepress import dice
from rulepress.games.cool.commands import cool_roll
from rulepress.games.cuf.commands import cuf_check
from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.games.iris.models.weapon import weapons_by_section
from rulepress.games.t2k4e.commands import T2k4eRoll, t2k4e_roll
from rulepress.games.t2k4e.models.step_dice import StepDice
from tests.helpers import screenshot, search_site


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("requestfailed", lambda r: page.errors.append(f"failed: {r.url}"))
    yield page
    context.close()


def test_the_home_page_loads_with_no_console_errors(page, base_url):
    page.goto(base_url + "index.html")
    page.wait_for_load_state("networkidle")
    assert page.title().startswith("rulepress rules reference")
    assert page.locator("table a", has_text="IRIS Quick Reference").count() == 1
    screenshot(page, "home.png")
    assert page.errors == []


def test_searching_a_weapon_name_finds_its_page(page, base_url):
    page.goto(base_url + "index.html")
    page.wait_for_load_state("networkidle")
    hrefs = search_site(page, "Flak Cannon")
    assert any("iris/weapons/shotguns.html" in href for href in hrefs)


def test_a_weapon_table_shows_thirty_ap_rows(page, base_url):
    page.goto(base_url + "iris/weapons/pistols.html")
    page.wait_for_load_state("networkidle")
    heading = page.locator("h2", has_text="Light Combat Pistol")
    assert heading.count() == 1
    table = heading.locator("xpath=following::table[2]")
    assert table.locator("thead th").first.inner_text() == "AP"
    assert table.locator("tbody tr").count() == 30
    row = table.locator("tbody tr").nth(11)
    assert row.locator("th").inner_text() == "12"  # the AP heads its row
    assert row.locator("td").nth(0).inner_text() == "13"
    screenshot(page, "weapon-page.png")
    assert page.errors == []


def test_the_dark_mode_toggle_changes_the_palette(page, base_url):
    page.goto(base_url + "index.html")
    page.wait_for_load_state("networkidle")
    before = page.get_attribute("body", "data-md-color-scheme")
    page.locator("form[data-md-component='palette'] label:visible").first.click()
    after = page.get_attribute("body", "data-md-color-scheme")
    assert {before, after} == {"default", "slate"}


def test_a_glossary_term_shows_its_definition_on_hover(page, base_url):
    page.goto(base_url + "iris/skill-test.html")
    page.wait_for_load_state("networkidle")
    term = page.locator("abbr", has_text="AP").first
    term.hover()
    tooltip = page.locator(".md-tooltip2--active")
    tooltip.wait_for(timeout=5_000)
    assert "Action Points" in tooltip.inner_text()


def test_the_site_works_from_file_without_a_server(page, site):
    page.goto((site / "iris" / "index.html").as_uri())
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").first.inner_text().startswith("IRIS Quick Reference")
    hrefs = search_site(page, "Hand Cannon")
    assert any("weapons/pistols.html" in href for href in hrefs)
    assert page.errors == []


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "a" and values.get("href"):
            self.links.append(values["href"])


def _parse(url: str) -> _Links:
    with urllib.request.urlopen(url, timeout=30) as response:
        parser = _Links()
        parser.feed(response.read().decode("utf-8"))
    return parser


def test_every_internal_link_resolves(site, base_url):
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    parsed = {page: _parse(base_url + page) for page in pages}
    checked = 0
    for page, links in parsed.items():
        for href in links.links:
            url = urljoin(base_url + page, href)
            if not url.startswith(base_url) or (
                re.match(r"^[a-z]+:", href) and not href.startswith("http")
            ):
                continue
            target = urlparse(url)
            path = target.path.lstrip("/") or "index.html"
            if path.endswith("/"):
                path += "index.html"
            if path.endswith(".html"):
                assert path in parsed, f"{page} links to missing {path}"
                if target.fragment:
                    assert target.fragment in parsed[path].ids, f"{page} -> {href}"
            else:
                with urllib.request.urlopen(base_url + path, timeout=30) as response:
                    assert response.status == 200, f"{page} -> {href}"
            checked += 1
    assert checked > 200


def test_searching_push_ranks_the_rule_above_rulings(page, base_url):
    page.goto(base_url + "t2k4e/index.html")
    page.wait_for_load_state("networkidle")
    hrefs = search_site(page, "push")
    assert hrefs, "no result"
    assert "dice.html" in hrefs[0] and "rulings" not in hrefs[0], hrefs[:5]
    headings = page.locator(".md-search-result__item h1, .md-search-result__item h2")
    assert not any(
        re.search(r": [a-z0-9]+(-[a-z0-9]+)+$", text) for text in headings.all_inner_texts()
    ), "a ruling's result shows its slug"


@pytest.fixture
def dark_page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("ruleset", ["iris", "t2k4e"])
def test_the_odds_chart_has_no_white_box_in_dark_mode(dark_page, base_url, ruleset):
    dark_page.goto(base_url + f"{ruleset}/index.html")
    dark_page.wait_for_load_state("networkidle")
    assert dark_page.get_attribute("body", "data-md-color-scheme") == "slate"
    chart = dark_page.locator("figure.rp-chart svg")
    assert chart.count() == 1
    chart.scroll_into_view_if_needed()
    # no background painted behind the chart, and no shape of it covering the plot
    assert chart.evaluate("e => getComputedStyle(e).backgroundColor") == "rgba(0, 0, 0, 0)"
    largest = chart.evaluate(
        """svg => Math.max(0, ...[...svg.querySelectorAll('rect')].map(r => {
            const box = r.getBBox(); return box.width * box.height;
        })) / (svg.viewBox.baseVal.width * svg.viewBox.baseVal.height)"""
    )
    assert largest < 0.5, largest
    # the axis text is drawn in the page's (light) text colour
    text = chart.locator("text").first.evaluate("e => getComputedStyle(e).fill")
    body = dark_page.evaluate("() => getComputedStyle(document.querySelector('.md-typeset')).color")
    assert text == body and text != "rgb(0, 0, 0)", (text, body)
    screenshot(dark_page, f"{ruleset}-chart-dark.png")


TABLE_PAGES = (
    "iris/index.html",
    "iris/weapons/pistols.html",
    "iris/skill-test.html",
    "t2k4e/dice.html",
    "t2k-cuf/threat-conditions.html",
    "t2k4e/rulings.html",
    "contributing.html",
    "iris/calculator.html",
    "t2k-cuf/calculator.html",
    "t2k4e/calculator.html",
    "cool/calculator.html",
)

MEASURE_TABLES = """() => [...document.querySelectorAll('.md-content table')].map((table, index) => {
    let clipped = [];
    for (let e = table; e && e !== document.body; e = e.parentElement) {
        if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
            clipped.push(e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth);
    }
    const right = table.getBoundingClientRect().right;
    return {index, clipped, right, width: document.documentElement.clientWidth,
            rows: table.querySelectorAll('tbody tr').length};
})"""


@pytest.fixture
def phone(chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("path", TABLE_PAGES)
def test_at_390_px_every_table_fits_and_long_tables_keep_their_header(phone, base_url, path):
    phone.goto(base_url + path)
    phone.wait_for_load_state("networkidle")
    tables = phone.evaluate(MEASURE_TABLES)
    assert tables or path.endswith("rulings.html")
    for table in tables:
        assert table["clipped"] == [], (path, table)
        assert table["right"] <= table["width"] + 1, (path, table)
    long = [table["index"] for table in tables if table["rows"] >= 15]
    for index in long:
        header_top = phone.evaluate(
            """index => {
                const table = document.querySelectorAll('.md-content table')[index];
                const box = table.getBoundingClientRect();
                window.scrollTo(0, window.scrollY + box.top + box.height / 2);
                return new Promise(done => requestAnimationFrame(() => {
                    const header = document.querySelector('.md-header').getBoundingClientRect();
                    const head = table.querySelector('thead th').getBoundingClientRect();
                    done([head.top, head.bottom, header.bottom]);
                }));
            }""",
            index,
        )
        top, bottom, below_header = header_top
        assert below_header - 1 <= top and bottom < 844, (path, index, header_top)
    if path == "iris/weapons/pistols.html":
        screenshot(phone, "weapon-page-390px.png")


WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
NAMED_DIALOGS = "aria-dialog-name"
"""axe files a dialog's name under best practice; WCAG 4.1.2 asks for it too."""


def audit(page, axe_script: str) -> list[str]:
    """axe-core's WCAG 2.2 A and AA violations on the loaded page, one line each."""
    page.add_script_tag(content=axe_script)
    violations = page.evaluate(
        "([tags, rule]) => axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " rules: {[rule]: {enabled: true}}})"
        ".then(r => r.violations.map(v => v.id + ' (' + v.impact + '): '"
        " + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')))",
        [WCAG_AA, NAMED_DIALOGS],
    )
    return violations


def site_pages(site) -> list[str]:
    """Every page of the built site but the redirects a renamed page leaves behind."""
    return [
        path.relative_to(site).as_posix()
        for path in sorted(site.rglob("*.html"))
        if 'http-equiv="refresh"' not in path.read_text(encoding="utf-8")
    ]


DARK_AUDIT_PAGES = (
    "index.html",
    "iris/index.html",
    "iris/weapons/pistols.html",
    "t2k4e/dice.html",
    "t2k4e/rulings.html",
    "changes.html",
    "contributing.html",
)
"""The pages audited again in dark mode (its colours differ, its markup does not)."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_an_axe_wcag_2_2_aa_audit(chromium, site, base_url, axe_script, scheme):
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    found = {}
    pages = site_pages(site) if scheme == "light" else list(DARK_AUDIT_PAGES)
    for path in pages:
        page.goto(base_url + path)
        page.wait_for_load_state("load")
        violations = audit(page, axe_script)
        if violations:
            found[path] = violations
    context.close()
    assert len(pages) > 20 or scheme == "dark"
    assert found == {}


def test_a_glossary_term_shows_its_definition_on_keyboard_focus(page, base_url):
    page.goto(base_url + "iris/skill-test.html")
    page.wait_for_load_state("networkidle")
    term = page.locator(".md-content abbr", has_text="AP").first
    assert term.get_attribute("tabindex") == "0"
    term.focus()
    assert page.evaluate("() => document.activeElement.tagName") == "ABBR"
    tooltip = page.locator(".md-tooltip2--active")
    tooltip.wait_for(timeout=5_000)
    assert "Action Points" in tooltip.inner_text()


def test_tables_have_captions_and_row_headers(page, base_url):
    page.goto(base_url + "iris/weapons/pistols.html")
    page.wait_for_load_state("networkidle")
    captions = page.locator(".md-content table caption").all_text_contents()
    assert "Light Combat Pistol (Tier 2): by AP" in captions
    assert page.locator(".md-content table").count() == len(captions)
    ap_table = page.locator("table", has=page.locator("caption", has_text="Light Combat Pistol"))
    assert ap_table.nth(1).locator("tbody th[scope=row]").count() == 30
    assert ap_table.nth(1).locator("thead th[scope=col]").count() == 5


def test_the_iris_charts_figures_are_there_as_text(page, base_url):
    page.goto(base_url + "iris/index.html")
    page.wait_for_load_state("networkidle")
    table = page.locator("table", has=page.locator("caption", has_text="by skill rank"))
    assert table.locator("thead th").all_inner_texts()[:2] == ["k", "rank 1"]
    # P(AP >= 0) is certain at every rank
    assert table.locator("tbody tr").first.locator("td").all_inner_texts() == ["100%"] * 8


# --- The calculators: figures the page looks up, compared with the Python API's -------------


def calculator_tables(page) -> dict[str, list[list[str]]]:
    """Each table the calculator shows: its caption -> its rows' cell texts."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.rp-calculator-output table')]
            .map(t => [t.caption.textContent,
                       [...t.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent))]))"""
    )


def exact(chance: Fraction) -> str:
    return f"{chance.numerator}/{chance.denominator}"


def open_calculator_form(page, site, ruleset: str) -> None:
    """The calculator page from file://: it needs no server and no network."""
    page.goto((site / ruleset / "calculator.html").as_uri())
    page.wait_for_load_state("networkidle")


def open_calculator(page, site, ruleset: str) -> None:
    """The calculator page, once the script has shown its first tables."""
    open_calculator_form(page, site, ruleset)
    page.locator(".rp-calculator-output table").first.wait_for(timeout=5_000)


@pytest.mark.parametrize("cool_score, damage", [(50, 0), (40, 15), (5, 30), (100, 0), (0, 100)])
def test_the_cool_calculator_shows_the_rules_odds(page, site, cool, cool_score, damage):
    open_calculator(page, site, "cool")
    page.get_by_label("Cool score").fill(str(cool_score))
    page.get_by_label("Damage taken").fill(str(damage))
    shown = calculator_tables(page)
    expected = {}
    for kind in ("shock", "fear"):
        outcomes = Counter(
            cool_roll(cool, kind, cool_score, damage, roll, None)["outcome"]
            for roll in range(1, 101)
        )
        target = cool_roll(cool, kind, cool_score, damage, 1, None)["target"]
        expected[f"{kind.capitalize()} roll: target {target}"] = {
            state.replace("-", " ").capitalize(): exact(Fraction(count, 100))
            for state, count in outcomes.items()
        }
    assert {
        caption: {row[0]: row[2] for row in rows} for caption, rows in shown.items()
    } == expected
    assert page.errors == []


def test_the_cool_calculator_answers_the_keyboard_and_refuses_bad_values(page, site):
    open_calculator(page, site, "cool")
    page.get_by_label("Cool score").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.name") == "damage"
    page.keyboard.press("Control+A")
    page.keyboard.type("20")
    assert "Shock roll: target 30" in calculator_tables(page)
    screenshot(page, "calculator-cool.png")
    page.get_by_label("Damage taken").fill("101")
    output = page.locator(".rp-calculator-output")
    assert output.inner_text().startswith("Give a whole number for Damage taken")
    assert calculator_tables(page) == {}


@pytest.mark.parametrize(
    "rank, bonus, ap", [(3, 0, 3), (6, 5, 9), (0, 2, 0), (12, 3, 40), (20, 20, 1)]
)
def test_the_skill_test_calculator_shows_the_rules_odds_and_weapon_rows(
    page, site, iris, rank, bonus, ap
):
    open_calculator(page, site, "iris")
    page.get_by_label("Skill rank").fill(str(rank))
    page.get_by_label("Trait bonus").fill(str(bonus))
    page.get_by_label("AP scored").fill(str(ap))
    shown = calculator_tables(page)
    rule = iris.one(SkillTest)
    distribution = rule.distribution(rank, trait_bonus=bonus)
    at_least = dice.tails(distribution)
    rows = shown[f"Total AP at rank {rank} with a trait bonus of {bonus}"]
    assert [(int(r[0]), r[2], r[4]) for r in rows] == [
        (total, exact(chance), exact(at_least[total]))
        for total, chance in dice.ordered(distribution)
    ]
    assert [r[4] for r in rows] == [
        exact(c) for c in rule.chances(rank, [int(r[0]) for r in rows], trait_bonus=bonus)
    ]
    weapons = shown[f"Each weapon at {ap} AP"]
    expected = []
    for _, section in weapons_by_section(iris):
        for weapon in section:
            row = weapon.row_for(ap)
            expected.append(
                [weapon.display_name, "none (below the table)", "-", "-", "-", "-"]
                if row is None
                else [
                    weapon.display_name,
                    *map(str, (row.ap, row.damage, row.defense)),
                    str(row.move)
                    if weapon.move_column == "Move"
                    else f"{weapon.move_column} {row.move}",
                    str(row.range),
                ]
            )
    assert weapons == expected
    if (rank, bonus) == (6, 5):
        screenshot(page, "calculator-iris.png")
    assert page.errors == []


@pytest.mark.parametrize(
    "cuf_score, willpower, tcs", [(4, 6, 9), (4, 6, 5), (10, 5, 35), (2, 3, 200), (5, 0, 11)]
)
def test_the_cuf_calculator_shows_the_state_check_and_penalties(
    page, site, cuf, cuf_score, willpower, tcs
):
    open_calculator(page, site, "t2k-cuf")
    page.get_by_label("CUF (0 to 40)").fill(str(cuf_score))
    page.get_by_label("Willpower").fill(str(willpower))
    page.get_by_label("TC total").fill(str(tcs))
    failed = cuf_check(cuf, cuf_score, willpower, tcs, 20, None)
    passed = cuf_check(cuf, cuf_score, willpower, tcs, 1, None)
    assert not failed["check"]["passed"] and passed["check"]["passed"]
    threshold = cuf.get(failed["state"])
    chance = threshold.check.chance({"cuf": cuf_score, "willpower": willpower})
    summary = page.locator(".rp-calculator-output p").inner_text()
    assert summary == (
        f"{tcs} TCs against CUF {cuf_score}: {threshold.display_name} "
        f"(TCs over {threshold.threshold(cuf_score)}). {failed['check']['difficulty']} check: "
        f"{failed['check']['target']} or less on a d20, passed with a chance of "
        f"{chance.numerator * 100 / chance.denominator:.2f}% ({exact(chance)})."
    )
    (rows,) = calculator_tables(page).values()
    shown = {row[0]: row[1:] for row in rows}
    assert shown["Effect"] == [failed["effect"], passed["effect"]]
    for label, key in (
        ("Rounds of suppression", "suppression_rounds"),
        ("Skill roll penalty (added to the roll)", "skill_penalty"),
        ("Initiative penalty", "initiative_penalty"),
    ):
        assert shown[label] == [str(failed[key]), str(passed[key])], label
    assert shown["BANE"] == ["yes" if failed["bane"] else "no", "yes" if passed["bane"] else "no"]
    lasts = threshold.penalties_last(tcs, cuf_score)
    assert shown["Penalties still apply at this TC total"][1].startswith("yes" if lasts else "no")
    if (cuf_score, tcs) == (4, 9):
        screenshot(page, "calculator-cuf.png")
    assert page.errors == []


def test_the_cuf_calculator_says_when_no_check_is_called_for(page, site):
    open_calculator_form(page, site, "t2k-cuf")
    page.get_by_label("TC total").fill("3")
    assert page.locator(".rp-calculator-output").inner_text() == (
        "3 TCs against CUF 4: Calm: no threat state, so no check."
    )


@pytest.mark.parametrize(
    "attribute, skill, modifier, helpers, reading",
    [
        ("d8", "d8", 0, 0, "neither-one-nor-success"),
        ("d12", "none", -1, 0, "every-non-success"),
        ("d6", "d6", -3, 1, "neither-one-nor-success"),
        ("d10", "d6", 2, 5, "every-non-success"),
        ("d12", "d12", 10, 20, "neither-one-nor-success"),
    ],
)
def test_the_t2k4e_calculator_shows_the_shifted_dice_and_push_odds(
    page, site, t2k, attribute, skill, modifier, helpers, reading
):
    open_calculator(page, site, "t2k4e")
    page.get_by_label("Attribute die").select_option(attribute)
    page.get_by_label("Skill die").select_option(skill)
    page.get_by_label("Modifier, all bonuses").fill(str(modifier))
    page.get_by_label("Helpers").fill(str(helpers))
    page.get_by_label("Dice a push re-rolls").select_option(reading)
    pool = [attribute, *([] if skill == "none" else [skill])]
    rolled = t2k4e_roll(t2k, T2k4eRoll(pool, modifiers=[modifier], helpers=helpers, seed=0))
    shifted = "+".join(rolled["rolled_pool"])
    assert page.locator(".rp-calculator-output p").inner_text() == (
        f"Net modifier {rolled['net_modifier']}: the dice rolled are {shifted}."
    )
    shown = calculator_tables(page)
    step_dice = t2k.one(StepDice)
    for name, pushed in (("before a push", False), ("after a push", True)):
        distribution = step_dice.distribution(rolled["rolled_pool"], pushed=pushed, reading=reading)
        at_least = dice.tails(distribution)
        assert [(int(r[0]), r[2], r[4]) for r in shown[f"{shifted} {name}"]] == [
            (s, exact(p), exact(at_least[s])) for s, p in dice.ordered(distribution)
        ]
    if (attribute, skill) == ("d6", "d6"):
        screenshot(page, "calculator-t2k4e.png")
    assert page.errors == []
