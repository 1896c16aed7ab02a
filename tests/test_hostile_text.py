"""Hostile text: what names, control characters and file names in a compendium can do to
the terminal, to GitHub and to the generated outputs (issue 14).

- `CASES`: one hostile value in an otherwise valid tree, and the finding it must give:
  code, `path:line:col` and words of its message. A single-line name (name, title,
  chapter, heading, column name...) holds no line break; no text holds a control
  character, however the YAML spelled it (raw, or escaped as `"\\u009b"`).
- Paths and messages printed safely: file names with terminal escapes, newlines and
  bidirectional controls, through the text, GitHub and JSON formats of the command line.
- `diff --format markdown`, posted as a pull-request comment, shows data as literal text.
- Generated names (the site's overview, rulings and sources pages, the Foundry entry of
  credits) never collide with the data's: a chapter named like one is refused.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from html import escape as html_escape
from pathlib import Path

import markdown
import pytest

from rulepress.commands.build import build
from rulepress.commands.diff import format_changes
from rulepress.errors import Level
from rulepress.exporters.foundry.ids import foundry_id
from rulepress.exporters.guide import chapters
from rulepress.exporters.markdown_text import to_html
from rulepress.exporters.site.project import SiteProject
from rulepress.history import Change, compare, load_side
from rulepress.output_names import GENERATED_NAMES
from tests.helpers import (
    NO_FINDING,
    RULE,
    RULESET_FILE,
    SECTION_FILE,
    SKILL,
    SKILL_FILE,
    WEAPON_FILE,
    Hostile,
    base_tree,
    build_tree,
    foundry_sources,
    make_tree,
    params,
    quoted,
    run,
    skill,
    validate_within,
    weapon_with,
)

RULE_FILE = "demo/rules/intro.yaml"
TIME_FILE = "demo/time.yaml"
TIME_UNITS = (
    "kind: time-units\nid: time\nname: Time\ntext: Time passes.\n"
    "headers: [Unit, Duration, Primary Use]\n"
    "rows:\n  - {unit: Turn, duration: {min: 5, max: 5}, per: minutes, use: Moving}\n"
)


def rule(old: str, new: str) -> dict[str, str]:
    return {RULE_FILE: RULE.replace(old, new, 1)}


@dataclass
class TextCase(Hostile):
    says: str = ""
    """Words the finding's message must contain."""


CASES = [
    # --- A single-line name holds no line break ------------------------------------------
    TextCase(
        "newline escape in a weapon name",
        weapon_with("name: Test Pistol", 'name: "Test\\nPistol"'),
        "RP105",
        WEAPON_FILE,
        3,
        7,
        says="one line",
    ),
    TextCase(
        "literal block scalar as a rule title",
        rule("title: Intro", "title: |\n  ## Pwned\n  ![x](https://evil.example/beacon.png)"),
        "RP105",
        RULE_FILE,
        3,
        8,
        says="U+000A",
    ),
    TextCase(
        "line separator escape \\L (U+2028) in the ruleset title",
        {RULESET_FILE: base_tree()[RULESET_FILE].replace("title: Demo", 'title: "Demo\\Lx"')},
        "RP105",
        RULESET_FILE,
        3,
        8,
        says="U+2028",
    ),
    TextCase(
        "next-line escape \\N (U+0085) in a weapon section name",
        {SECTION_FILE: base_tree()[SECTION_FILE].replace("name: Pistols", 'name: "Pis\\Ntols"')},
        "RP105",
        SECTION_FILE,
        3,
        7,
        says="U+0085",
    ),
    TextCase(
        "paragraph separator escape in a chapter",
        rule("chapter: Introduction", 'chapter: "Intro\\Pduction"'),
        "RP105",
        RULE_FILE,
        4,
        10,
        says="U+2029",
    ),
    TextCase(
        "newline in a table's column name",
        {TIME_FILE: TIME_UNITS.replace("Primary Use]", '"Primary\\nUse"]')},
        "RP105",
        TIME_FILE,
        5,
        27,
        says="one line",
    ),
    TextCase(
        "newline in a worked example's title",
        {
            "demo/skill-test.yaml": "kind: skill-test\nid: test\nname: Test\ndie: d6\n"
            "dice_per_rank: 1\nap_by_face: {4: 1, 5: 1, 6: 2}\n"
            "trait_bonus: higher-of-skill-traits\ntext: Roll.\nexamples:\n"
            '  - {id: e, title: "A\\nB", text: t, given: {rank: 1}, expect: {ap: 0}}\n'
        },
        "RP105",
        "demo/skill-test.yaml",
        10,
        20,
        says="one line",
    ),
    TextCase(
        "a plain name folded over two lines is one line",
        skill("name: Bio Lore", "name: Bio\n  Lore"),
        NO_FINDING,
        SKILL_FILE,
        1,
        1,
    ),
    TextCase(
        "line breaks stay allowed in rules text",
        rule("text: Hello.", "text: |\n  Hello.\n  Second line."),
        NO_FINDING,
        RULE_FILE,
        1,
        1,
    ),
    # --- No control character, however it is written ------------------------------------------
    TextCase(
        "C1 control character written as the escape \\u009b in a name",
        skill("name: Bio Lore", 'name: "Bio\\u009b31mLore"'),
        "RP105",
        SKILL_FILE,
        3,
        7,
        says="U+009B",
    ),
    TextCase(
        "right-to-left override in a name (shows 'exe.png' for 'gnp.exe')",
        skill("name: Bio Lore", 'name: "Bio \u202egnp.exe"'),
        "RP105",
        SKILL_FILE,
        3,
        7,
        says="U+202E",
    ),
    TextCase(
        "raw left-to-right isolate in rules text",
        rule("text: Hello.", "text: Hello \u2066x\u2069."),
        "RP105",
        RULE_FILE,
        6,
        7,
        says="U+2066",
    ),
    TextCase(
        "C1 control character escaped in rules text",
        rule("text: Hello.", 'text: "Hello\\x9b2J."'),
        "RP105",
        RULE_FILE,
        6,
        7,
        says="U+009B",
    ),
    TextCase(
        "escape character written as \\e in a ruling",
        {
            SKILL_FILE: SKILL + 'rulings:\n  - {id: r, question: "\\e[2J", ruling: r, '
            "alternative: a, why: w}\n"
        },
        "RP105",
        SKILL_FILE,
        8,
        23,
        says="U+001B",
    ),
    TextCase(
        "DEL written as \\x7f in a source credit",
        {
            RULESET_FILE: base_tree()[RULESET_FILE].replace(
                "credit: Written for the tests.", 'credit: "Written\\x7f"'
            )
        },
        "RP105",
        RULESET_FILE,
        9,
        47,
        says="U+007F",
    ),
    TextCase(
        "lone surrogate escape read by the pure-Python parser (a deeply indented comment)",
        {SKILL_FILE: " " * 300 + "# deep\n" + SKILL.replace("name: Bio Lore", 'name: "a\\ud800b"')},
        "RP003",
        SKILL_FILE,
        4,
        9,
        says="the escape \\ud800 is a surrogate, not a character",
    ),
    TextCase(
        "C1 control character as a mapping key is refused at the key",
        {SKILL_FILE: SKILL + '"\\u009b": x\n'},
        "RP101",
        SKILL_FILE,
        7,
        1,
    ),
    TextCase(
        "C1 control character in a glossary term is refused at the key",
        {RULESET_FILE: base_tree()[RULESET_FILE] + 'glossary:\n  "AP\\u009b": Action points\n'},
        "RP105",
        RULESET_FILE,
        11,
        3,
    ),
]


def chapter_named(chapter: str) -> dict[str, str]:
    return rule("chapter: Introduction", f"chapter: {quoted(chapter)}")


GENERATED_NAME_CASES = [
    TextCase(
        f"a chapter named {chapter!r}, like {what}",
        chapter_named(chapter),
        "RP223",
        RULE_FILE,
        4,
        10,
        says=f"'{slug}'",
    )
    for chapter, slug, what in [
        ("Rulings", "rulings", "the rulings page"),
        ("RULINGS", "rulings", "the rulings page"),
        ("Rulings!", "rulings", "the rulings page"),
        ("Sources", "sources", "the sources page"),
        ("Index", "index", "the site's overview page"),
        ("About These Rules", "about-these-rules", "the Foundry entry of credits"),
        ("about: these rules", "about-these-rules", "the Foundry entry of credits"),
    ]
] + [
    TextCase(
        "a rule whose id is the guide's Sources anchor",
        {RULE_FILE: RULE.replace("id: intro", "id: sources")},
        "RP223",
        RULE_FILE,
        2,
        5,
        says="'sources'",
    ),
    TextCase(
        "a weapon whose previous id is the guide's Rulings anchor",
        weapon_with("order: 1", "order: 1\nprevious_ids: [rulings]"),
        "RP223",
        WEAPON_FILE,
        8,
        16,
        says="'rulings'",
    ),
    TextCase(
        "a chapter that only starts like a generated page",
        chapter_named("Rulings of the Table"),
        NO_FINDING,
        RULE_FILE,
        1,
        1,
    ),
]
CASES += GENERATED_NAME_CASES


@pytest.mark.parametrize("case", params(CASES))
def test_hostile_text_gives_its_finding_at_its_place(tmp_path, case: TextCase):
    root = make_tree(tmp_path / "c", case)
    validation = validate_within(root, case.seconds)
    found = [(f.code, f.where(root), f.message) for f in validation.findings]
    if case.code == NO_FINDING:
        assert validation.findings == (), found
        return
    wanted = [f for f in validation.findings if f.code == case.code]
    assert wanted, found
    finding = wanted[0]
    assert finding.level == Level.ERROR and not validation.ok
    assert (finding.file, finding.line, finding.col) == (root / case.file, case.line, case.col), (
        found
    )
    assert case.says in finding.message, finding.message


# --- Paths and messages printed safely ----------------------------------------------------

BAD_KIND = b"kind: nope\n"
"""A file's whole text: one finding (RP100 at 1:7), which names the file."""


def with_file(root: Path, name: str | bytes, content: bytes = BAD_KIND) -> Path:
    """`root` (a valid tree) plus demo/skills/`name`; bytes are a name that is not UTF-8."""
    build_tree(root, base_tree())
    folder = os.fsencode(root / "demo/skills")
    with open(os.path.join(folder, os.fsencode(name)), "wb") as file:
        file.write(content)
    return root


def unsafe(text: str) -> list[str]:
    """Characters a terminal or a log viewer would act on: anything not printable but the
    line feed that ends each output line (click strips only ESC [ ... sequences, and
    only when not writing to a terminal)."""
    return [ch for ch in text if not ch.isprintable() and ch != "\n"]


FILE_NAMES = [
    pytest.param("\x1b[2J\x1b[31mred.yaml", r"\x1b[2J\x1b[31mred.yaml", id="CSI clear screen"),
    pytest.param(
        "\x1b]8;;https:evil.example\x07click\x1b]8;;\x07.yaml",
        r"\x1b]8;;https:evil.example\x07click\x1b]8;;\x07.yaml",
        id="OSC 8 hyperlink",
    ),
    pytest.param(
        "x\nfake.yaml:9:9: error RP999: injected.yaml",
        r"x\nfake.yaml:9:9: error RP999: injected.yaml",
        id="newline printing a fake finding",
    ),
    pytest.param("x\rhidden.yaml", r"x\rhidden.yaml", id="carriage return"),
    pytest.param("\x9b2Jc1.yaml", r"\x9b2Jc1.yaml", id="C1 CSI"),
    pytest.param("\u202egnp.exe.yaml", r"\u202egnp.exe.yaml", id="right-to-left override"),
    # A name that is not UTF-8 is refused whole (RP002): tests/test_hostile_files.py
]


@pytest.mark.parametrize(("name", "shown"), FILE_NAMES)
def test_a_hostile_file_name_prints_as_one_visible_line(tmp_path, name, shown):
    with_file(tmp_path / "c", name)
    result = run("validate", "c", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert unsafe(result.stdout) == []
    first, *counts = result.stdout.splitlines()  # the one finding, then the counts
    assert first.startswith(f"c/demo/skills/{shown}:1:7: error RP100: unknown kind 'nope'")
    assert counts == [
        "",
        "by code:",
        "     1  RP100 unknown-kind (error)",
        "1 error, 0 warnings, 0 info",
    ]


def test_a_file_name_cannot_inject_a_github_workflow_command(tmp_path):
    with_file(tmp_path / "c", "a,b:c\n::error file=x::pwned.yaml")
    result = run("validate", "c", "--format", "github", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert unsafe(result.stdout) == []
    (line,) = result.stdout.splitlines()
    assert line.startswith(
        r"::error file=c/demo/skills/a%2Cb%3Ac\n%3A%3Aerror file=x%3A%3Apwned.yaml,line=1,col=7,"
    )


def test_a_message_quoting_a_hostile_key_prints_it_visibly(tmp_path):
    build_tree(tmp_path / "c", {**base_tree(), SKILL_FILE: SKILL + '"\\e]0;pwned\\a": 1\n'})
    for fmt in ("text", "github"):
        result = run("validate", "c", "--format", fmt, cwd=tmp_path)
        assert result.returncode == 1 and unsafe(result.stdout) == []
        assert r"\x1b]0;pwned\x07: unknown field" in result.stdout


@pytest.mark.parametrize("name", ["evil\n\x1b[2J.yaml"], ids=["newline and ESC"])
def test_json_keeps_a_hostile_file_name_exact(tmp_path, name):
    """(A name that is not UTF-8 shows its bytes as \\xff: tests/test_hostile_files.py.)"""
    with_file(tmp_path / "c", name)
    result = run("validate", "c", "--format", "json", cwd=tmp_path)
    assert result.returncode == 1 and unsafe(result.stdout) == []
    (finding,) = json.loads(result.stdout)["findings"]
    assert finding["file"] == "c/demo/skills/" + os.fsdecode(name)


def test_an_error_naming_a_path_prints_it_on_one_line(tmp_path):
    result = run("validate", "gone\n\x1b[2Jaway", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "error: compendium folder not found: gone\\n\\x1b[2Jaway\n"


# --- diff --format markdown: a pull-request comment shows data as text ------------------

BEACON = (
    "![x](https://evil.example/b.png) <img src=x onerror=alert(1)> @org/team <!-- hid --> "
    "[link](http://a) | a | `code` **bold** $x$ #1 www.evil.example &copy;"
)
# Python-Markdown stands in for GitHub's renderer: the comment's own markup only.
COMMENT_TAGS = {"h3", "p", "strong", "ul", "li"}


def diff_markdown(tmp_path: Path, name: str, old: str = "main", new: str = "pr") -> str:
    """The pull-request comment for renaming the test pistol to `name` (and changing its
    damage at AP 12)."""
    before = build_tree(tmp_path / "old", base_tree())
    changed = weapon_with("name: Test Pistol", f"name: {quoted(name)}")
    changed[WEAPON_FILE] = changed[WEAPON_FILE].replace(
        "{ap: 12, damage: 12", "{ap: 12, damage: 14"
    )
    after = build_tree(tmp_path / "new", {**base_tree(), **changed})
    changes = compare(load_side(str(before)), load_side(str(after)))
    return format_changes(changes, "markdown", old, new)


def rendered_tags(text: str) -> set[str]:
    return set(re.findall(r"<(\w+)", markdown.markdown(text)))


def unlinked(text: str) -> bool:
    """Nothing GitHub would make a mention, a reference or a link of."""
    return not re.search(r"@\w|#\d|://|www\.", text.replace("&#8203;", "\u200b"))


def test_diff_markdown_shows_a_hostile_name_as_literal_text(tmp_path):
    text = diff_markdown(tmp_path, BEACON)
    assert rendered_tags(text) == COMMENT_TAGS, text
    assert unlinked(text), text
    shown = (
        r"!\[x\](https:&#8203;//evil.example/b.png) &lt;img src=x onerror=alert(1)> "
        r"@&#8203;org/team &lt;!-- hid --> \[link\](http:&#8203;//a) \| a \| \`code\` "
        r"\*\*bold\*\* \$x\$ #&#8203;1 www&#8203;.evil.example &amp;copy;"
    )
    assert f"- {shown}: damage at AP 12 from 12 to 14" in text.splitlines(), text


@pytest.mark.parametrize(
    ("name", "shown"),
    [("# Pwned", r"\#&#8203; Pwned"), ("1. Pwned", r"1\. Pwned"), ("- Pwned", r"\- Pwned")],
    ids=["heading", "ordered list", "nested list"],
)
def test_diff_markdown_escapes_a_block_marker_that_starts_an_item(tmp_path, name, shown):
    text = diff_markdown(tmp_path, name)
    assert rendered_tags(text) == COMMENT_TAGS, text
    assert f"- {shown}: damage at AP 12 from 12 to 14" in text.splitlines()


def test_diff_markdown_escapes_the_revisions_it_names(tmp_path):
    """A workflow may pass the pull request's branch name as NEW."""
    text = diff_markdown(tmp_path, "Trusty Pistol", "main", "<img src=x>@org/team~x~")
    assert rendered_tags(text) == COMMENT_TAGS and unlinked(text), text
    assert text.startswith(r"### Rules changes (main -> &lt;img src=x>@&#8203;org/team\~x\~)")


def test_diff_text_prints_control_characters_visibly():
    change = Change("demo", "weapon", "x", "changed", "name a\x1b[2Jb -> \u202ec")
    assert format_changes([change], "text", "a", "b") == r"demo: name a\x1b[2Jb -> \u202ec"


# --- Generated names never collide with the data's -----------------------------------


def test_every_page_of_a_ruleset_is_a_chapter_or_a_generated_name(tmp_path):
    """GENERATED_NAMES is what the check refuses: it must hold every page the site
    writes for a ruleset besides the chapters' (and the weapon pages, in their folder)."""
    tree = {**base_tree(), RULE_FILE: RULE}
    build_tree(tmp_path / "c", tree)
    validation, _ = build(tmp_path / "c", tmp_path / "out", ["site"])
    chapter_ids = {chapter.id for chapter in chapters(validation.compendium.ruleset("demo"))}
    pages = {page.stem for page in (tmp_path / "out/site/demo").glob("*.html")}
    assert pages - chapter_ids <= set(GENERATED_NAMES), pages
    assert {"index", "rulings", "sources"} <= pages


def test_the_foundry_entry_of_credits_has_a_generated_name(tmp_path):
    build_tree(tmp_path / "c", {**base_tree(), RULE_FILE: RULE})
    build(tmp_path / "c", tmp_path / "out", ["foundry"])
    entries = foundry_sources(tmp_path / "out", "rules").values()
    credits = next(entry for entry in entries if entry["name"] == "About These Rules")
    assert credits["_id"] in {foundry_id("demo", "journal", name) for name in GENERATED_NAMES}


@pytest.mark.parametrize("chapter", ["Rulings", "Index", "About These Rules"])
def test_a_chapter_named_like_a_generated_page_builds_nothing(tmp_path, chapter):
    build_tree(tmp_path / "c", {**base_tree(), **chapter_named(chapter)})
    validation, written = build(tmp_path / "c", tmp_path / "out", ["site", "foundry"])
    assert written == [] and not (tmp_path / "out").exists()
    assert [f.code for f in validation.findings] == ["RP223"]


def test_two_chapters_that_slug_alike_get_a_page_each(tmp_path):
    tree = {
        **base_tree(),
        "demo/rules/a.yaml": RULE.replace("Introduction", "A B").replace("Hello.", "First."),
        "demo/rules/b.yaml": RULE.replace("id: intro", "id: other")
        .replace("Introduction", "A-B")
        .replace("Hello.", "Second."),
    }
    build_tree(tmp_path / "c", tree)
    validation, _ = build(tmp_path / "c", tmp_path / "out", ["site"])
    assert validation.ok
    first = (tmp_path / "out/site/demo/a-b.html").read_text(encoding="utf-8")
    second = (tmp_path / "out/site/demo/a-b-2.html").read_text(encoding="utf-8")
    assert "First." in first and "Second." in second


def test_the_site_never_writes_two_pages_to_one_file(tmp_path):
    """The last guard, should two pages ever get one name: an internal error (exit 3),
    not a page silently replaced."""
    project = SiteProject(tmp_path)
    project.write("demo/rulings.md", "# A chapter\n")
    with pytest.raises(RuntimeError, match=r"demo/rulings\.md"):
        project.write("demo/rulings.md", "# Rulings\n")
    assert (tmp_path / "docs/demo/rulings.md").read_text(encoding="utf-8") == "# A chapter\n"


# --- Markdown guides quote names as text -----------------------------------------------------


@pytest.mark.parametrize("title", ["Intro ##", "Intro | x", "# Intro", "<b>Intro</b>"], ids=repr)
def test_a_title_reads_as_written_in_the_guide_heading(tmp_path, title):
    """A heading's closing #s are dropped by Markdown; a pipe or a tag must not act."""
    build_tree(tmp_path / "c", {**base_tree(), **rule("title: Intro", f"title: {quoted(title)}")})
    build(tmp_path / "c", tmp_path / "out", ["markdown"])
    html = to_html((tmp_path / "out/markdown/demo.md").read_text(encoding="utf-8"))
    assert f"<h3>{html_escape(title, quote=False)}</h3>" in html
