"""rulepress installed in a content repository the way its contributors install it: a
fresh `rulepress init` repository, committed, whose `pre-commit run --all-files` passes,
with rulepress taken from a package index, as `requirements.txt` names it.

The index is this machine's own, and nothing leaves it: a PEP 503 "simple" folder
(`simple/<name>/<files>`) served by `http.server` on 127.0.0.1 in a thread, holding the
wheel built from this checkout, the wheels of rulepress's dependencies repacked from this
environment's site-packages (what pip installed here, file for file, as the wheel it came
from), and setuptools from virtualenv's own embedded wheels (pip builds pre-commit's
placeholder package for a local hook with it, and rulepress's wheel). pip is pointed at
it with PIP_INDEX_URL, which pre-commit's pip inherits, its configuration files are not
read, and every proxy variable names a closed port on 127.0.0.1: a request for any other
host fails. The repacked wheels are kept in pytest's cache folder across runs, by the
dependencies' names and versions; rulepress's own wheel is built anew each time.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from packaging.markers import Marker

from rulepress import __version__
from tests.helpers import copy_package_sources, require_tool

WHEELHOUSE_FORMAT = 1
"""Part of the cache's key: a change to how the wheels are repacked makes them anew."""
NAME_SEPARATORS = re.compile(r"[-_.]+")
LEFT_OUT = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}
"""What pip adds to a dist-info when it installs a wheel (RECORD is written anew)."""


def canonical(name: str) -> str:
    """A project's name as a simple index's folder names it (PEP 503)."""
    return NAME_SEPARATORS.sub("-", name).lower()


def dependencies(name: str = "rulepress") -> list[metadata.Distribution]:
    """The installed distributions `name` needs, with theirs, without extras."""
    found: dict[str, metadata.Distribution] = {}
    wanted = [name]
    while wanted:
        project = canonical(wanted.pop())
        if project in found:
            continue
        found[project] = distribution = metadata.distribution(project)
        for requirement in distribution.requires or []:
            needed, _, marker = requirement.partition(";")
            if marker.strip() and not Marker(marker).evaluate({"extra": ""}):
                continue
            wanted.append(re.match(r"[A-Za-z0-9._-]+", needed.strip())[0])
    del found[canonical(name)]
    return [found[project] for project in sorted(found)]


def repack(distribution: metadata.Distribution, folder: Path) -> Path:
    """The wheel an installed `distribution` came from, written into `folder`: the files
    its RECORD lists in site-packages (not its scripts, which pip writes anew from the
    entry points, nor bytecode), under the tags its WHEEL file names."""
    info = Path(distribution._path)
    tags = [
        line.split(":", 1)[1].strip()
        for line in (info / "WHEEL").read_text(encoding="utf-8").splitlines()
        if line.startswith("Tag:")
    ]
    python, abi, platform = (".".join(sorted({t.split("-")[i] for t in tags})) for i in range(3))
    name = NAME_SEPARATORS.sub("_", distribution.metadata["Name"]).lower()
    dist_info = f"{name}-{distribution.version}.dist-info"
    wheel = folder / f"{name}-{distribution.version}-{python}-{abi}-{platform}.whl"
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for file in distribution.files or []:
            path = file.as_posix()
            if path.startswith("..") or "__pycache__" in path or path.endswith(".pyc"):
                continue
            top, _, rest = path.partition("/")
            if top == info.name:
                if rest in LEFT_OUT:
                    continue
                path = f"{dist_info}/{rest}"
            data = (info.parent / file).read_bytes()
            archive.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append(f"{path},sha256={digest.decode()},{len(data)}")
        record.append(f"{dist_info}/RECORD,,")
        archive.writestr(f"{dist_info}/RECORD", "\n".join(record) + "\n")
    return wheel


def embedded_wheels() -> Path:
    """virtualenv's own wheels of pip and setuptools (pre-commit needs virtualenv)."""
    from virtualenv.seed.wheels import embed

    return Path(embed.__file__).parent


def cached_wheelhouse(request, tmp_path_factory) -> Path:
    """The dependencies' wheels, repacked once per set of names and versions."""
    installed = dependencies()
    names = [(d.metadata["Name"], d.version) for d in installed]
    described = (WHEELHOUSE_FORMAT, sys.implementation.cache_tag, sys.platform, *names)
    key = hashlib.sha256(repr(described).encode()).hexdigest()[:16]
    cache = request.config.cache
    root = cache.mkdir("installable-wheelhouse") if cache else tmp_path_factory.mktemp("wh")
    house = root / key
    if not house.is_dir():
        for stale in root.iterdir():
            shutil.rmtree(stale, ignore_errors=True)
        making = root / f".{key}.partial"
        shutil.rmtree(making, ignore_errors=True)
        making.mkdir()
        for distribution in installed:
            repack(distribution, making)
        making.rename(house)
    return house


class LoggedHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the index folder, and notes each path asked for on the server."""

    def log_message(self, format, *args):
        """Note the request (nothing on stderr)."""
        self.server.requested.append(self.path)


def offline_environment(tmp: Path, index_url: str) -> dict[str, str]:
    """This process's environment with pip and virtualenv reading no configuration, pip
    using only the local index, and no way out of the machine but to 127.0.0.1."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.upper().startswith(("PIP_", "VIRTUALENV_", "PRE_COMMIT", "RULEPRESS_"))
        and name.lower() not in ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
    }
    closed = "http://127.0.0.1:9"  # the discard port: nothing listens
    env.update(
        PIP_CONFIG_FILE=os.devnull,
        PIP_INDEX_URL=index_url,
        PIP_NO_CACHE_DIR="1",
        PIP_NO_COMPILE="1",  # no bytecode: the hooks run once
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        VIRTUALENV_CONFIG_FILE=os.devnull,
        VIRTUALENV_NO_PERIODIC_UPDATE="1",
        VIRTUALENV_OVERRIDE_APP_DATA=str(tmp / "virtualenv-data"),
        PRE_COMMIT_HOME=str(tmp / "pre-commit-home"),
        http_proxy=closed,
        https_proxy=closed,
        all_proxy=closed,
        no_proxy="127.0.0.1",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@t",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@t",
    )
    return env


def _checked(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def local_index(request, tmp_path_factory):
    """The index's URL, the paths it was asked for, and the offline environment."""
    require_tool(shutil.which("git") is not None, "git", needs="Debian's git")
    tmp = tmp_path_factory.mktemp("installable")
    source = tmp / "source"
    source.mkdir()
    copy_package_sources(source)
    simple = tmp / "index" / "simple"
    env = offline_environment(tmp, "http://127.0.0.1:9/none/")  # no index while building
    built = tmp / "built"
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index"]
    offline = ["--find-links", str(embedded_wheels()), "--wheel-dir", str(built)]
    _checked([*pip_wheel, *offline, str(source)], env=env)
    wheels = [
        *built.glob("rulepress-*.whl"),
        *cached_wheelhouse(request, tmp_path_factory).iterdir(),
    ]
    wheels += embedded_wheels().glob("setuptools-*.whl")
    for wheel in wheels:
        project = simple / canonical(wheel.name.split("-")[0])
        project.mkdir(parents=True, exist_ok=True)
        shutil.copy2(wheel, project / wheel.name)
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0),
        lambda *args: LoggedHandler(*args, directory=str(simple.parent)),
    )
    server.requested = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/simple/"
    try:
        yield {"url": url, "requested": server.requested, "env": offline_environment(tmp, url)}
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def content(local_index, tmp_path_factory) -> Path:
    """A repository `rulepress init` wrote, naming this rulepress's version, committed."""
    require_tool(
        shutil.which("pre-commit", path=str(Path(sys.executable).parent)) is not None,
        "pre-commit",
        needs="the `test` extra",
    )
    folder = tmp_path_factory.mktemp("content") / "my-rules"
    env = local_index["env"]
    _checked(
        [sys.executable, "-m", "rulepress", "init", str(folder), "--rulepress-from", __version__],
        env=env,
    )
    _checked(["git", "init", "-q", "-b", "main"], cwd=folder, env=env)
    _checked(["git", "add", "-A"], cwd=folder, env=env)
    _checked(["git", "commit", "-qm", "rulepress init"], cwd=folder, env=env)
    return folder


def pre_commit(content: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """`pre-commit run --all-files` in `content`, as a contributor runs it."""
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color=never"],
        cwd=content,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_the_hooks_install_rulepress_from_the_index_and_pass(content, local_index):
    requirement = f"rulepress=={__version__}"
    assert (content / "requirements.txt").read_text().splitlines()[-1] == requirement
    result = pre_commit(content, local_index["env"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^rulepress fmt --check\.+Passed$", result.stdout, re.M), result.stdout
    assert re.search(r"^rulepress validate\.+Passed$", result.stdout, re.M), result.stdout
    # pip found rulepress on the index, and took this checkout's wheel from it
    requested = local_index["requested"]
    assert "/simple/rulepress/" in requested
    assert f"/simple/rulepress/rulepress-{__version__}-py3-none-any.whl" in requested


def test_the_installed_hooks_refuse_what_rulepress_refuses(content, local_index):
    """The hooks run the real rulepress: a file out of canonical form fails the check."""
    rule = next((content / "compendium").glob("*/rules/welcome.yaml"))
    data = yaml.safe_load(rule.read_text(encoding="utf-8"))
    rule.write_text("# hand-written, keys out of order\n" + yaml.safe_dump(data, sort_keys=True))
    _checked(["git", "commit", "-qam", "out of order"], cwd=content, env=local_index["env"])
    result = pre_commit(content, local_index["env"])
    assert result.returncode == 1, result.stdout + result.stderr
    assert re.search(r"^rulepress fmt --check\.+Failed$", result.stdout, re.M), result.stdout
    assert f"would reformat compendium/{rule.parent.parent.name}/rules/welcome.yaml" in (
        result.stdout
    )
