"""rulepress as a publisher gets it: built into an sdist and a wheel, installed with its
dependencies into a fresh virtual environment outside this repository, and run on a copy
of the bundled compendium in a folder of its own.

Every Python process of that environment (the commands and the mkdocs they start) runs
with an audit hook, installed by a `.pth` file, that logs each file or folder it opens
inside this repository: the test fails on the first one, so nothing rulepress needs at
run time can stay outside the package.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
from pathlib import Path

import pytest
from helpers import COMPENDIUM, REPO

from tests.helpers import copy_package_sources, venv_environment

RULESETS = sorted(child.name for child in COMPENDIUM.iterdir() if child.is_dir())
# What the package is built from: what the sdist holds, nothing else of the checkout.
GUARD = '''\
"""Logs every file or folder a process opens below $RULEPRESS_GUARDED_FOLDER."""
import os
import sys

_folder = os.environ.get("RULEPRESS_GUARDED_FOLDER")
if _folder:
    _log = os.open(os.environ["RULEPRESS_GUARD_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    _inside = _folder.rstrip(os.sep) + os.sep

    def _guard(event, args):
        if event in ("open", "os.listdir", "os.scandir") and args and args[0] is not None:
            path = args[0]
            if isinstance(path, int):
                return
            path = os.path.abspath(os.fsdecode(path))
            if path == _folder or path.startswith(_inside):
                os.write(_log, f"{event} {path} ({sys.argv!r})\\n".encode("utf-8", "replace"))

    sys.addaudithook(_guard)
'''


def _quiet_run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """A virtual environment holding the wheel built from the sdist, and the environment
    variables of a user who runs its `rulepress` outside this repository."""
    root = tmp_path_factory.mktemp("installed")
    source = root / "source"
    source.mkdir()
    copy_package_sources(source)
    packages = root / "packages"
    # the sdist, then the wheel built from the unpacked sdist: both must carry everything
    built = _quiet_run(
        [sys.executable, "-m", "build", "--outdir", str(packages), str(source)], timeout=600
    )
    assert "SetuptoolsDeprecationWarning" not in built.stdout + built.stderr
    (wheel,) = packages.glob("rulepress-*.whl")
    (sdist,) = packages.glob("rulepress-*.tar.gz")
    with tarfile.open(sdist) as archive:  # the docs' example plugin ships in it, whole
        example = {n.split("/", 1)[1] for n in archive.getnames() if "/examples/" in n}
    assert "examples/oracle-plugin/rulepress_oracle/__init__.py" in example
    assert not [name for name in example if "__pycache__" in name]

    venv = root / "venv"
    _quiet_run([sys.executable, "-m", "venv", "--without-pip", str(venv)], timeout=120)
    python = venv / "bin" / "python"
    # this environment's pip installs into the new one, from the index it is configured with
    _quiet_run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", str(wheel)],
        timeout=900,
    )
    purelib = _quiet_run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    ).stdout.strip()
    (Path(purelib) / "repository_guard.py").write_text(GUARD, encoding="utf-8")
    (Path(purelib) / "repository_guard.pth").write_text("import repository_guard\n")

    env = venv_environment(venv, root / "cache")
    env.update(
        RULEPRESS_GUARDED_FOLDER=str(REPO),
        RULEPRESS_GUARD_LOG=str(root / "read-from-the-repository.log"),
    )
    work = root / "content"
    shutil.copytree(COMPENDIUM, work / "compendium")
    return {"venv": venv, "env": env, "work": work, "log": root / "read-from-the-repository.log"}


def _rulepress(
    installed: dict, *args: str, seconds: float = 300, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [str(installed["venv"] / "bin" / "rulepress"), *args],
        cwd=cwd or installed["work"],
        env=installed["env"],
        capture_output=True,
        text=True,
        timeout=seconds,
    )
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result


def _assert_nothing_read_from_the_repository(installed: dict) -> None:
    log = installed["log"]
    opened = log.read_text(encoding="utf-8") if log.exists() else ""
    assert opened == "", f"read from the repository:\n{opened}"


def test_the_installed_module_is_the_wheels(installed):
    found = _quiet_run(
        [
            str(installed["venv"] / "bin" / "python"),
            "-c",
            "import rulepress; print(rulepress.__file__)",
        ],
        cwd=installed["work"],
        env=installed["env"],
    ).stdout.strip()
    assert Path(found).is_relative_to(installed["venv"]), found
    assert not Path(found).is_relative_to(REPO), found
    _assert_nothing_read_from_the_repository(installed)


def test_validate_and_build_every_target_outside_the_repository(installed):
    validated = _rulepress(installed, "validate")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert "0 errors" in validated.stdout

    built = _rulepress(installed, "build", seconds=600)
    assert built.returncode == 0, built.stdout + built.stderr
    dist = installed["work"] / "dist"
    for target in ("foundry", "markdown", "site", "json"):
        assert f"wrote dist/{target}" in built.stdout, built.stdout
    for ruleset in RULESETS:
        assert (dist / "foundry" / f"rulepress-{ruleset}" / "module.json").is_file()
        assert any((dist / "foundry" / f"rulepress-{ruleset}" / "packs").iterdir())
        assert (dist / "markdown" / f"{ruleset}.md").stat().st_size > 0
        assert (dist / "json" / f"{ruleset}.json").stat().st_size > 0
        assert (dist / "site" / ruleset / "index.html").is_file()
    # the site's assets and home-page text, shipped as package data
    home = (dist / "site" / "index.html").read_text(encoding="utf-8")
    assert "stylesheets/extra.css" in home
    assert (dist / "site" / "stylesheets" / "extra.css").stat().st_size > 0
    assert (dist / "site" / "javascripts" / "iframe-worker-shim.js").stat().st_size > 0
    intro = (REPO / "rulepress/exporters/site/assets/home.md").read_text(encoding="utf-8")
    assert intro.splitlines()[0].lstrip("# ") in home
    for output in dist.rglob("*"):
        if output.is_file() and output.suffix in (".html", ".md", ".json", ".yml", ".js", ".css"):
            assert str(REPO) not in output.read_text(encoding="utf-8", errors="replace"), output
    _assert_nothing_read_from_the_repository(installed)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_outside_the_repository_serves_a_page(installed):
    address = f"127.0.0.1:{_free_port()}"
    server = subprocess.Popen(
        [str(installed["venv"] / "bin" / "rulepress"), "serve", "-a", address],
        cwd=installed["work"],
        env=installed["env"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        page, deadline = None, time.monotonic() + 300
        while page is None and time.monotonic() < deadline:
            assert server.poll() is None, server.stdout.read()
            try:
                with urllib.request.urlopen(f"http://{address}/iris/index.html", timeout=10) as r:
                    page = r.read().decode("utf-8")
            except OSError:
                time.sleep(1)
        assert page is not None, "the preview served no page within 300 s"
        assert "IRIS" in page or "iris" in page
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    _assert_nothing_read_from_the_repository(installed)


def test_init_then_validate_and_build_outside_the_repository(installed, tmp_path):
    """A new publisher's first steps: `rulepress init my-rules`, then validate and build."""
    title = "Installed Rules"
    initialised = _rulepress(
        installed, "init", "my-rules", "--title", title, "--github", "me/my-rules", cwd=tmp_path
    )
    assert initialised.returncode == 0, initialised.stdout + initialised.stderr
    content = tmp_path / "my-rules"
    for name in (".gitignore", ".pre-commit-config.yaml", ".github/workflows/release.yml"):
        assert (content / name).is_file(), name
    assert f"title: {title}" in (content / "rulepress.yaml").read_text(encoding="utf-8")

    validated = _rulepress(installed, "validate", "--strict", cwd=content)
    assert validated.returncode == 0, validated.stdout + validated.stderr
    built = _rulepress(installed, "build", cwd=content, seconds=600)
    assert built.returncode == 0, built.stdout + built.stderr
    dist = content / "dist"
    assert (dist / "site" / "my-rules" / "index.html").is_file()
    assert (dist / "markdown" / "my-rules.md").stat().st_size > 0
    assert (dist / "json" / "my-rules.json").stat().st_size > 0
    assert (dist / "foundry" / "me-my-rules.zip").is_file()
    module = json.loads(
        (dist / "foundry" / "me-my-rules" / "module.json").read_text(encoding="utf-8")
    )
    assert module["title"] == title
    releases = "https://github.com/me/my-rules/releases"
    assert module["manifest"] == f"{releases}/latest/download/me-my-rules.json"
    assert module["download"] == f"{releases}/download/v0.1.0/me-my-rules.zip"
    # the site has the settings' title and address, and carries the downloads
    home = (dist / "site" / "index.html").read_text(encoding="utf-8")
    assert f"<title>{title}</title>" in home
    assert '<link rel="canonical" href="https://me.github.io/my-rules/index.html">' in home
    for name in ("my-rules.md", "me-my-rules.zip", "my-rules.json"):
        assert (dist / "site" / "downloads" / name).is_file(), name
    guide = (dist / "markdown" / "my-rules.md").read_text(encoding="utf-8")
    assert guide.startswith("# ")
    _assert_nothing_read_from_the_repository(installed)
