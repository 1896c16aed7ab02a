"""`rulepress init --rulepress-from SPEC`: where a content repository installs rulepress
from, written once into `requirements.txt` and the pre-commit hooks, with a README link
to a page that exists for that source; refused specs write nothing; without SPEC, the
running rulepress's own source (PEP 610 direct_url.json). The pre-commit client checks
the written config and this repository's hook manifest, which the written hooks match."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulepress import __version__
from rulepress.commands import install_source
from rulepress.commands.init import init_repository
from rulepress.commands.install_source import rulepress_source
from rulepress.errors import RulepressError
from tests.helpers import REPO, require_tool, run

GIT = "git+https://github.com/me/rulepress@v0.2.0"
WHEEL_URL = "https://example.org/dl/rulepress-0.2.0-py3-none-any.whl#sha256=abc123"

SOURCES = [
    ("0.2.0", "rulepress==0.2.0", "https://pypi.org/project/rulepress/0.2.0/"),
    ("rulepress==0.2.0", "rulepress==0.2.0", "https://pypi.org/project/rulepress/0.2.0/"),
    ("rulepress >= 0.2, < 0.3", "rulepress>=0.2,<0.3", "https://pypi.org/project/rulepress/"),
    (GIT, f"rulepress @ {GIT}", "https://github.com/me/rulepress"),
    (f"rulepress @ {GIT}", f"rulepress @ {GIT}", "https://github.com/me/rulepress"),
    (
        "git+https://gitlab.com/me/rulepress.git@0123abc",
        "rulepress @ git+https://gitlab.com/me/rulepress.git@0123abc",
        "https://gitlab.com/me/rulepress",
    ),
    (WHEEL_URL, f"rulepress @ {WHEEL_URL}", WHEEL_URL),
]

REFUSED = [
    ("", "give a version"),
    ("latest", "give a version"),
    ("requests==2.0", "give a version"),
    ("0.2.0\nevil", "give a version"),
    ("git+https://github.com/me/rulepress", "name the revision"),
    ("git+https://me:token@github.com/me/rulepress@v1", "credentials"),
    ("git+ssh://git@github.com/me/rulepress@v1", "https"),
    ("http://example.org/rulepress-0.2.0-py3-none-any.whl", "https"),
    ("https://example.org/other-1.0-py3-none-any.whl", "not the name of a rulepress wheel"),
    ('https://example.org/rulepress-0.2.0-py3-none-any.whl"]', "no space, quote"),
    ("missing/rulepress-0.2.0-py3-none-any.whl", "no such rulepress wheel"),
]


@pytest.mark.parametrize(("spec", "requirement", "link"), SOURCES)
def test_each_form_names_its_requirement_and_a_page(spec, requirement, link):
    source = rulepress_source(spec)
    assert (source.requirement, source.link, source.warning) == (requirement, link, None)


@pytest.mark.parametrize(("spec", "reason"), REFUSED)
def test_a_spec_no_installer_could_use_is_refused(spec, reason):
    with pytest.raises(RulepressError, match=re.escape(reason)):
        rulepress_source(spec)


def test_a_local_wheel_is_a_file_url_with_a_warning(tmp_path):
    wheel = tmp_path / "rulepress-0.2.0-py3-none-any.whl"
    wheel.write_bytes(b"PK")
    source = rulepress_source(str(wheel))
    assert source.requirement == f"rulepress @ {wheel.as_uri()}"
    assert source.link is None and "on this machine only" in source.warning


def written(folder: Path) -> tuple[str, list[str], str]:
    """The requirement of requirements.txt, each hook's dependencies, the README."""
    requirement = (folder / "requirements.txt").read_text().splitlines()[-1]
    config = yaml.safe_load((folder / ".pre-commit-config.yaml").read_text())
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    dependencies = [dep for hook in hooks for dep in hook["additional_dependencies"]]
    return requirement, dependencies, (folder / "README.md").read_text()


@pytest.mark.parametrize(("spec", "requirement", "link"), SOURCES)
def test_init_writes_one_requirement_everywhere_and_links_its_page(
    tmp_path, spec, requirement, link
):
    init_repository(tmp_path / "rules", rulepress=rulepress_source(spec))
    in_requirements, in_hooks, readme = written(tmp_path / "rules")
    assert in_requirements == requirement
    assert in_hooks == [requirement, requirement]
    links = re.findall(r"\]\((https?://[^)]+)\)", readme)
    assert links == [link]  # no other page, none invented
    assert "pypi.org" not in readme or link.startswith("https://pypi.org/")


def test_the_cli_refuses_a_bad_spec_and_writes_nothing(tmp_path):
    result = run("init", "rules", "--rulepress-from", "git+https://x.org/rulepress", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "error: --rulepress-from 'git+https://x.org/rulepress': name the revision: "
        "git+https://HOST/OWNER/rulepress@TAG\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_cli_warns_of_a_source_other_machines_cannot_install(tmp_path):
    wheel = tmp_path / "rulepress-0.2.0-py3-none-any.whl"
    wheel.write_bytes(b"PK")
    result = run("init", "rules", "--rulepress-from", str(wheel), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith(f"warning: {wheel} is on this machine only")
    assert written(tmp_path / "rules")[0] == f"rulepress @ {wheel.as_uri()}"


class Installed:
    """A distribution as importlib.metadata gives it, with pip's direct_url.json."""

    def __init__(self, direct_url: dict | None, version: str = __version__):
        self.version = version
        self.record = json.dumps(direct_url) if direct_url is not None else None

    def read_text(self, name: str) -> str | None:
        return self.record if name == "direct_url.json" else None


RUNNING = [
    (None, f"rulepress=={__version__}", False),
    (
        {
            "url": "https://github.com/me/rulepress",
            "vcs_info": {"vcs": "git", "requested_revision": "v0.2.0", "commit_id": "a" * 40},
        },
        "rulepress @ git+https://github.com/me/rulepress@v0.2.0",
        False,
    ),
    (
        {
            "url": "https://github.com/me/rulepress",
            "vcs_info": {"vcs": "git", "commit_id": "a" * 40},
        },
        f"rulepress @ git+https://github.com/me/rulepress@{'a' * 40}",
        False,
    ),
    ({"url": WHEEL_URL, "archive_info": {}}, f"rulepress @ {WHEEL_URL}", False),
    (
        {"url": "file:///src/rulepress", "dir_info": {"editable": True}},
        f"rulepress=={__version__}",
        True,
    ),
    (
        {"url": "file:///gone/rulepress-0.1.0-py3-none-any.whl", "archive_info": {}},
        f"rulepress=={__version__}",
        True,
    ),
]


@pytest.mark.parametrize(("direct_url", "requirement", "warned"), RUNNING)
def test_without_a_spec_the_running_rulepress_says_where_it_came_from(
    monkeypatch, direct_url, requirement, warned
):
    # a checkout's egg-info (no record, another version) is passed over for pip's record
    found = [Installed(None, version="0.0.0"), Installed(direct_url)]
    monkeypatch.setattr(install_source.metadata, "distributions", lambda name: iter(found))
    source = rulepress_source(None)
    assert source.requirement == requirement
    assert bool(source.warning) == warned
    if warned:
        assert "other machines cannot install" in source.warning


# --- The pre-commit client ----------------------------------------------------------------


def pre_commit() -> list[str]:
    found = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    require_tool(found is not None, "pre-commit", needs="the `test` extra")
    return [found]


def test_pre_commit_accepts_the_written_config_and_this_repositorys_manifest(tmp_path):
    init_repository(tmp_path / "rules", rulepress=rulepress_source(WHEEL_URL))
    config = tmp_path / "rules" / ".pre-commit-config.yaml"
    for command in (
        ["validate-config", str(config)],
        ["validate-manifest", str(REPO / ".pre-commit-hooks.yaml")],
    ):
        checked = subprocess.run([*pre_commit(), *command], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_pre_commit_refuses_a_broken_config(tmp_path):
    """validate-config reads what it is given: the check above can fail."""
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(
        "repos:\n  - repo: local\n    hooks:\n      - id: x\n        language: python\n"
    )
    checked = subprocess.run(
        [*pre_commit(), "validate-config", str(config)], capture_output=True, text=True
    )
    assert checked.returncode == 1


def test_the_written_hooks_are_this_repositorys_hooks(tmp_path):
    init_repository(tmp_path / "rules", rulepress=rulepress_source("0.2.0"))
    config = yaml.safe_load((tmp_path / "rules" / ".pre-commit-config.yaml").read_text())
    written_hooks = {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}
    manifest = {
        hook["id"]: hook for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    }
    assert written_hooks.keys() == manifest.keys()
    for hook_id, hook in manifest.items():
        fields = ("name", "entry", "language", "pass_filenames", "files")
        assert {f: written_hooks[hook_id][f] for f in fields} == {f: hook[f] for f in fields}, (
            hook_id
        )
