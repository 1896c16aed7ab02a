"""`validate --format github --changed-since REF`: annotations at their place only for the
files changed since a git revision (an error elsewhere said without a place), ten per
level at most, and the whole list as a Markdown table in $GITHUB_STEP_SUMMARY (every
finding: a change can break a file it does not touch)."""

from __future__ import annotations

import os
from pathlib import Path

from rulepress.commands.validate import github_annotations, step_summary
from rulepress.errors import Finding, Level
from rulepress.validation import validate
from tests.helpers import (
    SKILL_FILE,
    WEAPON_FILE,
    base_tree,
    build_tree,
    commit_all,
    git,
    run,
    weapon,
)


def _falls(text: str, ap: int) -> str:
    """`text` with the damage at `ap` made lower than the row before (an RP209 warning)."""
    return text.replace(f"{{ap: {ap}, damage: {ap},", f"{{ap: {ap}, damage: 1,", 1)


def _repository(tmp_path: Path) -> Path:
    """A git repository holding a small compendium whose weapon already has one warning;
    committed, then one other file changed and a new untracked one added."""
    repo = tmp_path / "repo"
    build_tree(repo / "compendium", {**base_tree(), WEAPON_FILE: _falls(weapon(), 5)})
    git(repo, "init", "-q")
    commit_all(repo, "start")
    skill = repo / "compendium" / SKILL_FILE
    skill.write_text(skill.read_text() + "nickname: Bio | Lore\n")  # an unknown field
    return repo


def _env(summary: Path) -> dict[str, str]:
    return {**os.environ, "GITHUB_STEP_SUMMARY": str(summary)}


def test_only_the_changed_file_is_annotated_and_the_summary_table_is_written(tmp_path):
    repo = _repository(tmp_path)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    result = run(
        "validate", "--format", "github", "--changed-since", "HEAD", "compendium",
        cwd=repo, env=_env(summary),
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    (placed,) = [line for line in lines if " file=" in line]
    assert placed.startswith(f"::error file=compendium/{SKILL_FILE},line=")
    assert "RP101" in placed
    # the section naming the broken skill fails the check too: said, without a place
    assert lines[0].startswith("::error title=rulepress::1 error is in files this change")
    assert lines[-1].startswith(
        "::error title=RP203 dangling-reference::compendium/demo/sections/pistols.yaml:5:8: "
    )
    table = summary.read_text()
    assert table.startswith("earlier step\n## rulepress validate\n")  # appended
    assert "| Level | Code | Where | Message |" in table
    # the whole list: the unannotated findings of unchanged files too (the section that
    # names the broken skill, the weapon's old warning)
    rows = [row.split(" | ")[2] for row in table.splitlines() if row.startswith("| ")][2:]
    assert sorted(row.split(":")[0] for row in rows) == [
        "compendium/demo/sections/pistols.yaml",
        f"compendium/{SKILL_FILE}",
        f"compendium/{WEAPON_FILE}",
    ]


def test_without_changed_since_every_file_is_annotated(tmp_path):
    repo = _repository(tmp_path)
    result = run("validate", "--format", "github", "compendium", cwd=repo, env=_env(tmp_path / "s"))
    assert {line.split(",", 1)[0] for line in result.stdout.splitlines()} == {
        f"::error file=compendium/{SKILL_FILE}",
        "::error file=compendium/demo/sections/pistols.yaml",
        f"::warning file=compendium/{WEAPON_FILE}",
    }


def test_an_untracked_file_counts_as_changed(tmp_path):
    repo = _repository(tmp_path)
    commit_all(repo, "skill")
    build_tree(
        repo / "compendium",
        {
            "demo/weapons/zip-gun.yaml": _falls(weapon(), 7)
            .replace("test-pistol", "zip-gun")
            .replace("Test Pistol", "Zip Gun")
            .replace("tier: 1", "tier: 2")
        },
    )
    result = run(
        "validate", "--format", "github", "--changed-since", "HEAD", "compendium", cwd=repo
    )
    # A warning (RP209) and a notice (RP225: tier 2 below tier 1 there), both in zip-gun,
    # annotated there; the committed skill's errors are said without a place.
    placed = [line for line in result.stdout.splitlines() if " file=" in line]
    assert len(placed) == 2
    files = {line.split(",", 1)[0].split(" ", 1)[1] for line in placed}
    assert files == {"file=compendium/demo/weapons/zip-gun.yaml"}, result.stdout


def test_an_unknown_revision_is_a_usage_error(tmp_path):
    repo = _repository(tmp_path)
    result = run("validate", "--format", "github", "--changed-since", "no-such-ref", cwd=repo)
    assert result.returncode == 2
    assert "cannot compare with 'no-such-ref'" in result.stderr


def test_ten_annotations_per_level_then_a_notice_of_the_rest():
    findings = [
        Finding(level, "RP209", f"finding {n}", Path(f"f{n}.yaml"), 1, 1)
        for level in (Level.ERROR, Level.WARNING)
        for n in range(13)
    ]
    lines = github_annotations(findings).splitlines()
    assert sum(line.startswith("::error ") for line in lines) == 10
    assert sum(line.startswith("::warning ") for line in lines) == 10
    assert lines[-1].startswith("::notice title=rulepress::6 more findings not annotated")


def test_summary_cells_escape_bars_line_breaks_and_markup(tmp_path):
    build_tree(tmp_path, base_tree())
    message = "a | b\nc <script>"
    finding = Finding(Level.WARNING, "RP209", message, tmp_path / "x.yaml", 2, 3)
    table = step_summary(validate(tmp_path), [finding], tmp_path)
    (row,) = [line for line in table.splitlines() if line.startswith("| warning")]
    assert row == r"| warning | RP209 | x.yaml:&#8203;2:&#8203;3 | a \| b\\nc &lt;script> |"
