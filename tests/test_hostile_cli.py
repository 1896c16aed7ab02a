"""Hostile and careless command lines: output folders, git history, `import wiki`, `new`,
`serve`, and arguments a tired user types. Each case runs the real command line (no
traceback, the exit code) and checks what it must not have touched."""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulepress.exporters.output import MARKER_NAME
from tests.conftest import REPO, build_tree
from tests.test_broken_inputs import base_tree
from tests.test_cli import run


def run_with(*args: str, cwd: Path, env: dict | None = None, limit_file_size: int = 0):
    """`run`, with a changed environment or a limit on the size of files it may write
    (a real write error: Python ignores SIGXFSZ, so a write past it fails with EFBIG)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    result = subprocess.run(
        [sys.executable, "-m", "rulepress", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        preexec_fn=limit if limit_file_size else None,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in result.stdout + result.stderr
    return result


def files_of(folder: Path) -> dict[str, bytes | str]:
    """Every file's bytes, every folder and link below `folder`: what must stay as it was."""
    return {
        p.relative_to(folder).as_posix(): (
            f"-> {os.readlink(p)}" if p.is_symlink() else p.read_bytes() if p.is_file() else "/"
        )
        for p in sorted(folder.rglob("*"))
    }


# --- build: a build replaces only what a build wrote ------------------------------------------


@pytest.fixture
def demo(tmp_path) -> Path:
    return build_tree(tmp_path / "c", base_tree())


def test_build_into_a_repository_root_keeps_its_own_site_sources(tmp_path):
    repo = tmp_path / "repo"
    build_tree(repo, {"compendium/" + k: v for k, v in base_tree().items()})
    build_tree(repo, {"site/home.md": "# our own page\n", "site/extra.css": "p {}\n"})
    before = files_of(repo)
    result = run("build", "--out", ".", "--target", "site", "--target", "json", cwd=repo)
    assert result.returncode == 2, result.stderr
    assert "refusing to replace site: rulepress did not write it" in result.stderr
    assert "move it away or choose another --out" in result.stderr
    assert files_of(repo) == before  # nothing written, not even the lock or json/


def test_build_keeps_a_users_own_folder_named_like_a_target(tmp_path, demo):
    mine = build_tree(tmp_path / "out/json", {"notes.json": '{"mine": true}\n'})
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "json")
    assert result.returncode == 2
    assert f"refusing to replace {mine}" in result.stderr
    assert files_of(mine) == {"notes.json": b'{"mine": true}\n'}


def test_an_output_of_an_older_build_without_the_mark_is_refused_with_what_to_do(tmp_path, demo):
    old = build_tree(tmp_path / "dist/markdown", {"demo.md": "# Demo\n"})
    result = run("build", str(demo), "--out", str(tmp_path / "dist"), "--target", "markdown")
    assert result.returncode == 2
    assert "an output of an older rulepress has no mark either: delete it once" in result.stderr
    assert files_of(old) == {"demo.md": b"# Demo\n"}


def test_a_build_replaces_its_own_output_whole_and_marks_it(tmp_path, demo):
    out = tmp_path / "dist"
    assert run("build", str(demo), "--out", str(out), "--target", "json").returncode == 0
    assert (out / "json" / MARKER_NAME).read_text() == "rulepress build output: json\n"
    (out / "json/stale.json").write_text("{}")
    assert run("build", str(demo), "--out", str(out), "--target", "json").returncode == 0
    assert sorted(files_of(out / "json")) == [MARKER_NAME, "demo.json"]


def test_a_target_that_is_a_link_to_a_users_folder_is_not_replaced(tmp_path, demo):
    mine = build_tree(tmp_path / "mine", {"keep.txt": "keep\n"})
    (tmp_path / "out").mkdir()
    (tmp_path / "out/json").symlink_to(mine)
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "json")
    assert result.returncode == 2
    assert "error: refusing to " in result.stderr
    assert (tmp_path / "out/json").is_symlink() and files_of(mine) == {"keep.txt": b"keep\n"}


def test_a_link_with_a_forged_mark_inside_the_output_folder_is_not_followed(tmp_path, demo):
    mine = build_tree(tmp_path / "out/mine", {MARKER_NAME: "rulepress build output: json\n"})
    (tmp_path / "out/json").symlink_to("mine")
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "json")
    assert result.returncode == 2
    assert "it is a symbolic link, not an output rulepress wrote" in result.stderr
    assert (tmp_path / "out/json").is_symlink() and sorted(files_of(mine)) == [MARKER_NAME]


def test_a_target_that_is_a_file_is_not_replaced(tmp_path, demo):
    build_tree(tmp_path / "out", {"json": "my notes\n"})
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "json")
    assert result.returncode == 2
    assert "it is not a folder, not an output rulepress wrote" in result.stderr
    assert (tmp_path / "out/json").read_text() == "my notes\n"


def test_a_mark_that_is_a_named_pipe_is_refused_without_blocking(tmp_path, demo):
    (tmp_path / "out/json").mkdir(parents=True)
    os.mkfifo(tmp_path / "out/json" / MARKER_NAME)
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "json")
    assert result.returncode == 2
    assert "rulepress did not write it" in result.stderr


def test_a_mark_naming_another_target_does_not_count(tmp_path, demo):
    site = build_tree(tmp_path / "out/site", {MARKER_NAME: "rulepress build output: json\n"})
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "site")
    assert result.returncode == 2
    assert "rulepress did not write it" in result.stderr
    assert sorted(files_of(site)) == [MARKER_NAME]


def test_build_into_the_file_system_root_is_refused(demo):
    result = run("build", str(demo), "--out", "/", "--target", "json")
    leftovers = [p for p in (Path("/json"), Path("/.rulepress-build.lock")) if p.exists()]
    assert result.returncode == 2 and "file system's root" in result.stderr
    assert not leftovers


def test_build_into_a_folder_inside_the_compendium_is_refused(tmp_path, demo):
    result = run("build", str(demo), "--out", str(demo / "demo/dist"), "--target", "json")
    assert result.returncode == 2 and "overlaps the compendium" in result.stderr
    assert not (demo / "demo/dist").exists()


@contextlib.contextmanager
def immutable(folder: Path) -> Iterator[None]:
    """`chattr +i`: even root cannot rename the folder. Skips where the file system or
    the process cannot set the flag."""
    done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"chattr +i is not possible here: {done.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_an_output_folder_that_cannot_be_moved_is_named_and_left_as_it_was(tmp_path, demo):
    out = tmp_path / "dist"
    assert run("build", str(demo), "--out", str(out), "--target", "json").returncode == 0
    before = files_of(out / "json")
    with immutable(out / "json"):
        result = run("build", str(demo), "--out", str(out), "--target", "json", "--force")
    assert result.returncode == 2
    assert f"error: cannot write output {out / 'json'}: {out / 'json'}: " in result.stderr
    assert "Operation not permitted; its previous output is left as it was" in result.stderr
    assert files_of(out / "json") == before
    assert sorted(p.name for p in out.iterdir()) == [".rulepress-build.lock", "json"]


def test_a_write_error_while_exporting_names_the_file_and_keeps_the_previous_output(tmp_path):
    out = tmp_path / "dist"
    assert run("build", "--out", str(out), "--target", "json").returncode == 0
    before = files_of(out / "json")
    result = run_with(
        "build", "--out", str(out), "--target", "json", "--no-cache", cwd=REPO,
        limit_file_size=4096,
    )  # fmt: skip
    assert result.returncode == 2
    assert f"error: cannot write output {out / 'json'}: {out}/.json.staging-" in result.stderr
    assert ": File too large; its previous output is left as it was" in result.stderr
    assert files_of(out / "json") == before
    assert sorted(p.name for p in out.iterdir()) == [".rulepress-build.lock", "json"]
