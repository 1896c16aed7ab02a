"""Hostile settings and prose against time and memory (issue 26, "Hangs, blow-ups").

- Patterns: a setting's pattern is parsed by rulepress.models.patterns, never given to
  `str.format`: a format spec, a conversion, attribute or index access, a positional or
  unknown placeholder is refused at `rulepress.yaml:line:col`, and `fill` only
  substitutes. Each case asserts the finding and, for the two that blew up, that
  `validate` and `build` exit 1 with nothing written.
- Bounds: every settings value has a limit, said at its place.
- Prose: a document of thousands of misspellings (or undefined terms) is checked in one
  pass and reports a bounded number of words plus a count; the work is counted, not timed
  (a generous ceiling only guards against a hang).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.cli import run
from rulepress.models.patterns import fill
from rulepress.validation import validate
from rulepress.validators import word_places
from rulepress.validators.word_places import MAX_WORD_REPORTS
from tests.helpers import COMPENDIUM, base_tree, build_tree, within


def repository(root: Path, settings: str, files: dict[str, str] | None = None) -> Path:
    """The demo compendium in `root/compendium` with `settings` as rulepress.yaml beside."""
    build_tree(root / "compendium", {**base_tree(), **(files or {})})
    (root / "rulepress.yaml").write_text(settings, encoding="utf-8")
    return root / "compendium"


def settings_findings(tmp_path: Path, settings: str) -> list[str]:
    """`line:col code message` of each finding in rulepress.yaml, validated in process."""
    validation = within(60, lambda: validate(repository(tmp_path, settings)))
    return [
        f"{f.line}:{f.col} {f.code} {f.message}"
        for f in validation.findings
        if f.file and f.file.name == "rulepress.yaml"
    ]


# --- patterns: the two that blew up, refused by validate and by build ------------------------

BLOW_UPS = [
    # build died with "internal error: MemoryError()"
    ('foundry:\n  title: "{ruleset:>99999999999}"\n', "rulepress.yaml:2:10: error RP105"),
    # four 30 MB guides
    ('guides:\n  title: "{ruleset:>30000000}"\n', "rulepress.yaml:2:10: error RP105"),
]


@pytest.mark.parametrize(("settings", "where"), BLOW_UPS, ids=["foundry.title", "guides.title"])
def test_a_format_spec_is_refused_by_validate_and_build(tmp_path, capsys, settings, where):
    compendium = repository(tmp_path, settings)
    assert run(["validate", str(compendium), "--no-cache"]) == 1
    output = capsys.readouterr().out
    assert where in output and "takes no format spec" in output, output
    out = tmp_path / "dist"
    code = within(60, lambda: run(["build", str(compendium), "--out", str(out), "--no-cache"]))
    output = capsys.readouterr()
    assert code == 1, output
    assert where in output.err and "internal error" not in output.err  # build reports on stderr
    assert "nothing was written" in output.err and not out.exists()


# --- patterns: every other shape str.format would read -----------------------------------------

PATTERN_CASES = [
    pytest.param(
        'foundry:\n  title: "{ruleset!r}"\n',
        "2:10 RP105 foundry.title: {ruleset!r}: a placeholder takes no "
        "conversion ('!...'); write {ruleset}",
        id="conversion",
    ),
    pytest.param(
        'guides:\n  title: "{ruleset.__class__.__mro__}"\n',
        "2:10 RP105 guides.title: {ruleset.__class__.__mro__}: a placeholder is "
        "a bare name, with no attribute access ('.'); write {ruleset}",
        id="attribute",
    ),
    pytest.param(
        'foundry:\n  manifest: "https://example.org/{module[0]}.json"\n',
        "2:13 RP105 foundry.manifest: {module[0]}: a placeholder is a bare "
        "name, with no index ('[...]'); write {module}",
        id="index",
    ),
    pytest.param(
        'foundry:\n  title: "{rulset} module"\n',
        "2:10 RP105 foundry.title: unknown placeholder {rulset} (did you mean "
        "{ruleset}?); known: {ruleset}, {ruleset_id}, {module}",
        id="unknown-did-you-mean",
    ),
    pytest.param(
        'guides:\n  title: "{} and {0}"\n',
        "2:10 RP105 guides.title: {}: a placeholder names what it stands for, "
        "one of {ruleset}, {ruleset_id}, {module}",
        id="positional",
    ),
    pytest.param(
        'guides:\n  front_matter: {tags: ["{ruleset_id:^9999}"]}\n',
        "2:25 RP105 guides.front_matter.tags[0]: {ruleset_id:^9999}: a "
        "placeholder takes no format spec",
        id="front-matter-list-item",
    ),
    pytest.param(
        # site.url is the same for every ruleset: nothing fills a placeholder in it
        'site:\n  url: "https://example.org/{ruleset}/"\n',
        "2:8 RP105 site.url: this setting is no pattern: it takes no placeholders or braces",
        id="placeholder-in-a-plain-url",
    ),
]


@pytest.mark.parametrize(("settings", "expected"), PATTERN_CASES)
def test_a_pattern_names_only_bare_placeholders(tmp_path, settings, expected):
    found = settings_findings(tmp_path, settings)
    assert any(line.startswith(expected) for line in found), found


def test_fill_only_substitutes():
    # what str.format would have reached or built, from a pattern nothing validated
    for pattern in ("{ruleset.__class__}", "{ruleset!r}", "{ruleset:>99999999999}", "{0}"):
        with pytest.raises(ValueError):
            fill(pattern, ruleset="Demo")
    assert fill("{{{ruleset}}} by {module}}}", ruleset="Demo", module="m") == "{Demo} by m}"


def test_literal_braces_still_reach_the_guide(tmp_path, capsys):
    compendium = repository(tmp_path, 'guides:\n  title: "{{{ruleset}}} notes"\n')
    out = tmp_path / "dist"
    assert run(["build", str(compendium), "--out", str(out), "--target", "markdown"]) == 0
    capsys.readouterr()
    guide = next((out / "markdown").rglob("*.md")).read_text(encoding="utf-8")
    assert "# {Demo} notes" in guide


# --- bounds: every settings value has a limit ------------------------------------------------

BOUND_CASES = [
    pytest.param(
        f"site:\n  edit_path: {'a/' * 101}\n",
        "2:14 RP104 site.edit_path: string should have at most 200 characters",
        id="edit_path",
    ),
    pytest.param(
        "guides:\n  front_matter: {weight: 10000000000000000}\n",
        "2:26 RP104 guides.front_matter.weight: input should be less than or equal to "
        "1000000000000000",
        id="front-matter-integer",
    ),
    pytest.param(
        "guides:\n  front_matter: {weight: .inf}\n",
        "2:26 RP104 guides.front_matter.weight: input should be a finite number",
        id="front-matter-infinity",
    ),
    pytest.param(
        f"guides:\n  front_matter: {{tags: [{', '.join(['x'] * 51)}]}}\n",
        "2:24 RP104 guides.front_matter.tags: list should have at most 50 items",
        id="front-matter-list",
    ),
]


@pytest.mark.parametrize(("settings", "expected"), BOUND_CASES)
def test_a_settings_value_past_its_bound_is_refused_at_its_place(tmp_path, settings, expected):
    found = settings_findings(tmp_path, settings)
    assert any(line.startswith(expected) for line in found), found


# --- prose: a document of thousands of misspellings ------------------------------------------

LINE = "Roll teh dice and recieve the result."


def misspelt_rule(rulings: int) -> str:
    """A rule whose rulings' texts repeat LINE (two misspellings) 100 lines each."""
    text = "".join(f"      {LINE}\n" for _ in range(100))
    return (
        "kind: rule\nid: misspelt\ntitle: Misspelt\nchapter: Tests\norder: 1\n"
        "text: A rule full of misspellings.\nrulings:\n"
        + "".join(
            f"  - id: ruling-{n}\n"
            + "".join(
                f"    {field}: |\n{text}" for field in ("question", "ruling", "alternative", "why")
            )
            for n in range(rulings)
        )
    )


def counted_places(monkeypatch) -> list[int]:
    """A list that grows by one at each word placed in a file (WordPlaces.position)."""
    calls: list[int] = []
    place = word_places.WordPlaces.position

    def counting(self, *args):
        calls.append(1)
        return place(self, *args)

    monkeypatch.setattr(word_places.WordPlaces, "position", counting)
    return calls


def test_thousands_of_misspellings_give_a_bounded_report_and_a_count(tmp_path, monkeypatch):
    calls = counted_places(monkeypatch)
    document = misspelt_rule(50)  # about 800 KB... the loader's limit is 2 MiB
    assert 300_000 < len(document) < 2 * 2**20
    root = build_tree(tmp_path / "c", {**base_tree(), "demo/rules/misspelt.yaml": document})
    validation = within(120, lambda: validate(root))  # a hang guard, not a timing
    spelling = [f for f in validation.findings if f.code == "RP231"]
    assert len(spelling) == MAX_WORD_REPORTS + 1
    assert len(calls) == MAX_WORD_REPORTS + 1  # one place per listed word and the count's
    (count,) = [f for f in spelling if "not listed" in f.message]
    listed = [f for f in spelling if f is not count]
    # the first word on the first ruling's first text line: line 10, after "      Roll "
    assert (listed[0].line, listed[0].col, listed[0].message[:6]) == (10, 12, '"teh" ')
    assert (listed[1].line, listed[1].col) == (10, 25)  # recieve
    assert (listed[2].line, listed[2].col) == (11, 12)  # the next line's "teh"
    total = 50 * 4 * 100 * 2
    assert count.message == (
        f"{total - MAX_WORD_REPORTS} more misspellings in this file are not listed, from "
        f"here on (only the first {MAX_WORD_REPORTS} are)"
    )
    assert (count.line, count.col) == (10 + MAX_WORD_REPORTS // 2, 12)  # the 51st word


def test_a_word_is_placed_as_written_whatever_the_scalar_style(tmp_path):
    rule = (
        "kind: rule\nid: styles\ntitle: Styles\nchapter: Tests\norder: 1\n"
        "text: 'Single teh''s quoted teh'\n"  # teh's is no misspelling; the second teh is
        'rulings:\n  - {id: a, question: "\\u0074eh, teh", ruling: x, alternative: x, why: x}\n'
    )
    root = build_tree(tmp_path / "c", {**base_tree(), "demo/rules/styles.yaml": rule})
    spelling = [f for f in within(60, lambda: validate(root)).findings if f.code == "RP231"]
    # an escape spells the first teh of the question: the file's first teh is taken for
    # it, and the second has no place of its own (the text's), as before
    assert [(f.line, f.col) for f in spelling] == [(6, 29), (8, 23), (8, 34)]


def test_many_undefined_terms_give_a_bounded_report_and_a_count(tmp_path):
    terms = [f"Skill{chr(65 + n // 26)}{chr(65 + n % 26)}" for n in range(120)]
    text = " ".join(f"Make a {term} test." for term in terms)
    rule = f"kind: rule\nid: terms\ntitle: Terms\nchapter: Tests\norder: 1\ntext: {text}\n"
    root = build_tree(tmp_path / "c", {**base_tree(), "demo/rules/terms.yaml": rule})
    undefined = [f for f in within(60, lambda: validate(root)).findings if f.code == "RP232"]
    assert len(undefined) == MAX_WORD_REPORTS + 1
    assert undefined[0].message.startswith('"SkillAA" is used here') and undefined[0].col == 14
    (count,) = [f for f in undefined if "not listed" in f.message]
    assert count.message.startswith(f"{120 - MAX_WORD_REPORTS} more undefined terms in this")


def test_the_published_check_docs_say_the_bound():
    from rulepress.validators.registry import CHECKS

    for check in (c for c in CHECKS if c.code in ("RP231", "RP232")):
        assert f"first {MAX_WORD_REPORTS} " in " ".join(check.doc.split()), check.code


def test_the_bundled_compendium_stays_clean():
    validation = within(120, lambda: validate(COMPENDIUM))
    assert validation.ok
    assert not [f for f in validation.findings if "are not listed" in f.message]
