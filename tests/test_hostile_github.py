"""Hostile input against the GitHub outputs (issue 26): `$GITHUB_STEP_SUMMARY`, the
`diff --format markdown` pull-request comment and the `--format github` annotations.

- Data shows as literal text in both Markdown outputs: no image, link, HTML, table break,
  mention, issue or commit reference, emoji, that GitHub would make of it. markdown-it
  (CommonMark, with GFM's tables and strikethrough, raw HTML passed as GitHub passes
  `<img>` and `<details>`) stands in for GitHub's renderer; AUTOLINKED stands in for what
  GitHub links by itself in the rendered text (its docs' "Autolinked references and
  URLs", mentions, emoji).
- `--changed-since` never hides an error that fails the check.
- Both outputs stay within what GitHub keeps (a step summary of 1 MiB, a comment of
  65,536 characters), saying how much was cut and where the rest is.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner
from markdown_it import MarkdownIt

from rulepress.cli import cli
from rulepress.commands.diff import format_changes
from rulepress.commands.validate import format_findings, write_step_summary
from rulepress.errors import Finding, Level, printable
from rulepress.history import Change
from rulepress.validation import validate
from tests.helpers import SKILL_FILE, WEAPON_FILE, base_tree, build_tree, commit_all, git, weapon

HOSTILE = (
    "![beacon](https://evil.example/b.png) [link](https://evil.example) @org/team @user "
    "GH-1 gh-2 #1 org/repo#1 user@deadbeefcafe1234 :smile: <img src=x onerror=alert(1)> "
    "<details><summary>open</summary> a | b\nc **bold** `code` $x$ www.evil.example &copy;"
)
"""A value that, shown as Markdown, would be an image, links, mentions, references, an
emoji, HTML, a table break and a new line."""
AUTOLINKED = re.compile(r"@\w|#\d|\bgh-\d|[0-9a-f]{7}|:\w+:|://|www\.", re.IGNORECASE)
"""What GitHub links (or turns to an emoji) by itself in rendered text."""
ZERO_WIDTH = "\u200b"
SUMMARY_LIMIT = 1024 * 1024
COMMENT_LIMIT = 65_536


GFM = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def rendered(text: str) -> str:
    return GFM.render(text)


def visible(fragment: str) -> str:
    """The text a reader sees of rendered HTML: tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def assert_literal(shown_html: str, original: str) -> None:
    """`shown_html` (rendered) is plain text reading `original` (made printable), with
    nothing GitHub would link or turn into markup."""
    assert not re.search(r"<(?!/?(td|li)\b)", shown_html), shown_html
    text = visible(shown_html)
    assert not AUTOLINKED.search(text), text
    assert text.replace(ZERO_WIDTH, "") == printable(original)


def hostile_compendium(tmp_path: Path) -> Path:
    """A small compendium whose skill holds an unknown key named HOSTILE."""
    tree = base_tree()
    key = HOSTILE.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    tree[SKILL_FILE] = f'{tree[SKILL_FILE]}"{key}": 1\n'
    return build_tree(tmp_path / "compendium", tree)


def summary_of(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    """`validate --format github ARGS` in `tmp_path`: exit code, output, step summary."""
    summary = tmp_path / "summary.md"
    result = CliRunner().invoke(
        cli, ["validate", "--format", "github", *args], env={"GITHUB_STEP_SUMMARY": str(summary)}
    )
    return result.exit_code, result.stdout, summary.read_text(encoding="utf-8")


# --- Data shows as literal text ---------------------------------------------------------


def test_step_summary_shows_a_hostile_unknown_key_as_literal_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    hostile_compendium(tmp_path)
    code, _, summary = summary_of(tmp_path, "compendium")
    assert code == 1
    page = rendered(summary)
    assert set(re.findall(r"<(\w+)", page)) == {
        "h2", "p", "table", "thead", "tbody", "tr", "th", "td"
    }, summary  # fmt: skip
    cells = re.findall(r"<td>(.*?)</td>", page)
    assert len(cells) == 8  # two findings, four columns: the hostile key broke no cell
    assert_literal(f"<td>{cells[-1]}</td>", f"{HOSTILE}: unknown field")


def test_diff_comment_shows_a_hostile_change_as_literal_text():
    change = Change("demo", "trait", "t", "added", f"new trait: {HOSTILE}")
    comment = format_changes([change], "markdown", "main", "pr")
    page = rendered(comment)
    assert set(re.findall(r"<(\w+)", page)) == {"h3", "p", "strong", "ul", "li"}, comment
    (item,) = re.findall(r"<li>.*?</li>", page, re.DOTALL)
    assert_literal(item, f"new trait: {HOSTILE}")


def test_revisions_and_ruleset_names_in_the_diff_comment_link_nothing():
    """A workflow passes commit SHAs or a branch name as OLD and NEW."""
    comment = format_changes(
        [Change("GH-7 @org", "trait", "t", "added", "new trait: Grit")],
        "markdown",
        "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
        "feature/GH-12",
    )
    text = visible(rendered(comment))
    assert not AUTOLINKED.search(text), comment
    assert "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39" in text.replace(ZERO_WIDTH, "")


def test_summary_and_comment_escape_a_value_alike(tmp_path, monkeypatch):
    """One function makes text literal for both outputs: the same value reads the same."""
    monkeypatch.chdir(tmp_path)
    hostile_compendium(tmp_path)
    _, _, summary = summary_of(tmp_path, "compendium")
    (row,) = [line for line in summary.splitlines() if "RP101" in line]
    in_summary = row.rsplit(" | ", 1)[1].removesuffix(" |")
    comment = format_changes([Change("demo", "trait", "t", "added", HOSTILE)], "markdown", "a", "b")
    (item,) = [line for line in comment.splitlines() if line.startswith("- ")]
    assert in_summary == item.removeprefix("- ") + ": unknown field"


# --- --changed-since never hides an error ---------------------------------------------------


def _repository_with_an_old_warning(tmp_path: Path) -> Path:
    """A git repository whose weapon holds a warning (damage falling at AP 5), committed;
    then the skill changed harmlessly."""
    repo = tmp_path / "repo"
    falling = weapon().replace("{ap: 5, damage: 5,", "{ap: 5, damage: 1,", 1)
    build_tree(repo / "compendium", {**base_tree(), WEAPON_FILE: falling})
    git(repo, "init", "-q")
    commit_all(repo, "start")
    skill = repo / "compendium" / SKILL_FILE
    skill.write_text(skill.read_text() + "# a comment\n")
    return repo


def test_strict_changed_since_says_the_error_outside_the_change(tmp_path, monkeypatch):
    repo = _repository_with_an_old_warning(tmp_path)
    monkeypatch.chdir(repo)
    code, output, summary = summary_of(
        tmp_path, "--strict", "--changed-since", "HEAD", "compendium"
    )
    assert code == 1
    lines = output.splitlines()
    assert lines[0].startswith("::error title=rulepress::1 error is in files this change")
    (said,) = [line for line in lines if "RP209" in line]
    assert said.startswith("::error title=RP209")  # no file=: it annotates no line
    assert f"compendium/{WEAPON_FILE}:" in said
    assert "1 error is in files this change does not touch" in summary


def test_an_error_outside_the_change_is_said_past_the_annotation_cap(tmp_path):
    build_tree(tmp_path, base_tree())
    changed_file, other = tmp_path / "changed.yaml", tmp_path / "other.yaml"
    findings = [Finding(Level.ERROR, "RP101", f"in {n}", changed_file, n, 1) for n in range(1, 13)]
    findings.append(Finding(Level.ERROR, "RP203", "outside", other, 1, 1))
    validation = replace(validate(tmp_path), findings=tuple(findings))
    lines = format_findings(
        validation, "github", tmp_path, changed={changed_file.resolve()}
    ).splitlines()
    # said first, so GitHub's cap of ten errors a step cannot hide it
    assert lines[0].startswith(
        "::error title=rulepress::1 error is in files this change does not touch "
        "(it fails the check too)"
    )
    assert sum(line.startswith("::error file=changed.yaml") for line in lines) == 10
    assert lines[-1].startswith("::notice title=rulepress::3 more findings not annotated")


# --- Within GitHub's limits -----------------------------------------------------------------


def _many_findings(tmp_path: Path, count: int) -> list[Finding]:
    long = "a message as long as a real one, quoting the value it is about, " * 2
    return [
        Finding(Level.WARNING if n % 3 else Level.ERROR, "RP209", f"{long}{n}",
                tmp_path / f"demo/weapons/w{n}.yaml", n, 1)
        for n in range(count)
    ]  # fmt: skip


def _cut_count(text: str) -> int:
    (found,) = re.findall(r"\*\*(\d+) more (?:findings|changes) not shown\*\*", text)
    return int(found)


def test_a_summary_of_70k_findings_stays_within_1_mib_and_says_what_it_cut(tmp_path):
    build_tree(tmp_path, base_tree())
    findings = _many_findings(tmp_path, 70_000)
    validation = replace(validate(tmp_path), findings=tuple(findings))
    summary = tmp_path / "summary.md"
    write_step_summary(summary, validation, tmp_path)
    text = summary.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < SUMMARY_LIMIT
    rows = [line for line in text.splitlines() if line.startswith(("| error", "| warning"))]
    assert len(rows) + _cut_count(text) == 70_000
    assert "rulepress validate" in text.split("more findings not shown")[1]  # where the rest is


def test_what_the_step_wrote_before_counts_toward_the_limit(tmp_path):
    build_tree(tmp_path, base_tree())
    validation = replace(validate(tmp_path), findings=tuple(_many_findings(tmp_path, 20_000)))
    summary = tmp_path / "summary.md"
    summary.write_bytes(b"x" * 900_000 + b"\n")
    write_step_summary(summary, validation, tmp_path)
    assert summary.stat().st_size < SUMMARY_LIMIT
    assert summary.read_text(encoding="utf-8").startswith("x" * 900_000 + "\n## rulepress")


def test_a_comment_of_3000_new_traits_stays_within_65536_characters(tmp_path):
    changes = [
        Change("demo", "trait", f"trait-{n}", "added", f"new trait: Trait number {n:04} of many")
        for n in range(3000)
    ]
    comment = format_changes(changes, "markdown", "origin/main", "HEAD")
    assert len(comment) <= COMMENT_LIMIT
    items = [line for line in comment.splitlines() if line.startswith("- ")]
    assert len(items) + _cut_count(comment) == 3000
    assert items[-1].startswith("- new trait: Trait number")
    assert "rulepress diff origin/main HEAD" in visible(rendered(comment))


def test_the_cut_line_names_hostile_revisions_in_one_code_span():
    """NEW may be the pull request's branch name: in the command it stays literal."""
    new = "x`` @org/team <img src=x> GH-1"
    changes = [
        Change("demo", "trait", f"t{n}", "added", "new trait: " + "x" * 60) for n in range(2000)
    ]
    comment = format_changes(changes, "markdown", "main", new)
    page = rendered(comment.splitlines()[-1])
    (command,) = re.findall(r"<code>(.*?)</code>", page)
    assert html.unescape(command) == f"rulepress diff main '{new}'"
    assert "<img" not in page
