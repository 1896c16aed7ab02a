"""A rule's text is RichText: a small Markdown subset. Hostile texts must show as typed in
the three outputs (the Markdown guide rendered by Python-Markdown as the site renders it,
the site's page, the Foundry journal page), and what the subset has must render as it.

All cases are rules of one compendium, built once: each text stands between two marker
paragraphs, and the HTML between them is what a case asserts about, parsed with
html.parser: no element or attribute but the subset's, and the visible text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest

from rulepress.commands.build import build
from rulepress.errors import Level
from rulepress.exporters.site.pages import generate
from rulepress.validation import validate
from tests.helpers import ENRICHERS, base_tree, build_tree, foundry_sources

WORD_JOINER = "\u2060"


@dataclass(frozen=True)
class Case:
    """A rule text and what each output must show of it."""

    name: str
    text: str
    shown: str
    """The visible text (white space collapsed; Foundry's word joiners left out)."""
    tags: tuple[str, ...] = ("p",)
    """The elements the output holds, in order, links apart."""
    links: int = 0
    """How many of the outputs' own links to documents it holds."""
    foundry_shown: str | None = None
    """What Foundry shows when not `shown`: a content link's label loses `]` and `}`."""


CASES = [
    Case("script element", "<script>alert(1)</script>", "<script>alert(1)</script>"),
    Case("img onerror", '<img src="x" onerror="alert(1)">', '<img src="x" onerror="alert(1)">'),
    Case("javascript link", "[x](javascript:alert(1))", "[x](javascript:alert(1))"),
    Case(
        "data link",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
    ),
    Case(
        "image beacon", "![i](https://beacon.example/p.gif)", "![i](https://beacon.example/p.gif)"
    ),
    Case(
        "web link and autolink",
        "[w](https://x.example) <https://x.example>",
        "[w](https://x.example) <https://x.example>",
    ),
    Case("foundry content link", "@UUID[Actor.x]{y}", "@UUID[Actor.x]{y}"),
    Case("foundry inline roll", "[[/r 1d6]] and [[1d20]]", "[[/r 1d6]] and [[1d20]]"),
    Case(
        "foundry embed",
        "@Embed[Compendium.a.b.JournalEntry.c]",
        "@Embed[Compendium.a.b.JournalEntry.c]",
    ),
    Case("system enricher", "&Reference[prone] @Check[dex]", "&Reference[prone] @Check[dex]"),
    Case(
        "raw HTML block",
        '<div onclick="alert(1)">\n<b>bold</b>\n</div>',
        '<div onclick="alert(1)"> <b>bold</b> </div>',
    ),
    Case("entity and code", "&lt;b&gt; and `code`", "&lt;b&gt; and `code`"),
    Case("heading and quote", "# heading\n\n> quote", "# heading > quote", ("p", "p")),
    Case(
        "a doc link whose label is hostile",
        "see [<b>x</b> @UUID[Actor.y]{z}](doc:test-pistol)",
        "see <b>x</b> @UUID[Actor.y]{z}",
        links=1,
        foundry_shown="see <b>x</b> @UUID[Actor.y{z",
    ),
    Case(
        "nested emphasis",
        "*one **two** three* and **four *five***",
        "one two three and four five",
        ("p", "em", "strong", "strong", "em"),
    ),
    Case(
        "nested lists",
        "- one *a*\n- two\n    1. three\n    2. four\n- five",
        "one a two three four five",
        ("ul", "li", "em", "li", "ol", "li", "li", "li"),
    ),
    Case(
        "a loose numbered list from 3, and a doc link",
        "3. first, see [the pistol](doc:test-pistol)\n\n4. second\n\n   more",
        "first, see the pistol second more",
        ("ol", "li", "p", "li", "p", "p"),
        links=1,
    ),
]


def rule(number: int, case: Case) -> str:
    body = "\n".join(f"  {line}" if line else "" for line in marked(number, case).split("\n"))
    return (
        f"kind: rule\nid: case-{number}\ntitle: Case {number}\nchapter: Hostile\n"
        f"order: {number}\ntext: |-\n{body}\n"
    )


def marked(number: int, case: Case) -> str:
    return f"Begin{number}\n\n{case.text}\n\nEnd{number}"


class Events(HTMLParser):
    """Start tags (with attributes) and text of an HTML document, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[tuple[str, object]] = []

    def handle_starttag(self, tag, attrs):
        self.events.append(("tag", (tag, dict(attrs))))

    def handle_data(self, data):
        self.events.append(("text", data))


def between(html: str, number: int) -> list[tuple[str, object]]:
    """The events between the paragraphs `Begin<n>` and `End<n>`."""
    parser = Events()
    parser.feed(html)
    parser.close()
    events = parser.events
    texts = [i for i, (kind, value) in enumerate(events) if kind == "text"]
    start = next(i for i in texts if events[i][1].strip() == f"Begin{number}")
    end = next(i for i in texts if events[i][1].strip() == f"End{number}")
    inner = events[start + 1 : end]
    assert inner[-1] == ("tag", ("p", {})), "the End marker is its own paragraph"
    return inner[:-1]


OWN_LINK = re.compile(r"@UUID\[Compendium\.[\w.-]+\]\{([^}]*)\}")
"""The journal's own link to a document, which Foundry shows as its label."""


def shown(events) -> str:
    text = "".join(value for kind, value in events if kind == "text")
    return " ".join(OWN_LINK.sub(r"\1", text).replace(WORD_JOINER, "").split())


SITE_EXTENSIONS = ["abbr", "tables", "sane_lists", "toc"]
"""The Python-Markdown extensions of the site's mkdocs.yml (its own ones aside)."""


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("rich")
    tree = {**base_tree(), **{f"demo/rules/case-{n}.yaml": rule(n, c) for n, c in enumerate(CASES)}}
    build_tree(root / "c", tree)
    validation = validate(root / "c")
    assert validation.ok, validation.findings
    from rulepress.exporters.markdown_guide import render_guide

    guide = render_guide(validation.compendium.ruleset("demo"))
    generate(validation.compendium, root / "site")
    pages = [p.read_text(encoding="utf-8") for p in (root / "site" / "docs").rglob("*.md")]
    site = next(page for page in pages if "Begin0" in page)
    build(root / "c", root / "out", ["foundry"])
    journal = "\n".join(
        page["text"]["content"]
        for entry in foundry_sources(root / "out", "rules").values()
        for page in entry["pages"]
    )
    return {
        "guide": markdown.markdown(guide, extensions=SITE_EXTENSIONS),
        "site": markdown.markdown(site, extensions=SITE_EXTENSIONS),
        "foundry": journal,
    }


OUTPUTS = ("guide", "site", "foundry")


@pytest.mark.parametrize("output", OUTPUTS)
@pytest.mark.parametrize("number", range(len(CASES)), ids=[c.name for c in CASES])
def test_the_text_shows_as_typed_with_only_the_subsets_elements(outputs, output, number):
    case = CASES[number]
    events = between(outputs[output], number)
    tags = [value for kind, value in events if kind == "tag"]
    own_links = [tag for tag in tags if tag[0] == "a"]
    assert [tag for tag, _ in tags if tag != "a"] == list(case.tags)
    assert all(
        attrs == {} or (tag, attrs) == ("ol", {"start": "3"}) for tag, attrs in tags if tag != "a"
    )
    expected = case.foundry_shown if output == "foundry" and case.foundry_shown else case.shown
    assert shown(events) == " ".join(expected.split())
    if output == "foundry":  # a journal's link is Foundry's own `@UUID[...]{label}`
        texts = [value for kind, value in events if kind == "text"]
        assert sum(len(OWN_LINK.findall(text)) for text in texts) == case.links
        # Without our own links (their labels kept), nothing an enricher matches is left.
        rest = [OWN_LINK.sub(r" \1 ", text) for text in texts]
        live = [m.group() for t in rest for p in ENRICHERS.values() for m in p.finditer(t)]
        assert live == []
        assert not own_links
    else:
        assert [list(attrs) for _, attrs in own_links] == [["href"]] * case.links
        assert all(
            re.fullmatch(r"[\w./-]*#(test-pistol|pistols)", attrs["href"]) for _, attrs in own_links
        ), own_links


def errors(root: Path) -> list:
    return [f for f in validate(root).findings if f.level == Level.ERROR]


def test_a_doc_link_to_no_document_is_an_error_at_the_text(tmp_path):
    text = "Find the row.\n\nSee [the table](doc:no-such-table)."
    build_tree(tmp_path, {**base_tree(), "demo/rules/case.yaml": rule(1, Case("", text, ""))})
    found = [(f.code, f.line, f.col, f.message) for f in errors(tmp_path)]
    assert found == [("RP203", 6, 7, "document 'no-such-table' does not exist")]


def test_what_the_subset_lacks_is_a_warning_saying_it_shows_as_typed(tmp_path):
    text = "Fine *text*.\n\n<b>bold</b> and [w](https://x.example)\n\n[[/r 1d6]]"
    build_tree(tmp_path, {**base_tree(), "demo/rules/case.yaml": rule(1, Case("", text, ""))})
    found = [(f.line, f.col, f.message) for f in validate(tmp_path).findings if f.code == "RP233"]
    assert [(line, col) for line, col, _ in found] == [(6, 7)] * 3
    assert [message.split(" on line")[0] for *_, message in found] == [
        "raw HTML",
        "a link to `https://x.example` (only `doc:<document id>` links)",
        "a Foundry enricher (`[[`)",
    ]
    assert "line 7 of the text" in found[2][2] and "shows as typed" in found[2][2]


def test_lists_nested_deeper_than_the_parser_keeps_are_refused_at_load(tmp_path):
    deep = "\n".join("    " * level + f"- item {level}" for level in range(9))
    build_tree(tmp_path, {**base_tree(), "demo/rules/case.yaml": rule(1, Case("", deep, ""))})
    found = errors(tmp_path)
    assert [(e.code, e.line, e.col) for e in found] == [("RP105", 6, 7)]
    assert "lists nest at most 8 deep" in found[0].message


def test_lists_nested_as_deep_as_allowed_keep_every_item(tmp_path):
    from rulepress.exporters.rich_text import rich_html

    deep = "\n".join("    " * level + f"- item {level}" for level in range(8)) + "\n\nafter"
    html = rich_html(deep)
    assert html.count("<ul>") == 8 and "item 7" in html and html.endswith("<p>after</p>")


@pytest.mark.parametrize("number", range(len(CASES)), ids=[c.name for c in CASES])
def test_the_foundry_html_filter_shows_the_text_as_typed_and_inert(number):
    from rulepress.exporters.foundry.packs.common import html_environment

    case = CASES[number]
    template = html_environment().from_string("<div>{{ text | rich }}</div>")
    html = template.render(text=marked(number, case))
    events = between(html, number)
    tags = [value for kind, value in events if kind == "tag"]
    assert [tag for tag, _ in tags] == list(case.tags)  # a link is its label, as text
    assert all(attrs == {} or (tag, attrs) == ("ol", {"start": "3"}) for tag, attrs in tags)
    assert shown(events) == " ".join(case.shown.split())
    texts = [value for kind, value in events if kind == "text"]
    assert [m for t in texts for p in ENRICHERS.values() for m in p.finditer(t)] == []
