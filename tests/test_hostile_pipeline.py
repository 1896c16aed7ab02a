"""A pull request as input to CI: its workflow, its git history.

The example pull-request workflow gives the untrusted pull request no power to write:
the job that checks it out and runs rulepress holds a read-only token, and the job that
may comment runs nothing of the pull request."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulepress.exporters.site import build_epoch
from tests.helpers import REPO, base_tree, build_tree

WORKFLOW = REPO / ".github" / "workflows" / "compendium.yml"


def jobs() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]


def runs_pull_request_code(job: dict) -> bool:
    return any("actions/checkout" in step.get("uses", "") for step in job["steps"])


def test_the_workflow_grants_nothing_by_default():
    assert yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["permissions"] == {}


def test_the_job_that_runs_the_pull_request_can_only_read():
    checking = [job for job in jobs().values() if runs_pull_request_code(job)]
    assert checking
    for job in checking:
        assert set(job["permissions"].values()) == {"read"}
        checkout = next(s for s in job["steps"] if "actions/checkout" in s.get("uses", ""))
        assert checkout["with"]["persist-credentials"] is False


def test_the_job_that_can_write_runs_nothing_of_the_pull_request():
    writing = [job for job in jobs().values() if "write" in job["permissions"].values()]
    assert writing
    for job in writing:
        assert not runs_pull_request_code(job)
        commands = " ".join(step.get("run", "") for step in job["steps"])
        assert "rulepress" not in commands and "pip" not in commands


def test_no_expression_from_the_event_is_pasted_into_a_shell_command():
    """`${{ github.head_ref }}` and the like are attacker-chosen text: they reach a
    script only through an environment variable."""
    for job in jobs().values():
        for step in job["steps"]:
            assert "${{" not in step.get("run", ""), step


# --- The git history's dates --------------------------------------------------------------------


def commit_dated(root: Path, seconds: int) -> None:
    """Commit everything under `root` with author and committer times of `seconds`."""
    when = f"@{seconds} +0000"
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "dated"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *command],
            cwd=root,
            env=env,
            check=True,
            capture_output=True,
        )


def test_a_commit_dated_beyond_the_year_9999_builds_the_site(tmp_path):
    """The site's date comes from the last commit; a committer may claim the year 33658,
    which mkdocs cannot print. Such a time is no date: the site says 1970."""
    root = build_tree(tmp_path / "c", base_tree())
    commit_dated(root, 999_999_999_999)
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    result = subprocess.run(
        [sys.executable, "-m", "rulepress", "build", str(root), "--target", "site"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert (tmp_path / "dist" / "site" / "index.html").is_file()
    assert build_epoch(root) == "0"


@pytest.mark.parametrize("value", ["1e9", "-1", "99999999999999", "１２３"])
def test_a_source_date_epoch_that_is_not_a_date_is_a_usage_error(tmp_path, value):
    root = build_tree(tmp_path / "c", base_tree())
    result = subprocess.run(
        [sys.executable, "-m", "rulepress", "build", str(root), "--target", "site"],
        cwd=tmp_path,
        env={**os.environ, "SOURCE_DATE_EPOCH": value},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 2
    assert "error: SOURCE_DATE_EPOCH must be whole seconds from 0 to 253402300799" in result.stderr
    assert not (tmp_path / "dist" / "site").exists()
