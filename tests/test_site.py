"""The rules site: generated pages pinned by golden files, a strict mkdocs build, charts,
the contributors' page, escaping."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import jinja2
import markdown
import pytest

from rulepress.commands.build import build
from rulepress.exporters.site.calculators import DATA_ID, Calculator, calculator_page
from rulepress.exporters.site.pages import generate
from rulepress.exporters.site.places import nav_folders
from rulepress.exporters.site.ruleset_pages import SECTIONS_IN_A_LINE
from rulepress.games.iris.calculator import MAX_CALCULATOR_RANK
from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.validation import validate
from rulepress.validators import registered_checks
from tests.golden import assert_golden
from tests.helpers import COMPENDIUM, SECTION, base_tree, build_tree, weapon

GOLDEN_PAGES = (
    "iris/weapons/pistols.md",
    "iris/skills.md",
    "t2k-cuf/threat-conditions.md",
    "t2k4e/dice.md",
    "contributing.md",
)

CHECKS = registered_checks()
"""Every check the registry runs: rulepress's own and its games' (not only those imported so far)."""


@pytest.fixture(scope="session")
def project(bundled, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("site-project")
    generate(bundled.compendium, folder)
    return folder


@pytest.mark.parametrize("page", GOLDEN_PAGES)
def test_generated_page_matches_its_golden_file(project, page):
    assert_golden(f"site/{page}", (project / "docs" / page).read_text(encoding="utf-8"))


def test_the_strict_build_writes_a_page_per_weapon_section(site):
    pages = sorted(p.name for p in (site / "iris" / "weapons").glob("*.html"))
    assert pages == [
        "pistols.html",
        "rapid-fire-weapons.html",
        "shotguns.html",
        "sniper-rifles.html",
    ]
    assert (site / "search" / "search_index.js").is_file()  # the offline plugin's index


def test_no_page_loads_anything_from_another_host(site):
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert 'src="http' not in text and "fonts.googleapis" not in text, page


def test_mkdocs_loads_the_number_cells_and_plain_tables_extensions(project):
    from mkdocs.config import load_config

    config = load_config(str(project / "mkdocs.yml"))
    assert "rulepress.markdown_numbers" in config["markdown_extensions"]
    assert "rulepress.markdown_plain_tables" in config["markdown_extensions"]


def test_the_contributors_page_documents_every_check(project):
    text = (project / "docs" / "contributing.md").read_text(encoding="utf-8")
    for check in CHECKS:
        assert f"### {check.code} {check.name}" in text
    assert '"findings": [' in text


def test_skills_and_traits_link_to_each_other(project):
    text = (project / "docs" / "iris" / "skills.md").read_text(encoding="utf-8")
    assert "[Stealth](skills.md#specialist-skills)" in text  # from the traits table to the skill
    assert "[Agility](skills.md#traits)" in text  # from the skill to its trait


def test_the_odds_charts_are_svg_computed_from_the_rules(project):
    iris = ElementTree.parse(project / "docs" / "assets" / "iris-skill-test-odds.svg").getroot()
    lines = iris.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 8  # ranks 1 to 8
    t2k = ElementTree.parse(project / "docs" / "assets" / "t2k4e-success-odds.svg").getroot()
    titles = [
        r.find("{http://www.w3.org/2000/svg}title").text
        for r in t2k.findall("{http://www.w3.org/2000/svg}rect")
        if len(r)
    ]
    assert "d6 initial: 16.7%" in titles and "d6+d6 pushed: 47.8%" in titles


def test_html_in_the_data_shows_as_text_on_the_site(tmp_path):
    tree = base_tree()
    tree["demo/weapons/test-pistol.yaml"] = tree["demo/weapons/test-pistol.yaml"].replace(
        "name: Test Pistol", 'name: "<script>alert(1)</script> | {{ 7*7 }}"'
    )
    build_tree(tmp_path / "c", tree)
    assert validate(tmp_path / "c").ok
    build(tmp_path / "c", tmp_path / "out", ["site"])
    html = (tmp_path / "out" / "site" / "demo" / "weapons" / "pistols.html").read_text()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; | {{ 7*7 }}" in html


def sections_tree(count: int) -> dict[str, str | bytes]:
    """The demo tree with `count` weapon sections, a weapon in each."""
    tree = base_tree()
    for number in range(2, count + 1):
        tree[f"demo/sections/s{number}.yaml"] = (
            SECTION.replace("pistols", f"s{number}")
            .replace("Pistols", f"Holsters {number}")
            .replace("order: 1", f"order: {number}")
        )
        tree[f"demo/weapons/w{number}.yaml"] = (
            weapon()
            .replace("test-pistol", f"w{number}")
            .replace("Test Pistol", f"Holster Gun {number}")
            .replace("section: pistols", f"section: s{number}")
        )
    return tree


@pytest.mark.parametrize("count", [SECTIONS_IN_A_LINE, SECTIONS_IN_A_LINE + 1])
def test_a_chapter_of_many_sections_lists_them_one_to_a_line(tmp_path, count):
    """The overview lists a chapter's sections in one line of links, or, past
    SECTIONS_IN_A_LINE, one to a line (a line of n links costs Python-Markdown n**2):
    every section is linked either way."""
    build_tree(tmp_path / "c", sections_tree(count))
    compendium = validate(tmp_path / "c").compendium
    generate(compendium, tmp_path / "p")
    overview = (tmp_path / "p/docs/demo/index.md").read_text()
    (line,) = [line for line in overview.splitlines() if line.startswith("- [Weapons]")]
    nested = [line for line in overview.splitlines() if line.startswith("    - [")]
    if count > SECTIONS_IN_A_LINE:
        assert line == "- [Weapons](weapons/pistols.md):"
        assert len(nested) == count and nested[1] == "    - [Holsters 2](weapons/s2.md)"
    else:
        assert not nested and line.count("](weapons/") == count + 1  # the chapter's too
    html = markdown.markdown(overview)
    assert all(f'href="weapons/s{n}.md">Holsters {n}</a>' in html for n in range(2, count + 1))


def test_serve_rebuilds_the_page_when_the_yaml_changes(tmp_path):
    import shutil
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    compendium = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM, compendium)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "rulepress", "serve", str(compendium), "-a", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def page_text() -> str:
        url = f"http://127.0.0.1:{port}/iris/weapons/pistols.html"
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")

    def wait_for(condition) -> bool:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if condition(page_text()):
                    return True
            except OSError:
                pass
            time.sleep(0.5)
        return False

    try:
        assert wait_for(lambda text: "Salvaged Pistol" in text)
        weapon = compendium / "iris" / "weapons" / "pistols" / "salvaged-pistol.yaml"
        weapon.write_text(weapon.read_text().replace("name: Salvaged Pistol", "name: Zip Pistol"))
        assert wait_for(lambda text: "Zip Pistol" in text)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_long_weapons_navigation_is_folded_into_folders_of_fifty():
    entries = [{f"Section {n:03d}": f"bench/weapons/section-{n:03d}.md"} for n in range(120)]
    folders = nav_folders(entries)
    assert [next(iter(f)) for f in folders] == [  # as few folders as hold them, even
        "Section 000 – Section 039",
        "Section 040 – Section 079",
        "Section 080 – Section 119",
    ]
    assert [e for f in folders for e in next(iter(f.values()))] == entries  # order kept
    assert nav_folders(entries[:50]) == entries[:50]  # a short list stays flat
    assert [len(next(iter(f.values()))) for f in nav_folders(entries[:51])] == [25, 26]


def test_a_very_long_navigation_gets_folders_of_folders_named_after_pages():
    entries = [{f"S{n:04d}": f"{n}.md"} for n in range(2551)]
    top = nav_folders(entries)
    names = [next(iter(f)) for f in top]
    assert len(top) == 2 and names[0].startswith("S0000 – ") and names[1].endswith(" – S2550")
    last_of_first = int(names[0][-4:])
    assert names[1] == f"S{last_of_first + 1:04d} – S2550"  # page titles, not folder names
    inner = next(iter(top[0].values()))
    assert len(inner) <= 50 and all(len(next(iter(f.values()))) <= 50 for f in inner)
    assert next(iter(inner[0])) == "S0000 – S0048"  # 2,551 pages shared by 52 folders


def test_a_templates_folder_overrides_the_sites_pages_in_the_sandbox(bundled, tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "home.md.j2").write_text(
        "# Our Table's Rules\n\n{% for ruleset in rulesets %}- {{ ruleset.info.title | md }}\n"
        "{% endfor %}",
        encoding="utf-8",
    )
    generate(bundled.compendium, tmp_path / "project", templates)
    home = (tmp_path / "project" / "docs" / "index.md").read_text(encoding="utf-8")
    assert home.startswith("# Our Table's Rules\n\n- ")
    assert "- IRIS Quick Reference\n" in home
    sources = (tmp_path / "project" / "docs" / "iris" / "sources.md").read_text(encoding="utf-8")
    assert "IRIS wiki" in sources  # the pages not overridden stay the shipped ones

    (templates / "home.md.j2").write_text("{{ ''.__class__.__mro__[1].__subclasses__() }}")
    with pytest.raises(jinja2.exceptions.SecurityError):
        generate(bundled.compendium, tmp_path / "project-2", templates)


def test_rulings_are_titled_in_words_and_keep_their_old_anchor(project):
    page = (project / "docs" / "t2k4e" / "rulings.md").read_text(encoding="utf-8")
    assert "## Pushing Your Roll: The text does not say whether a roll can be pushed" in page
    assert ": push-how-often\n" not in page  # no heading shows a slug
    # the anchor the slug heading had, so links to it still land
    assert '<a id="pushing-your-roll-push-how-often"></a>' in page


def test_a_long_rulings_question_is_shortened_at_a_clause_or_a_word():
    from rulepress.models.base import HEADING_LENGTH, shorten_question

    assert shorten_question("Is it once? Or more.") == "Is it once? Or more."
    assert shorten_question("The table lists levels 10, 12 ... 20 only; no odd ones.") == (
        "The table lists levels 10, 12 ... 20 only"
    )
    assert shorten_question('"The 1/2 H.P. marks" says nothing; etc.') == (
        '"The 1/2 H.P. marks" says nothing'
    )
    long = "word " * 40
    heading = shorten_question(long)
    assert heading.endswith("word…") and len(heading) <= HEADING_LENGTH + 1


def test_search_weighs_rule_pages_above_rulings_and_contributors_pages(site):
    import json

    entries = json.loads((site / "search" / "search_index.json").read_text())["docs"]
    boosts = {entry["location"].split("#")[0]: entry.get("boost", 1) for entry in entries}
    assert boosts["t2k4e/dice.html"] > 1
    assert boosts["iris/weapons/pistols.html"] > 1
    for aside in ("t2k4e/rulings.html", "t2k4e/sources.html", "contributing.html"):
        assert boosts[aside] < 1, aside


def calculator_data(project, ruleset: str) -> dict:
    page = (project / "docs" / ruleset / "calculator.md").read_text(encoding="utf-8")
    block = page.split(f'<script type="application/json" id="{DATA_ID}">')[1]
    return json.loads(block.split("</script>")[0])


def test_rulesets_with_a_calculator_kind_get_a_calculator_page_in_the_nav(project):
    found = sorted(p.parent.name for p in (project / "docs").glob("*/calculator.md"))
    assert found == ["cool", "iris", "t2k-cuf", "t2k4e"]
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    assert "Calculator: iris/calculator.md" in config
    assert "javascripts/calculator.js" in config


def test_the_calculators_figures_are_bounded_and_come_from_the_rules(project, iris, cool):
    iris_data = calculator_data(project, "iris")["skill-test"]
    assert len(iris_data["ranks"]) == MAX_CALCULATOR_RANK + 1
    rank_6 = iris_data["ranks"][6]
    expected = iris.one(SkillTest).distribution(6)
    assert rank_6["exactly"][rank_6["ap"].index(4)][1] == str(expected[4])
    cool_data = calculator_data(project, "cool")["cool"]
    shock = cool_data["rolls"][0]
    assert shock["name"] == "Shock roll" and shock["targets"][60][15] == 45
    sizes = {
        ruleset: (project / "docs" / ruleset / "calculator.md").stat().st_size
        for ruleset in ("iris", "cool", "t2k-cuf", "t2k4e")
    }
    assert max(sizes.values()) < 250_000, sizes


def test_a_calculator_page_escapes_its_data_block():
    page = calculator_page(
        "T", [Calculator("x", "X", "text", "<form></form>", {"name": "</script><b>&"})]
    )
    block = page.split(f'id="{DATA_ID}">')[1].split("</script>")[0]
    assert "<" not in block and json.loads(block) == {"x": {"name": "</script><b>&"}}


def test_the_downloads_are_the_builds_own_outputs_copied_not_rendered_again(tmp_path, monkeypatch):
    from rulepress.exporters import site as site_exporter

    demo = build_tree(tmp_path / "c", base_tree())
    rendered: list[str] = []
    for exporter in (
        site_exporter.FoundryExporter,
        site_exporter.MarkdownExporter,
        site_exporter.JsonExporter,
    ):
        export = exporter.export

        def counted(self, *args, export=export, **kwargs):
            rendered.append(self.name)
            return export(self, *args, **kwargs)

        monkeypatch.setattr(exporter, "export", counted)
    validation, _ = build(demo, tmp_path / "all", ["foundry", "markdown", "json", "site"])
    assert validation.ok
    assert sorted(rendered) == ["foundry", "json", "markdown"]  # once each: for its target
    downloads = tmp_path / "all/site/downloads"
    names = sorted(path.name for path in downloads.iterdir())
    assert names == ["demo.json", "demo.md", "rulepress-demo.zip"]
    for name, target in zip(names, ("json", "markdown", "foundry"), strict=True):
        assert (downloads / name).read_bytes() == (tmp_path / "all" / target / name).read_bytes()

    rendered.clear()  # the site alone renders them, the same bytes
    validation, _ = build(demo, tmp_path / "site", ["site"])
    assert validation.ok
    assert sorted(rendered) == ["foundry", "json", "markdown"]
    for name in names:
        assert (tmp_path / "site/site/downloads" / name).read_bytes() == (
            downloads / name
        ).read_bytes()


def test_search_finds_a_weapon_by_name_and_leaves_its_ap_table_out(site):
    entries = json.loads((site / "search" / "search_index.json").read_text())["docs"]
    by_place = {entry["location"]: entry for entry in entries}
    cannon = by_place["iris/weapons/pistols.html#hand-cannon-tier-4"]
    assert cannon["title"] == "Hand Cannon (Tier 4)"
    assert "Rare" in cannon["text"]  # its one-row table of stats stays indexed
    assert "by AP" not in cannon["text"]  # the 30 rows of figures do not
    page = (site / "iris" / "weapons" / "pistols.html").read_text(encoding="utf-8")
    assert "rulepress-held-table" not in page  # every table held out is put back
    assert page.count("<caption>Hand Cannon (Tier 4): by AP</caption>") == 1
