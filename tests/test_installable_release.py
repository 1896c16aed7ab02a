"""rulepress's own release workflow (.github/workflows/release.yml): on a tag v<version>,
the sdist and the wheel are built, and published on PyPI by trusted publishing; a tag
that is not the package's version is refused before anything is built. actionlint and
zizmor lint it with the others (tests/test_hostile_workflows.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.helpers import REPO

WORKFLOW = REPO / ".github" / "workflows" / "release.yml"
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
PUBLISH = "pypa/gh-action-pypi-publish@"


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def test_it_runs_on_a_version_tag_only(workflow):
    # PyYAML reads the key `on` as True
    assert workflow[True] == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {}


def test_the_build_job_checks_the_tag_then_builds_both_and_hands_them_on(workflow):
    build = workflow["jobs"]["build"]
    assert build["permissions"] == {"contents": "read"}
    steps = build["steps"]
    names = [step.get("name", step.get("run", step.get("uses"))) for step in steps]
    check = names.index("Refuse a tag that is not the package's version")
    built = names.index("python -m build --outdir dist")
    assert check < built  # nothing is built for a refused tag
    upload = steps[-1]
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert upload["with"]["name"] == "dist" and upload["with"]["path"] == "dist/"


def test_the_deploy_job_publishes_by_trusted_publishing_and_runs_nothing(workflow):
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"id-token": "write"}  # no token of the repository
    assert deploy["environment"]["name"] == "pypi"
    assert all("run" not in step for step in deploy["steps"])
    uses = [step["uses"] for step in deploy["steps"]]
    assert uses[0].startswith("actions/download-artifact@")
    assert uses[-1].startswith(PUBLISH)
    download = deploy["steps"][0]["with"]
    assert (download["name"], download["path"]) == ("dist", "dist/")
    # no password or API token: the action exchanges the OIDC token
    assert "with" not in deploy["steps"][-1]


def run_tag_check(workflow: dict, tag: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """The step as the runner runs it (`shell: python`: the script as a file, in the
    checkout, with the tag in GITHUB_REF_NAME)."""
    (step,) = [
        s for s in workflow["jobs"]["build"]["steps"] if s.get("name", "").startswith("Refuse")
    ]
    assert step["shell"] == "python"
    script = tmp_path / "tag-check.py"
    script.write_text(step["run"], encoding="utf-8")
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    shutil.copy2(REPO / "pyproject.toml", checkout)
    return subprocess.run(
        [sys.executable, str(script)],
        cwd=checkout,
        env={**os.environ, "GITHUB_REF_NAME": tag},
        capture_output=True,
        text=True,
    )


def test_the_tag_of_the_version_goes_on(workflow, tmp_path):
    checked = run_tag_check(workflow, f"v{VERSION}", tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "::error" not in checked.stdout


@pytest.mark.parametrize("tag", ["v9.9.9", VERSION, f"v{VERSION}rc1", f"v{VERSION}.0"])
def test_a_tag_that_is_not_the_version_is_refused(workflow, tmp_path, tag):
    checked = run_tag_check(workflow, tag, tmp_path)
    assert checked.returncode == 1
    assert checked.stdout.startswith(f"::error::the tag {tag} is not v + the version")
    assert "nothing was published" in checked.stdout


def test_the_installed_wheel_check_compares_the_version_rulepress_prints(workflow):
    """The step's comparison is with what `rulepress --version` prints."""
    step = next(
        s for s in workflow["jobs"]["build"]["steps"] if "rulepress --version" in s.get("run", "")
    )
    printed = subprocess.run(
        [sys.executable, "-m", "rulepress", "--version"], capture_output=True, text=True
    ).stdout.strip()
    assert printed == f"rulepress, version {VERSION}"
    assert '"rulepress, version ${GITHUB_REF_NAME#v}"' in step["run"]
