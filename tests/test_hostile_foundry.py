"""Hostile data inside the Foundry module: what a contributor's text can do in a game
master's browser once the module is installed.

- Macros: data reaches a macro's script only as JSON literals, so no character (U+2028
  ends a `//` comment line) lets it out into the code; run in node, planted code never
  runs and the macro still works.
- Enrichers: Foundry's TextEditor.enrichHTML turns `[[/r ...]]`, `@UUID[...]{...}`,
  `@Embed[...]`, `&Reference[...]`... in journal pages, item descriptions, table results
  and chat messages into live rolls, links and embedded documents. Data text must reach
  them inert (the same text to read), and only the exporter's own links stay live. The
  check emulates Foundry: it matches its patterns against each text node's *decoded*
  text, as enrichHTML does, and once in a real browser DOM.
- The other fields: images are ours, never data's; data cannot leave an element's text
  or an attribute; module.json's description (shown as HTML by Foundry) is escaped.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.exporters import ExportOptions
from rulepress.exporters.foundry.packs.macros import js_literal, macro_environment
from rulepress.games.iris.kinds import WEAPON_ICONS
from tests.helpers import (
    COMPENDIUM,
    CONTENT_LINK,
    ENRICHERS,
    FIELDS,
    build_tree,
    hostile_tree,
    payload,
    quoted,
    run_macro,
)

# --- Foundry's enrichers (tests.helpers.ENRICHERS), as enrichHTML applies them ----------------


class TextNodes(HTMLParser):
    """The text nodes of an HTML fragment, decoded as a browser decodes them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []

    def handle_data(self, data: str) -> None:
        self.nodes.append(data)


def text_nodes(html: str) -> list[str]:
    parser = TextNodes()
    parser.feed(html)
    parser.close()
    return parser.nodes


def live_in_text(text: str, own: frozenset[str] = frozenset()) -> list[str]:
    """What enrichHTML would make live in one text node, apart from links to the `own`
    targets (whose label becomes the anchor's text, enriched again by later patterns)."""
    live = []
    for link in CONTENT_LINK.finditer(text):
        if link[1] == "UUID" and link[2] in own:
            live += live_in_text(link[4] or "")
            text = text.replace(link[0], " ")
    return live + [found[0] for pattern in ENRICHERS.values() for found in pattern.finditer(text)]


def live_enrichers(html: str, own: frozenset[str] = frozenset()) -> list[str]:
    """What enrichHTML would make live in an HTML fragment."""
    return [live for node in text_nodes(html) for live in live_in_text(node, own)]


INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")
"""Characters of no width: a reader does not see them."""


def shown(text: str) -> str:
    """The text a reader sees of a text node."""
    return INVISIBLE.sub("", text)


def visible(html: str) -> str:
    """The text a reader sees of an HTML fragment."""
    return shown("".join(text_nodes(html)))


def planted(n: int) -> str:
    """Every enricher form, tagged by `n`."""
    return (
        f"[[/r {n}d20]] [[{n}d6]]{{x}} @UUID[Macro.planted{n}]{{Run {n}}} @Embed[Macro.e{n} inline]"
        f" @Compendium[world.macros.m{n}] @Macro[m{n}] &Reference[blinded{n}] @Check[dex{n}]"
        f" [[/check skill=ath]] @coc7.check[{n}]"
    )


# --- A compendium with enricher syntax in every text field -----------------------------------------

TABLE_TEXTS = {"table header": 20, "corruption trigger": 21, "obedience option": 22}


def planted_tree() -> dict[str, str]:
    """The hostile corpus' tree of one tagged value per text field (hostile_tree), with
    the enricher forms in place of its HTML payload, plus the two roll tables."""
    tree = hostile_tree()
    for n in FIELDS.values():
        old, new = quoted(payload(n)), quoted(planted(n))
        tree = {path: text.replace(old, new) for path, text in tree.items()}
    p = {name: quoted(planted(n)) for name, n in TABLE_TEXTS.items()}
    tree["demo/corruption/corruption-triggers.yaml"] = (
        "kind: corruption-triggers\nid: corruption-triggers\nname: Corruption Triggers\n"
        f"headers: [{p['table header']}, Trigger]\nrows:\n"
        f"  - {{level: 10, events: {p['corruption trigger']}}}\n  - {{level: 12, events: Bullying}}\n"
    )
    tree["demo/corruption/obedience-consequences.yaml"] = (
        "kind: obedience-consequences\nid: obedience-consequences\nname: Obedience Consequences\n"
        "headers: [Level, Consequence]\nrows:\n"
        f"  - {{level: 10, options: [{p['obedience option']}, Run]}}\n  - {{level: 12, options: [Hide]}}\n"
    )
    tree["demo/skill-test.yaml"] = (COMPENDIUM / "iris" / "skill-test.yaml").read_text()
    return tree


@dataclass(frozen=True)
class Module:
    """A built Foundry module's source documents, by pack."""

    folder: Path

    def documents(self, pack: str) -> list[dict]:
        folder = self.folder / "src" / "packs" / pack  # none when the pack is empty
        return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*"))]

    def own_targets(self) -> frozenset[str]:
        """The UUIDs of the module's journal pages and macros (an Item's link to the macro
        that rolls with it): the only links the exporter makes."""
        pages = frozenset(
            f"Compendium.{self.folder.name}.rules.JournalEntry.{entry['_id']}"
            f".JournalEntryPage.{page['_id']}"
            for entry in self.documents("rules")
            for page in entry["pages"]
        )
        macros = frozenset(
            f"Compendium.{self.folder.name}.macros.Macro.{macro['_id']}"
            for macro in self.documents("macros")
        )
        return pages | macros

    def html_fields(self) -> dict[str, str]:
        """Every field Foundry shows as enriched HTML, by where it is (ids, which data
        text does not change)."""
        fields = {}
        for entry in self.documents("rules"):
            for page in entry["pages"]:
                fields[f"page {page['_id']}"] = page["text"]["content"]
        for item in self.documents("weapons"):
            if item["type"] == "item":
                fields[f"item {item['_id']}"] = item["system"]["description"]
        for table in self.documents("tables"):
            fields[f"table {table['_id']}"] = table["description"]
            for result in table["results"]:
                text = result["description"] if "description" in result else result["text"]
                fields[f"result {table['_id']}.{result['_id']}"] = text
        return fields


def build_module(root: Path, tree: dict[str, str], version: int = 13) -> Module:
    build_tree(root / "c", tree)
    validation, _ = build(
        root / "c", root / "out", ["foundry"], ExportOptions(foundry_version=version)
    )
    assert validation.ok, [(f.code, f.message) for f in validation.findings]
    return Module(root / "out" / "foundry" / "rulepress-demo")


@pytest.fixture(scope="module", params=[13, 12], ids=["v13", "v12"])
def planted_module(request, tmp_path_factory) -> Module:
    return build_module(tmp_path_factory.mktemp("planted"), planted_tree(), request.param)


# --- Enrichers: data text is inert, our links live -------------------------------------------------

# Each text field that reaches Foundry HTML (a field shown only as a name, like the
# rule chapter or the weapon section, is a document name: plain text in Foundry).
HTML_FIELDS = [
    "weapon name",
    "weapon description",
    "skill name",
    "trait name",
    "rule title",
    "rule text",
    "ruleset title",
    "ruleset summary",
    "source author",
    "source credit",
    "source publication",
    "ruling question",
    "skill combat note",
    *TABLE_TEXTS,
]


@pytest.mark.parametrize("field", HTML_FIELDS)
def test_enricher_syntax_in_a_data_field_reaches_foundry_inert_but_readable(planted_module, field):
    n = FIELDS.get(field) or TABLE_TEXTS[field]
    fields = planted_module.html_fields()
    shown = [where for where, html in fields.items() if planted(n) in visible(html)]
    assert shown, f"{field} is shown in no Foundry HTML field"
    own = planted_module.own_targets()
    for where in shown:
        assert live_enrichers(fields[where], own) == [], where


def test_no_foundry_html_field_has_a_live_enricher_but_our_links(planted_module):
    own = planted_module.own_targets()
    live = {
        where: live_enrichers(html, own) for where, html in planted_module.html_fields().items()
    }
    assert {where: found for where, found in live.items() if found} == {}


def test_our_own_links_stay_live_with_an_inert_label(planted_module):
    """Links between pages (a weapon section's skill, a skill's traits, a rule's see-also)
    stay live; their labels, planted names, are inert and lose only the `]` and `}` that
    would end the link early."""
    own = planted_module.own_targets()
    labels = [
        link[4]
        for html in planted_module.html_fields().values()
        for node in text_nodes(html)
        for link in CONTENT_LINK.finditer(node)
        if link[1] == "UUID" and link[2] in own
    ]
    for n in (FIELDS["skill name"], FIELDS["trait name"]):
        assert planted(n).replace("]", "").replace("}", "") in map(shown, labels)
    assert [label for label in labels if live_in_text(label)] == []


def test_document_names_keep_the_data_exactly(planted_module):
    """Names are plain text in Foundry (never enriched): they are kept as written."""
    names = {item["name"] for item in planted_module.documents("weapons")}
    assert planted(1) in names  # the weapon
    assert planted(3) in names  # its section's folder
    chapters = {entry["name"] for entry in planted_module.documents("rules")}
    assert planted(7) in chapters


def test_the_checker_sees_through_character_references():
    """Foundry matches decoded text: HTML character references do not neutralise."""
    encoded = "<p>&#64;UUID&#91;Macro.x&#93;{Run} &#91;&#91;/r 1d20&#93;&#93; &amp;Reference[x]</p>"
    assert len(live_enrichers(encoded)) == 4
    split = "<p>@<span></span>UUID[Macro.x]{Run}</p>"  # an element boundary does
    assert live_enrichers(split) == []


@pytest.mark.parametrize(
    ("text", "after"),
    [
        ("[[/r 1d20]]", ""),
        ("[[[1d6]]]", ""),
        ("@UUID[Macro.x]{y}", ""),
        ("&Reference[x]", ""),
        ("x@", "UUID[Macro.x]"),
        ("x&", "Reference[x]"),
        ("x[", "[1d6]]"),
    ],
)
def test_inert_text_keeps_its_characters_and_forms_no_enricher(text, after):
    """Also where template text follows the value: it cannot complete a pattern."""
    from rulepress.exporters.foundry.enrichers import inert

    made = inert(text)
    assert shown(made) == text
    assert live_in_text(made + after) == []


def test_foundry_regexes_in_a_real_browser_dom_find_no_live_enricher(planted_module, chromium):
    """The same check in Chromium: enrichHTML's own steps (innerHTML, a TreeWalker over
    text nodes, the patterns on textContent), on every HTML field of the module."""
    page = chromium.new_page()
    try:
        live = page.evaluate(
            BROWSER_CHECK,
            [list(planted_module.html_fields().items()), sorted(planted_module.own_targets())],
        )
    finally:
        page.close()
    assert live == []


BROWSER_CHECK = r"""([fields, own]) => {
  const patterns = [
    /@(\w+)\[([^#\]]+)(?:#([^\]]+))?](?:{([^}]+)})?/g,
    /@Embed\[(?<config>[^\]]+)](?:{(?<label>[^}]+)})?/gi,
    /\[\[(\/[a-zA-Z]+\s)?(.*?)(]{2,3})(?:{([^}]+)})?/gi,
    /[@&]\w+\[|@coc7\./gi,
  ];
  const live = [];
  const check = (where, text) => {
    for (const link of text.matchAll(patterns[0])) {
      if (link[1] === "UUID" && own.includes(link[2])) {
        check(where, link[4] || "");
        text = text.replace(link[0], " ");
      }
    }
    for (const pattern of patterns) for (const m of text.matchAll(pattern)) live.push([where, m[0]]);
  };
  for (const [where, html] of fields) {
    const div = document.createElement("div");
    div.innerHTML = html;
    const walk = document.createTreeWalker(div, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) check(where, walk.currentNode.textContent);
  }
  // The check itself must see what Foundry sees: a character reference is no defence.
  const probe = document.createElement("div");
  probe.innerHTML = "&#64;UUID&#91;Macro.x&#93;";
  if (!probe.textContent.match(patterns[0])) live.push(["probe", "not decoded"]);
  return live;
}"""


# --- Macros: data reaches the script only as JSON literals -----------------------------------------

MACRO_TITLES = {
    # YAML double-quoted text that would end a comment, a string, a template literal or the
    # script. (A JavaScript line terminator, U+2028 or U+2029, ended the `// title` comment
    # line before the fix; validation now refuses it in any text, and js_literal escapes it,
    # test_a_macro_template_cannot_write_data_as_source_text.)
    "comment, script, template and quote breakers": (
        r'"CUF */ globalThis.planted = 3; /* </script><script>globalThis.planted = 4</script>'
        r' <!-- ` ${globalThis.planted = 5} \" \\ -->"'
    ),
    "a line comment then a newline in a one-line name's place": (
        r'"CUF // globalThis.planted = 6; \\u2028 globalThis.planted = 7"'
    ),
}
THRESHOLD_NAME = (
    "[[/r 1d20]] @UUID[Macro.x]{Run} @Embed[Macro.y] &Reference[z] </script><b>bold</b>"
)


def hostile_compendium(root: Path, title: str) -> Path:
    """The bundled compendium with `title` (YAML) as every ruleset's title, and enricher
    syntax in the name of the CUF threshold the tests reach."""
    shutil.copytree(COMPENDIUM, root)
    for ruleset in root.glob("*/ruleset.yaml"):
        text = ruleset.read_text(encoding="utf-8")
        ruleset.write_text(
            re.sub(r"(?m)^title: .*$", lambda _: f"title: {title}", text), encoding="utf-8"
        )
    fear = root / "t2k-cuf" / "thresholds" / "fear.yaml"
    text = fear.read_text(encoding="utf-8")
    fear.write_text(
        text.replace("name: Fear\n", f"name: {quoted(THRESHOLD_NAME)}\n"), encoding="utf-8"
    )
    return root


def built_macros(root: Path, compendium: Path) -> dict[str, Path]:
    """module/macro name -> its source file."""
    validation, _ = build(compendium, root / "out", ["foundry"])
    assert validation.ok, [
        (f.code, f.message) for f in validation.findings if f.level.name == "ERROR"
    ]
    return {
        f"{path.parents[3].name}/{json.loads(path.read_text())['name']}": path
        for path in sorted((root / "out" / "foundry").glob("*/src/packs/macros/*.json"))
    }


@pytest.fixture(scope="module", params=list(MACRO_TITLES), ids=list(MACRO_TITLES))
def hostile_macros(request, tmp_path_factory) -> tuple[str, dict[str, Path]]:
    root = tmp_path_factory.mktemp("macros")
    compendium = hostile_compendium(root / "c", MACRO_TITLES[request.param])
    return request.param, built_macros(root, compendium)


@pytest.fixture(scope="module")
def plain_macros(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("plain-macros")
    return built_macros(root, COMPENDIUM)


def test_a_title_cannot_run_code_in_the_macros_and_they_still_work(node, hostile_macros):
    _, macros = hostile_macros
    runs = {
        "rulepress-iris/Skill Test": ({"rank": 2, "traits": [1]}, [6, 4]),
        "rulepress-t2k4e/Roll with Modifiers and Push": ({"attribute": "d8"}, [6]),
        "rulepress-t2k-cuf/Threat Check": ({"cuf": 4, "willpower": 6, "tcs": 5}, [3]),
        "rulepress-iris/Corruption lookup": ({"level": 12, "table": "Corruption Triggers"}, []),
    }
    assert set(macros) == set(runs)
    for name, (scope, faces) in runs.items():
        run = run_macro(node, macros[name], scope, faces)
        assert run["planted"] is None, name
        assert run["unusedFaces"] == 0, name
        (message,) = run["messages"]
        assert message["content"].startswith("<h3>CUF"), name
        assert "<script>" not in message["content"], name


def test_data_is_in_the_macro_code_only_as_json_literals(hostile_macros, plain_macros):
    """The script of a macro built from hostile data is the bundled one's, line for line,
    but for `const NAME = <JSON>;` lines; and those hold no character that ends a line
    or an HTML script (U+2028, U+2029, `<`, `>`, `&`), only escapes."""
    for name, path in hostile_macros[1].items():
        command = json.loads(path.read_text(encoding="utf-8"))["command"]
        plain = json.loads(plain_macros[name].read_text(encoding="utf-8"))["command"]
        code, literals = split_literals(command)
        assert code == split_literals(plain)[0], name
        assert literals["TITLE"].startswith("CUF"), name
        for line in command.split("\n"):
            if LITERAL_LINE.match(line):
                assert not re.search("[\u2028\u2029<>&]", line), line


LITERAL_LINE = re.compile(r"^const ([A-Z_]+) = (.*);$")


def split_literals(command: str) -> tuple[str, dict[str, object]]:
    """The script with each literal line's value left out, and the values (JSON)."""
    code, literals = [], {}
    for line in command.split("\n"):
        found = LITERAL_LINE.match(line)
        if found:
            literals[found[1]] = json.loads(found[2])
            line = f"const {found[1]} = ...;"
        code.append(line)
    return "\n".join(code), literals


def test_a_macro_posts_data_to_chat_as_inert_text(node, hostile_macros):
    """Foundry enriches chat messages too: a threshold's name reaches chat readable but
    with no live roll or link, and its markup as text."""
    _, macros = hostile_macros
    run = run_macro(
        node, macros["rulepress-t2k-cuf/Threat Check"], {"cuf": 4, "willpower": 6, "tcs": 5}, [3]
    )
    (message,) = run["messages"]
    assert run["result"]["state"] == "fear"
    assert live_enrichers(message["content"]) == []
    assert THRESHOLD_NAME in visible(message["content"])


def test_a_macro_template_cannot_write_data_as_source_text():
    """The macro templates' environment writes only js_literal() values: a template that
    put a value in a comment or a string of its own fails the build (a bug, exit 3)."""
    env = macro_environment()
    with pytest.raises(TypeError, match="not a js_literal"):
        env.from_string("// {{ title }}\n").render(title="CUF\u2028alert(1)")
    assert env.from_string("const T = {{ t }};").render(t=js_literal("a\u2028</script>")) == (
        'const T = "a\\u2028\\u003c/script\\u003e";'
    )


def test_inert_text_looks_the_same_in_a_browser(chromium):
    """The word joiners take no room: each planted text is as wide in Chromium as the
    original, in the browser's default fonts."""
    from rulepress.exporters.foundry.enrichers import inert

    texts = [planted(1), "AT&T D&D @home [[x]]", THRESHOLD_NAME]
    page = chromium.new_page()
    try:
        widths = page.evaluate(
            """(pairs) => pairs.map(([a, b]) => [a, b].map((text) => {
                const span = document.createElement("span");
                span.style.whiteSpace = "pre";
                span.textContent = text;
                document.body.append(span);
                const width = span.getBoundingClientRect().width;
                span.remove();
                return width;
            }))""",
            [[text, inert(text)] for text in texts],
        )
    finally:
        page.close()
    for text, (original, made) in zip(texts, widths, strict=True):
        assert made == original > 0, text


# --- The other fields: images, markup, the manifest ------------------------------------------------

FOUNDRY_ICONS = {
    "icons/svg/sword.svg",
    "icons/svg/d20-grey.svg",
    "icons/svg/d20-black.svg",
    "icons/svg/dice-target.svg",
    "icons/svg/terror.svg",
    "icons/svg/skull.svg",
    *WEAPON_ICONS.values(),
}


def values_named(value: object, key: str) -> list[object]:
    """Every value under `key`, at any depth of a document."""
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == key] + [
            found for v in value.values() for found in values_named(v, key)
        ]
    if isinstance(value, list):
        return [found for v in value for found in values_named(v, key)]
    return []


def test_images_are_foundrys_own_icons_whatever_the_data(planted_module):
    """No image path comes from data (a `javascript:` or outside URL would be fetched or
    run by every client): each document's `img`, embedded ones too, is a core icon."""
    images = [
        image
        for pack in ("rules", "weapons", "tables", "macros")
        for document in planted_module.documents(pack)
        for image in values_named(document, "img") + values_named(document, "src")
    ]
    assert len(planted_module.documents("macros")) == 2  # the skill test, the Corruption lookup
    assert images and set(images) <= FOUNDRY_ICONS


BREAKER = "\"'><img src=x onerror=alert({n})><a href=\"javascript:alert({n})\" onclick='x'>{n}</a>"


def markup(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """An HTML fragment's elements and attributes, in order: its structure without text."""
    found = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, attrs))

    Tags().feed(html)
    return found


def test_data_cannot_add_elements_or_attributes_to_foundry_html(tmp_path):
    """Quotes, `>` and tags in every text field: each Foundry HTML field has the same
    elements and attributes as when the fields hold plain words."""

    def tree(text) -> dict[str, str]:
        tree = hostile_tree()
        for n in FIELDS.values():
            old, new = quoted(payload(n)), quoted(text(n))
            tree = {path: content.replace(old, new) for path, content in tree.items()}
        return tree

    hostile = build_module(tmp_path / "hostile", tree(lambda n: BREAKER.format(n=n)))
    plain = build_module(tmp_path / "plain", tree(lambda n: f"Plain words {n}"))
    fields, plain_fields = hostile.html_fields(), plain.html_fields()
    assert len(fields) > 5
    assert fields.keys() == plain_fields.keys()
    for where, html in fields.items():
        assert markup(html) == markup(plain_fields[where]), where
    everything = "".join(fields.values())
    assert "onerror=alert(1)" in visible(everything)  # shown as text


def test_the_manifest_description_is_escaped_for_foundrys_package_lists(tmp_path):
    """Foundry shows a package's description as HTML in its setup and module lists: the
    ruleset's summary and credits are escaped there, and read the same; the only elements
    are the paragraphs and code spans rulepress writes, with no attribute."""
    tree = hostile_tree()
    module = build_module(tmp_path, tree)
    manifest = json.loads((module.folder / "module.json").read_text(encoding="utf-8"))
    assert markup(manifest["description"]) == [("p", []), ("code", [])] * 2
    shown = visible(manifest["description"])
    # the payload's `c` is a code span: shown as c, in <code>
    assert payload(FIELDS["ruleset summary"]).replace("`c`", "c") in shown
    assert payload(FIELDS["source credit"]).replace("`c`", "c") in shown
    assert manifest["title"] == payload(FIELDS["ruleset title"])  # a title is plain text
