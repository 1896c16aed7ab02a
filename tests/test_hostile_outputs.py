"""Hostile output folders: links planted in `dist` before or during a build or a watch, the
lock file as a link, a committed `dist` link leading out of the repository, `rm -rf dist`
during a watch, a killed build's staging folder, a build waiting for a watch's lock.
Nothing is ever written (or read, to be published) through a link; each refusal says
what and where; a watch goes on. The watch is driven in-process, one update at a time."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.commands.watch import Watch
from rulepress.exporters import ExportOptions
from rulepress.exporters.output import LOCK_NAME, MARKER_NAME, marker_text, output_lock
from tests.helpers import SKILL_FILE, base_tree, build_tree, run

TARGETS = ("foundry", "markdown", "json")
MODULE = "foundry/rulepress-demo"
LINE_TIMEOUT = 120  # seconds: a hang guard only, never a measure


def files_of(folder: Path) -> dict[str, bytes | str]:
    """Every file's bytes and every link below `folder`: what must stay as it was."""
    return {
        p.relative_to(folder).as_posix(): (
            f"-> {os.readlink(p)}" if p.is_symlink() else p.read_bytes() if p.is_file() else "/"
        )
        for p in sorted(folder.rglob("*"))
    }


def user_folder(tmp_path: Path, name: str = "mine") -> Path:
    """A user's own folder, holding a file named like an output."""
    return build_tree(tmp_path / name, {"demo.json": "my own notes\n", "keep.txt": "mine\n"})


class InProcessWatch:
    """A watch run without its process: the demo tree built into `out`, then followed."""

    def __init__(self, tmp_path: Path) -> None:
        from rulepress.live import LiveCompendium

        self.root = build_tree(tmp_path / "compendium", base_tree())
        self.out = tmp_path / "dist"
        self.live = LiveCompendium(self.root)
        validation, _ = build(self.root, self.out, TARGETS, ExportOptions())
        assert validation.ok
        self.watch = Watch(self.live, self.out, TARGETS, ExportOptions())
        self.watch.prime()
        self.saves = 0

    def save(self) -> list[str]:
        """Save the skill with another name; the problems the update met."""
        self.saves += 1
        skill = self.root / SKILL_FILE
        text = skill.read_text(encoding="utf-8")
        skill.write_text(text.replace("name: Bio Lore", f"name: Bio Lore {self.saves}"))
        update = self.live.update([skill])
        assert update.ok, update.findings
        return self.watch.apply(update)


def fresh(tmp_path: Path, root: Path) -> Path:
    """A fresh build of the files as they stand."""
    out = tmp_path / f"fresh-{len(list(tmp_path.glob('fresh-*')))}"
    validation, _ = build(root, out, TARGETS, ExportOptions())
    assert validation.ok
    return out


def outputs(out: Path) -> dict[str, bytes | str]:
    """The outputs' files (the lock is no output)."""
    return {name: data for name, data in files_of(out).items() if name != LOCK_NAME}


# --- links planted during a watch ---------------------------------------------------------


def test_a_target_folder_swapped_for_a_link_during_a_watch_is_refused(tmp_path):
    watching = InProcessWatch(tmp_path)
    mine = user_folder(tmp_path)
    before = files_of(mine)
    shutil.rmtree(watching.out / "json")
    (watching.out / "json").symlink_to(mine, target_is_directory=True)
    problems = watching.save()
    assert files_of(mine) == before  # the user's demo.json is not replaced
    assert any(p.startswith("json: ") and "symbolic link" in p for p in problems), problems
    assert watching.save() != []  # still refused, still untouched
    assert files_of(mine) == before


def test_a_folder_inside_a_target_swapped_for_a_link_is_never_written_through(tmp_path):
    watching = InProcessWatch(tmp_path)
    mine = user_folder(tmp_path)
    before = files_of(mine)
    sources = watching.out / MODULE / "src"
    shutil.rmtree(sources)
    sources.symlink_to(mine, target_is_directory=True)
    problems = watching.save()
    assert files_of(mine) == before
    assert any("symbolic link" in p and "src" in p for p in problems), problems
    # the next save writes the target whole: the link goes, what it led to stays
    assert watching.save() == []
    assert files_of(mine) == before
    assert not sources.is_symlink()


def test_a_pack_folder_swapped_for_a_link_is_not_opened_by_leveldb(tmp_path):
    watching = InProcessWatch(tmp_path)
    pack = next((watching.out / MODULE / "packs").iterdir())
    elsewhere = tmp_path / "elsewhere-pack"
    shutil.copytree(pack, elsewhere)
    before = files_of(elsewhere)
    shutil.rmtree(pack)
    pack.symlink_to(elsewhere, target_is_directory=True)
    problems = watching.save()
    assert files_of(elsewhere) == before  # plyvel wrote no log, no table there
    assert any("symbolic link" in p for p in problems), problems


def test_a_link_in_a_module_folder_is_never_published_in_its_release_zip(tmp_path):
    watching = InProcessWatch(tmp_path)
    secret = build_tree(tmp_path / "home", {"token": "ghp_secret\n"}) / "token"
    (watching.out / MODULE / "notes.txt").symlink_to(secret)
    watching.save()
    problems = watching.watch.finish()
    assert any("symbolic link" in p for p in problems), problems
    zips = [z.read_bytes() for z in (watching.out / "foundry").glob("*.zip")]
    assert zips
    assert not any(b"notes.txt" in data for data in zips)


def test_a_release_zip_replaced_by_a_link_is_replaced_not_written_through(tmp_path):
    watching = InProcessWatch(tmp_path)
    mine = user_folder(tmp_path)
    before = files_of(mine)
    zip_path = watching.out / "foundry" / "rulepress-demo.zip"
    zip_path.unlink()
    zip_path.symlink_to(mine / "demo.json")
    assert watching.save() == []
    assert any("symbolic link" in p for p in watching.watch.finish())
    assert files_of(mine) == before
    assert watching.save() == []  # the next save writes the target whole: the link goes
    assert watching.watch.finish() == []
    assert files_of(mine) == before
    assert not zip_path.is_symlink()
    built = fresh(tmp_path, watching.root)
    assert zip_path.read_bytes() == (built / "foundry" / "rulepress-demo.zip").read_bytes()


# --- the output folder removed during a watch ------------------------------------------------


def test_removing_the_output_folder_during_a_watch_then_saving_writes_it_again(tmp_path):
    watching = InProcessWatch(tmp_path)
    assert watching.save() == []  # a release zip is left for the quiet moment
    shutil.rmtree(watching.out)
    assert watching.watch.finish() == []  # the finishing step writes what is gone
    assert watching.save() == []
    assert watching.watch.finish() == []
    assert outputs(watching.out) == outputs(fresh(tmp_path, watching.root))
    shutil.rmtree(watching.out)
    assert watching.save() == []  # a save with the folder gone writes it whole
    assert watching.watch.finish() == []
    assert outputs(watching.out) == outputs(fresh(tmp_path, watching.root))


def test_a_watch_holds_the_lock_again_once_the_output_folder_was_removed(tmp_path):
    import fcntl

    watching = InProcessWatch(tmp_path)
    with output_lock(watching.out, "build --watch") as lock:
        watching.watch.lock = lock
        shutil.rmtree(watching.out)
        assert watching.save() == []
        other = (watching.out / LOCK_NAME).open("rb")  # a build started now
        with other, pytest.raises(BlockingIOError):
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        holder = (watching.out / LOCK_NAME).read_text()
        assert holder == f"{os.getpid()} build --watch\n"


# --- links committed to a repository ---------------------------------------------------------


def test_the_lock_file_as_a_link_is_refused(tmp_path):
    root = build_tree(tmp_path / "compendium", base_tree())
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "dist"
    out.mkdir()
    (out / LOCK_NAME).symlink_to(victim)
    result = run("build", str(root), "--out", str(out), "--no-cache", cwd=tmp_path)
    assert result.returncode == 2
    assert "build lock" in result.stderr and "symbolic link" in result.stderr
    assert victim.read_text() == "precious\n"
    assert sorted(p.name for p in out.iterdir()) == [LOCK_NAME]  # nothing written


def test_a_committed_dist_link_leading_out_is_refused_unless_typed(tmp_path):
    repo = tmp_path / "repo"
    build_tree(repo / "compendium", base_tree())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / "dist").symlink_to(elsewhere, target_is_directory=True)
    result = run("build", "compendium", "--target", "json", "--no-cache", cwd=repo)
    assert result.returncode == 2
    assert "refusing to write into dist: it leads out of this folder" in result.stderr
    assert list(elsewhere.iterdir()) == []
    typed = run("build", "compendium", "--target", "json", "--out", "dist", cwd=repo)
    assert typed.returncode == 0, typed.stderr
    assert (elsewhere / "json" / "demo.json").is_file()


# --- what a killed build leaves --------------------------------------------------------------


def test_a_killed_builds_staging_folder_goes_even_when_the_build_is_up_to_date(tmp_path):
    build_tree(tmp_path / "compendium", base_tree())
    env = {**os.environ, "RULEPRESS_CACHE_DIR": str(tmp_path / "cache")}
    args = ("build", "compendium", "--target", "json")
    assert run(*args, cwd=tmp_path, env=env).returncode == 0
    out = tmp_path / "dist"
    staging = out / ".json.staging-0123abcd"  # as a build makes it: its mark inside
    staging.mkdir()
    (staging / MARKER_NAME).write_bytes(marker_text(out / "json"))
    (staging / "demo.json").write_text("half written")
    foreign = out / ".json.staging-feedbeef"  # same name, not a build's: no mark
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine\n")
    result = run(*args, cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert not staging.exists()
    assert (foreign / "notes.txt").read_text() == "mine\n"


# --- a build waiting for a watch --------------------------------------------------------------


def test_a_build_waiting_for_a_watchs_lock_says_so_then_goes_on(tmp_path):
    build_tree(tmp_path / "compendium", base_tree())
    out = tmp_path / "dist"
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()
    with output_lock(out, "build --watch"):
        process = subprocess.Popen(
            [sys.executable, "-m", "rulepress", "build", "compendium", "--target", "json"],
            cwd=tmp_path,
            env={**os.environ, "RULEPRESS_CACHE_DIR": str(tmp_path / "cache")},
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        try:
            threading.Thread(
                target=lambda: [lines.put(line) for line in process.stderr], daemon=True
            ).start()
            try:
                line = lines.get(timeout=LINE_TIMEOUT)
                while line.startswith(("load: ", "checks: ")):  # validated before the lock
                    line = lines.get(timeout=LINE_TIMEOUT)
            except queue.Empty:
                pytest.fail("the waiting build said nothing")
            assert line.strip() == (
                f"waiting for the build lock of dist/ held by process {os.getpid()} "
                "(build --watch)…"
            )
            assert process.poll() is None  # it waits while the lock is held
        except BaseException:
            process.kill()
            raise
    assert process.wait(timeout=LINE_TIMEOUT) == 0
    assert (out / "json" / "demo.json").is_file()
