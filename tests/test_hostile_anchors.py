"""Names the data gives that would take one anchor of the guide twice (issue 27, point 12).

The Markdown guide is one page: a chapter's title, a section's id and a weapon's own
anchor all become `<a id>`s of it, and the site's pages and the Foundry ids follow the
chapters' and sections'. Check RP226 reports what the outline renames or shares; RP223
the names the exports keep for their own pages, which now include the known problems
(`errata`) and calculator pages.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rulepress.commands.build import build
from rulepress.compendium.loader import load_compendium
from rulepress.errors import Level
from rulepress.exporters.markdown_guide import render_guide
from rulepress.outline import _chapters_as_named, anchor_clashes, chapters
from tests.check_cases import FAILING, PASSING, RULE, RULE_FILE
from tests.helpers import RULESET, RULESET_FILE, base_tree, build_tree

ANCHOR = re.compile(r'<a id="([^"]+)"></a>')

TREES = {case.example: case.files for case in [*FAILING, *PASSING] if case.code == "RP226"} | {
    "the smallest valid compendium": {}
}
CLASHING = {case.example for case in FAILING if case.code == "RP226"}


def _ruleset(tmp_path, files):
    root = build_tree(tmp_path / "c", {**base_tree(), **files})
    return load_compendium(root).compendium.ruleset("demo")


@pytest.mark.parametrize("example", sorted(TREES))
def test_a_clash_is_found_exactly_when_the_guide_repeats_or_renames_an_anchor(tmp_path, example):
    """The check reads the outline the exports use: what it reports is what the guide
    shows (an anchor twice, or a chapter or section renamed `-2`), and nothing else."""
    ruleset = _ruleset(tmp_path, TREES[example])
    anchors = Counter(ANCHOR.findall(render_guide(ruleset)))
    repeated = sorted(name for name, count in anchors.items() if count > 1)
    as_named = [
        (chapter.id, [section.id for section in chapter.sections])
        for chapter in _chapters_as_named(ruleset)
    ]
    given = [(c.id, [s.id for s in c.sections]) for c in chapters(ruleset)]
    sections_sharing_late = [
        section.id
        for chapter in chapters(ruleset)
        for section in chapter.sections[1:]
        if section.id == chapter.id
    ]
    shows_a_clash = bool(repeated) or as_named != given or bool(sections_sharing_late)
    assert bool(anchor_clashes(ruleset)) == shows_a_clash, (repeated, as_named, given)
    assert shows_a_clash == (example in CLASHING), example


def test_a_weapon_named_like_a_chapter_would_repeat_its_anchor_in_the_guide(tmp_path):
    """What RP226 prevents: the guide's one page holds `test-pistol` twice, so a link to
    the weapon lands on the chapter."""
    files = {RULE_FILE: RULE.replace("chapter: Weapons", "chapter: Test Pistol")}
    guide = render_guide(_ruleset(tmp_path, files))
    assert ANCHOR.findall(guide).count("test-pistol") == 2


def test_a_clash_is_a_warning_and_the_build_keeps_each_page(tmp_path):
    """The outline still renames what clashes (`traits-2`), so no page or anchor is
    lost: the warning says so, where before nothing did."""
    root = build_tree(
        tmp_path / "c",
        {**base_tree(), RULE_FILE: RULE.replace("chapter: Weapons", "chapter: Traits")},
    )
    validation, _ = build(root, tmp_path / "out", ["site"])
    assert [(f.code, f.level) for f in validation.findings] == [("RP226", Level.WARNING)]
    assert (tmp_path / "out/site/demo/traits-2.html").is_file()


PAGE_NAMED = [
    ({RULESET_FILE: RULESET + "chapters:\n  - {title: %s, kinds: [trait]}\n"}, "RP224", 11, 13),
    ({RULE_FILE: RULE.replace("chapter: Weapons", "chapter: %s")}, "RP223", 4, 10),
]


@pytest.mark.parametrize("title", ["Errata", "Calculator", "ERRATA!"])
@pytest.mark.parametrize(("files", "code", "line", "col"), PAGE_NAMED)
def test_a_chapter_named_like_the_known_problems_or_calculator_page_is_refused(
    tmp_path, title, files, code, line, col
):
    """A chapter `Errata` would write the site's `<ruleset>/errata.md` over the known
    problems page (and give the guide a second `#errata`); `Calculator` the calculator's."""
    named = {path: text % title for path, text in files.items()}
    root = build_tree(tmp_path / "c", {**base_tree(), **named})
    validation, written = build(root, tmp_path / "out", ["site"])
    assert [(f.code, f.line, f.col) for f in validation.findings] == [(code, line, col)]
    assert written == []
