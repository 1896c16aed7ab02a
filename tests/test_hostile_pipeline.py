"""The example pull-request workflow gives the untrusted pull request no power to write:
the job that checks it out and runs rulepress holds a read-only token, and the job that
may comment runs nothing of the pull request."""

from __future__ import annotations

import yaml

from tests.conftest import REPO

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
