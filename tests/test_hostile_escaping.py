"""Hostile values in every data field and setting that reaches an output (issue 26): each
reaches the site, the Markdown guide, Foundry's HTML and the JSON through the escaping
of the place it is written into (rulepress.exporters.escaping), so none adds an element,
an attribute, a handler or a `javascript:` link, and each shows as the text it is.

The outputs are parsed with the standard library's HTML parser, as a browser would read
them; the guide is rendered with Python-Markdown and the site's extensions.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from mkdocs.utils.meta import get_data

from rulepress.commands.build import build
from rulepress.exporters.escaping import (
    html_url,
    markdown_code,
    markdown_link,
    markdown_text,
    markdown_url,
)
from rulepress.exporters.foundry.enrichers import WORD_JOINER
from rulepress.exporters.markdown_text import to_html
from tests.helpers import COMPENDIUM, build_tree, quoted, text_tree


def hostile(tag: int, start: str = "") -> str:
    """A value that tries every context at once, tagged: a code span's end, an image with
    a handler, a `javascript:` link, a table cell's end, an attribute's end with a
    handler, a backslash, an entity, and a script's end with a script."""
    return (
        f"{start}``x` <img src=x onerror=alert({tag})> [a](javascript:alert({tag})) | "
        f'" onmouseover=alert({tag}) x=" \\ &amp; </script><script>alert({tag})</script>'
    )


RULESET_TITLE = hostile(1)
# At the start of a block (a paragraph, a list item's text), `- `, `1. ` and `+ ` would
# start a list and eat their marker.
SUMMARY = hostile(2, "- ")
CREDIT = hostile(6, "1. ")
PUBLISHED = hostile(7, "+ ")
GLOSSARY = 'a &amp; b \\\\ "" <i>defined</i> ' + hostile(8)
TIMING = hostile(22, "- ")
TRIGGER = hostile(23, "2) ")
DATA = {
    "ruleset title": RULESET_TITLE,
    "ruleset summary": SUMMARY,
    "currency": hostile(3),
    "source title": hostile(4),
    "source author": hostile(5),
    "source credit": CREDIT,
    "source publication": PUBLISHED,
    "trait name": hostile(9),
    "skill name": hostile(10),
    "skill combat note": hostile(11),
    "weapon section name": hostile(12),
    "weapon description": hostile(13),
    "weapon name": hostile(14),
    "rule title": hostile(15),
    "rule chapter": hostile(16),
    "rule text": hostile(17, "--- "),
    "ruling question": hostile(18),
    "ruling": hostile(19),
    "ruling alternative": hostile(20),
    "ruling why": hostile(21),
    "corruption timing": TIMING,
    "corruption trigger": TRIGGER,
}
SITE_TITLE = "!ENV HOME " + hostile(30)
DESCRIPTION = hostile(31)
COPYRIGHT = hostile(32)
GUIDE_TITLE = hostile(35)
REPOSITORY = "https://example.org/acme/rules?x=1&copy=2&lt=3"
MANIFEST = "https://example.org/{ruleset}.json"


SKILL_TEST = (
    "kind: skill-test\nid: skill-test\nname: Skill Test\ndie: d6\ndice_per_rank: 1\n"
    "ap_by_face: {4: 1, 5: 1, 6: 2}\ntrait_bonus: higher-of-skill-traits\ntext: Roll.\n"
)


def corruption_rules(timing: str, trigger: str) -> str:
    """The bundled IRIS Corruption rules, naming no skill, with hostile timing and trigger."""
    text = (COMPENDIUM / "iris/corruption/corruption-rules.yaml").read_text(encoding="utf-8")
    text = text.replace("willpower_skill: endurance\n", "")
    start = text.index("timing: ")
    text = text[:start] + f"timing: {quoted(timing)}\n" + text[text.index("\n", start) + 1 :]
    first = "Stamina dropping below 0"
    return text.replace(f"text: {first},", f"text: {quoted(trigger)},", 1)


def hostile_repository(root: Path) -> Path:
    """A content repository whose every text field and text setting holds a hostile value;
    its compendium folder."""
    q = {name: quoted(value) for name, value in DATA.items()}
    tree = text_tree(
        q,
        ruleset_tail=f"currency: {q['currency']}\n"
        + f"sources:\n  - {{title: {q['source title']}, author: {q['source author']}, "
        + f"credit: {q['source credit']}, published: {q['source publication']}}}\n"
        + f"glossary:\n  AP: {quoted(GLOSSARY)}\n",
        ruling=f"ruling: {q['ruling']}, alternative: {q['ruling alternative']}, "
        f"why: {q['ruling why']}",
    )
    tree["demo/corruption/corruption-rules.yaml"] = corruption_rules(TIMING, TRIGGER)
    tree["demo/skill-test.yaml"] = SKILL_TEST  # the calculator page
    build_tree(root / "compendium", tree)
    (root / "rulepress.yaml").write_text(
        f"site:\n  title: {quoted(SITE_TITLE)}\n  description: {quoted(DESCRIPTION)}\n"
        f"  copyright: {quoted(COPYRIGHT)}\n  repository: {quoted(REPOSITORY)}\n"
        f"foundry:\n  manifest: {quoted(MANIFEST)}\n"
        f"guides:\n  title: {quoted('{ruleset} / ' + GUIDE_TITLE)}\n",
        encoding="utf-8",
    )
    return root / "compendium"


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """Every target of the hostile repository, built once (the site by mkdocs --strict)."""
    root = tmp_path_factory.mktemp("hostile-escaping")
    validation, _ = build(hostile_repository(root), root / "dist", ["site", "markdown", "foundry"])
    assert validation.ok, [str(finding) for finding in validation.findings]
    return root / "dist"


# --- Reading HTML as a browser does ---------------------------------------------------------


class Page(HTMLParser):
    """What a page holds that data must never add (images, scripts that run data, handlers,
    `javascript:` links), its visible text, and its attributes' decoded values."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.live: list[str] = []
        self.attributes: list[tuple[str, str, str]] = []
        self.words: list[str] = []
        self.elements: list[str] = []
        self._script = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(tag)
        if tag == "img" and dict(attrs).get("src") == "x":
            self.live.append(f"<img src=x> {attrs}")
        for name, value in attrs:
            value = value or ""
            self.attributes.append((tag, name, value))
            if name.startswith("on") and "alert(" in value:
                self.live.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src", "action") and "javascript:" in value.lower():
                self.live.append(f"<{tag} {name}={value!r}>")
        # a script runs unless it is a data block (the calculator's JSON)
        self._script = tag == "script" and dict(attrs).get("type") != "application/json"

    def handle_endtag(self, tag: str) -> None:
        self._script = False

    def handle_data(self, data: str) -> None:
        if self._script and "alert(" in data:
            self.live.append(f"a script that runs data: {data[:60]!r}")
        elif not self._script:
            self.words.append(data)

    @property
    def text(self) -> str:
        """The visible text, each run of white space one space, word joiners dropped."""
        return " ".join("".join(self.words).replace(WORD_JOINER, "").split())


def pages(folder: Path) -> dict[str, Page]:
    return {
        str(path.relative_to(folder)): Page(path.read_text(encoding="utf-8"))
        for path in sorted(folder.rglob("*.html"))
    }


def shown(value: str) -> str:
    return " ".join(value.split())


def the_guide_as_the_site_renders_it(dist: Path) -> Page:
    """The guide's Markdown without its front matter, rendered by Python-Markdown with the
    site's extensions (mkdocs.yml)."""
    text, _ = get_data((dist / "markdown" / "demo.md").read_text(encoding="utf-8"))
    extensions = ["abbr", "tables", "sane_lists", "toc"]
    return Page(markdown.markdown(text, extensions=extensions, output_format="html"))


def foundry_html(dist: Path) -> dict[str, str]:
    """Every HTML text of the module's documents (journal pages, Item descriptions), by
    where it is."""
    found = {}
    for path in sorted((dist / "foundry/rulepress-demo/src/packs").rglob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        for page in document.get("pages", []):
            found[f"{path.name}: {page['name']}"] = page["text"]["content"]
        if "system" in document:
            found[path.name] = document["system"]["description"]
    return found


# --- The site ---------------------------------------------------------------------------------


def test_a_manifest_url_with_backticks_is_one_code_span_on_the_home_page(dist):
    """The issue's own case: the title closed the template's code span, and the home page
    ran `<img src=x onerror=alert(1)>`."""
    home = Page((dist / "site" / "index.html").read_text(encoding="utf-8"))
    assert home.live == []
    url = MANIFEST.replace("{ruleset}", RULESET_TITLE)
    assert f"{shown(RULESET_TITLE)}: {shown(url)}" in home.text


def test_no_page_of_the_site_runs_or_adds_markup_from_the_data(dist):
    live = {name: page.live for name, page in pages(dist / "site").items() if page.live}
    assert live == {}


SITE_FIELDS = [
    name
    for name in DATA
    if name not in ("weapon description",)  # Foundry's Item only
]


@pytest.mark.parametrize("field", SITE_FIELDS)
def test_every_value_shows_on_the_site_as_its_text(dist, field):
    """Wherever it is written (a heading, a list item's start, a table cell, a link), the
    value reads as typed: no list marker eaten, no backslash or entity showing."""
    assert any(shown(DATA[field]) in page.text for page in pages(dist / "site").values()), field


def test_the_settings_texts_show_as_their_text_on_every_page(dist):
    for name, page in pages(dist / "site").items():
        assert shown(SITE_TITLE) in page.text, name
        assert shown(COPYRIGHT) in page.text, name
        assert ("meta", "content", DESCRIPTION) in page.attributes, name


def test_the_settings_urls_reach_every_attribute_escaped(dist):
    """An unescaped `&copy=` in an href reads as `©=` to an HTML parser: the repository's
    address (the header's link, every edit link) is escaped for the attribute."""
    page = pages(dist / "site")["demo/index.html"]
    links = [value for tag, name, value in page.attributes if name == "href" and "acme" in value]
    assert links, "no link to the repository"
    assert all(link.startswith(REPOSITORY) for link in links), links
    assert f"{REPOSITORY}/edit/main/compendium/demo/ruleset.yaml" in links


def test_a_glossary_definition_shows_as_typed_in_its_tooltip(dist):
    """The abbr extension reads an entity, and `""` as no definition: escaped, the
    definition shows the characters typed."""
    page = pages(dist / "site")["demo/weapons/pistols.html"]
    titles = [value for tag, name, value in page.attributes if tag == "abbr" and name == "title"]
    assert titles and set(titles) == {GLOSSARY}


def test_the_calculator_data_block_holds_the_data_whole(dist):
    """A weapon name with `</script>` stays inside the page's JSON block, as the same text."""
    text = (dist / "site" / "demo" / "calculator.html").read_text(encoding="utf-8")
    assert Page(text).live == []
    block = text.split('id="rp-calculator-data">', 1)[1].split("</script>", 1)[0]
    names = [w["name"] for w in json.loads(block)["skill-test"]["weapons"]]
    assert names == [DATA["weapon name"]]


# --- The guide and Foundry --------------------------------------------------------------------


def test_the_guide_rendered_as_the_site_renders_it_adds_no_markup(dist):
    guide = the_guide_as_the_site_renders_it(dist)
    assert guide.live == []
    missing = [
        name
        for name, value in {**DATA, "guide title": GUIDE_TITLE}.items()
        if name != "weapon description" and shown(value) not in guide.text
    ]
    assert missing == []


def test_foundry_html_adds_no_markup_and_shows_the_values(dist):
    documents = {where: Page(html) for where, html in foundry_html(dist).items()}
    assert {where: page.live for where, page in documents.items() if page.live} == {}
    text = " ".join(page.text for page in documents.values())
    # A content link's label loses `]`, which could end the link: the names shown as
    # links (skills, traits) are left out here, and a chapter is a journal entry's name.
    links = ("skill name", "trait name", "ruleset title", "weapon section name", "rule chapter")
    missing = [
        name for name, value in DATA.items() if name not in links and shown(value) not in text
    ]
    assert missing == []


# --- One function per context, with any text --------------------------------------------------

CODE = ["a ` b", "``x` y", "`start", "end`", "```", " padded ", "<b>&amp;</b> | *x*"]


@pytest.mark.parametrize("value", CODE)
def test_a_code_span_holds_any_text(value):
    html = to_html(f"Manifest: {markdown_code(value)}.")
    page = Page(html)
    assert page.elements == ["p", "code"], html
    assert page.text == f"Manifest: {value.strip()}.", html


BLOCK_STARTS = ["- item", "+ item", "1. item", "2) item", "---", "    <b>indented</b>"]


@pytest.mark.parametrize("value", BLOCK_STARTS)
def test_text_at_the_start_of_a_block_stays_text(value):
    for markup, outer in (
        (markdown_text(value), ["p"]),
        (f"- {markdown_text(value)}", ["ul", "li"]),
    ):
        page = Page(to_html(markup))
        assert page.elements == outer, markup
        assert page.text == value.strip(), markup


def test_a_figure_keeps_its_bytes_as_markdown_text():
    """The block-marker escape is narrow: `-1`, `1.5` and `+2` are figures, not lists."""
    assert [markdown_text(v) for v in ("-1", "1.5", "+2", "5-6")] == ["-1", "1.5", "+2", "5-6"]


@pytest.mark.parametrize("scheme", ["javascript:alert(1)", "JavaScript:x", "data:text/html,x"])
def test_a_link_to_another_scheme_than_http_is_refused(scheme):
    for escape in (markdown_url, html_url):
        with pytest.raises(ValueError, match="not an http"):
            escape(scheme)


def test_a_link_destination_cannot_be_ended_by_its_url():
    link = markdown_link("a ](x)", "page one.md#a (b) 'c' \"d\" |e|")
    html = to_html(f"| h |\n| --- |\n| {link} |\n")
    page = Page(html)
    assert ("a", "href", "page%20one.md#a%20%28b%29%20%27c%27%20%22d%22%20%7Ce%7C") in (
        page.attributes
    )
    assert page.text == "h a ](x)"
