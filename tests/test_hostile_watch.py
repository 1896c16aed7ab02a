"""`build --watch` as untrusted input: what a pull request's files, or a tired user, do to
a running watch. Each case drives the watch in-process (Watch.follow takes one burst of
changed paths, as the loop does) and asserts a clear outcome: a finding that names the
file, the outputs of the last good state kept, the next good save rebuilt; never an
internal error, never a hang (a thread's generous ceiling guards against one, it times
nothing). Where the real process is what a case is about, it runs with the same guard."""

from __future__ import annotations

import os
import queue
import re
import signal
import stat
import subprocess
import sys
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.commands.watch import Watch, follow_events
from rulepress.commands.watch_events import Events
from rulepress.exporters import ExportOptions
from rulepress.exporters.foundry.release import left_out
from rulepress.live import LiveCompendium
from rulepress.validation import validate
from tests.helpers import RULESET, RULESET_FILE, WEAPON_FILE, base_tree, build_tree, weapon

TARGETS = ("foundry", "markdown", "json")
HANG_GUARD = 120  # seconds: generous, a loaded machine is slow, a hung watch is not
REFUSED = r":\d+:\d+: error RP\d{3}: "


def bounded(work: Callable[[], object]) -> object:
    """What `work` returns, run in a thread that must end within HANG_GUARD."""
    result: queue.SimpleQueue = queue.SimpleQueue()
    thread = threading.Thread(target=lambda: result.put(work()), daemon=True)
    thread.start()
    thread.join(HANG_GUARD)
    assert not thread.is_alive(), "hung"
    return result.get_nowait()


class Session:
    """A watch's state without its process, on the demo tree: the live compendium and
    each target's live output in `out`; `follow` takes one burst and keeps what it said."""

    def __init__(self, tmp_path: Path) -> None:
        self.root = build_tree(tmp_path / "compendium", base_tree())
        self.out = tmp_path / "live"
        self.live = LiveCompendium(self.root)
        validation, _ = build(self.root, self.out, TARGETS, ExportOptions(), validation=None)
        assert validation.ok
        self.watch = Watch(self.live, self.out, TARGETS, ExportOptions())
        self.said: list[str] = []

    def follow(self, *paths: Path) -> bool:
        """Take one burst naming `paths`; whether outputs were written. Its findings are
        those a fresh validate gives for the files as they stand."""
        del self.said[:]
        written = bounded(lambda: self.watch.follow(set(paths), self.said.append, self.said.append))
        update_findings = self.live.update(()).findings  # the same files: the same findings
        assert update_findings == validate(self.root).findings
        return written

    def refused(self, where: str | Path) -> None:
        """The last burst was refused with a finding at `where` (a path under the root)."""
        assert self.said[-1] == "rulepress: the compendium has errors; kept the last good output"
        pattern = re.escape(str(self.root / where)) + REFUSED
        assert any(re.search(pattern, line) for line in self.said), self.said

    def save(self, cost: int) -> None:
        """Save the weapon with another cost: the outputs follow (a fresh build's)."""
        (self.root / WEAPON_FILE).write_text(weapon().replace("cost: 1\n", f"cost: {cost}\n"))
        assert self.follow(self.root / WEAPON_FILE), self.said
        assert self.said[-1].startswith("rebuilt foundry, markdown, json in ")
        assert f'"cost": {cost}' in (self.out / "json" / "demo.json").read_text()


@pytest.fixture
def session(tmp_path: Path) -> Session:
    """A watch past its first build, on the demo tree."""
    return Session(tmp_path)


def _outside_folder(session: Session) -> Path:
    outside = session.root.parent / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text("kind: trait\nid: ghp-token\nname: x\norder: 1\n")
    return outside


# --- the set of files read: links, folders and names that come and go -------------------


@pytest.mark.parametrize("name", ["evil", "evil.txt", ".evil"])
def test_a_link_out_added_then_removed_lets_the_next_save_through(
    session: Session, name: str
) -> None:
    link = session.root / "demo" / name
    link.symlink_to(_outside_folder(session), target_is_directory=True)
    assert not session.follow(link)
    session.refused(f"demo/{name}")
    link.unlink()
    assert session.follow(link)  # the refusal goes with the link: outputs written again
    session.save(cost=2)


def test_a_folder_whose_name_is_not_utf8_removed_clears_its_refusal(session: Session) -> None:
    folder = Path(os.fsdecode(bytes(session.root / "demo") + b"/bad\xff"))
    folder.mkdir()
    (folder / "x.yaml").write_text("kind: trait\nid: x\nname: X\norder: 3\n")
    assert not session.follow(folder)
    assert "folder name is not UTF-8" in "\n".join(session.said)
    (folder / "x.yaml").unlink()
    folder.rmdir()
    session.follow(folder)
    session.save(cost=3)


def test_a_file_renamed_to_yaml_is_read_and_renamed_away_is_dropped(session: Session) -> None:
    draft = session.root / "demo/weapons/second.txt"
    draft.write_text(weapon().replace("id: test-pistol", "id: second-pistol"))
    assert not session.follow(draft)  # a name the loader never reads: nothing changes
    named = draft.with_suffix(".yaml")
    draft.rename(named)
    assert session.follow(draft, named)
    assert '"second-pistol"' in (session.out / "json" / "demo.json").read_text()
    named.rename(draft)
    assert session.follow(named, draft)
    assert '"second-pistol"' not in (session.out / "json" / "demo.json").read_text()


def test_ruleset_yaml_removed_is_said_and_its_restore_rebuilds(session: Session) -> None:
    info = session.root / RULESET_FILE
    info.unlink()
    assert not session.follow(info)
    session.refused(RULESET_FILE)
    assert "no ruleset.yaml" in "\n".join(session.said)
    info.write_text(RULESET.replace("A tiny", "A restored"))
    assert session.follow(info)
    assert "A restored" in (session.out / "json" / "demo.json").read_text()


def test_a_file_gone_before_it_is_read_changes_nothing(session: Session) -> None:
    ghost = session.root / "demo/weapons/ghost.yaml"
    ghost.write_text(weapon())
    ghost.unlink()  # created and deleted within one burst
    assert not session.follow(ghost)
    assert session.watch.failed is False
    session.save(cost=4)


# --- files that must never be opened, or read whole ----------------------------------


def test_a_named_pipe_is_refused_unopened_and_the_watch_goes_on(session: Session) -> None:
    pipe = session.root / "demo/weapons/pipe.yaml"
    os.mkfifo(pipe)
    assert not session.follow(pipe)  # opened for reading, this would block: bounded()
    session.refused("demo/weapons/pipe.yaml")
    assert "not a regular file (a named pipe)" in "\n".join(session.said)
    pipe.unlink()
    assert session.follow(pipe)
    session.save(cost=5)


def test_a_device_node_is_refused_unopened(session: Session) -> None:
    device = session.root / "demo/weapons/zero.yaml"
    try:
        os.mknod(device, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # /dev/zero's numbers
    except PermissionError:
        pytest.skip("no mknod here")
    assert not session.follow(device)
    session.refused("demo/weapons/zero.yaml")
    assert "not a regular file (a device)" in "\n".join(session.said)


@pytest.mark.parametrize("target", ["/dev/zero", "outside"])
def test_a_document_swapped_for_a_link_out_is_refused(session: Session, target: str) -> None:
    file = session.root / WEAPON_FILE
    real = _outside_folder(session) / "secret.yaml" if target == "outside" else Path(target)
    file.unlink()
    file.symlink_to(real)
    assert not session.follow(file)
    session.refused(WEAPON_FILE)
    assert "ghp-token" not in "\n".join(session.said)  # the foreign file is never echoed
    file.unlink()
    session.save(cost=6)


def test_a_huge_sparse_file_is_refused_unread(session: Session) -> None:
    huge = session.root / "demo/weapons/huge.yaml"
    with huge.open("wb") as file:
        file.truncate(3 * 2**20)
    assert not session.follow(huge)
    session.refused("demo/weapons/huge.yaml")
    assert "larger than 2 MiB" in "\n".join(session.said)


def test_a_symlink_loop_of_folders_is_ignored_without_a_hang(session: Session) -> None:
    demo = session.root / "demo"
    (demo / "a").symlink_to("b", target_is_directory=True)
    (demo / "b").symlink_to("a", target_is_directory=True)
    (demo / "here").symlink_to(".", target_is_directory=True)
    (demo / "deep.yaml").symlink_to("deep.yaml")
    assert not session.follow(demo / "a", demo / "b", demo / "here", demo / "deep.yaml")
    session.refused("demo/deep.yaml")  # a YAML name leading nowhere; the folder links
    assert not any("demo/a" in line or "demo/here" in line for line in session.said)
    (demo / "deep.yaml").unlink()
    assert session.follow(demo / "deep.yaml")


# --- the settings file ------------------------------------------------------------------


def test_the_settings_file_turned_into_a_folder_is_refused(session: Session) -> None:
    settings = session.root.parent / "rulepress.yaml"
    settings.mkdir()
    assert not session.follow(settings)
    session.refused(settings)
    assert "not a regular file (a folder)" in "\n".join(session.said)
    settings.rmdir()
    assert session.follow(settings)


# --- bounded work: a burst of thousands of events -----------------------------------


def test_thousands_of_events_are_one_whole_read(session: Session) -> None:
    events = Events(session.root, session.root.parent / "rulepress.yaml")  # never started
    for number in range(5000):
        events.offer(session.root / "demo/weapons" / f"draft-{number}.yaml")
    assert events.burst(0) == {session.root}  # past BURST_PATHS: the folder, read once
    assert events.paths.empty()
    update = session.live.update({session.root})
    assert update.whole and update.ok


def test_a_stream_of_events_that_never_pauses_still_ends_each_burst(session: Session) -> None:
    events = Events(session.root, session.root.parent / "rulepress.yaml")
    stop = threading.Event()

    def stream() -> None:
        while not stop.is_set():
            events.offer(session.root / "demo/weapons/test-pistol.yaml")

    threading.Thread(target=stream, daemon=True).start()
    try:
        assert bounded(lambda: events.burst(1)) == {session.root / WEAPON_FILE}
    finally:
        stop.set()


# --- however the watch ends, it finishes ---------------------------------------------


class Scripted:
    """Events.burst from a script: each call runs the next step, which returns a burst."""

    def __init__(self, *steps: Callable[[], set[Path]]) -> None:
        self.steps = list(steps)

    def burst(self, wait: float) -> set[Path]:
        """The next step's burst; none after the last (the watch must end by itself)."""
        assert self.steps, "the watch did not end"
        return self.steps.pop(0)()


def zip_matches_module(out: Path) -> None:
    """Every release zip in `out` holds its module folder's files, byte for byte (but
    those a release leaves out: the JSON sources and LevelDB's lock files)."""
    zips = sorted((out / "foundry").glob("*.zip"))
    assert zips
    for release in zips:
        module = release.with_suffix("")
        with zipfile.ZipFile(release) as archive:
            zipped = {n: archive.read(n) for n in archive.namelist() if not n.endswith("/")}
        files = {
            p.relative_to(module).as_posix(): p.read_bytes()
            for p in module.rglob("*")
            if p.is_file() and not left_out(p.relative_to(module).parts)
        }
        assert zipped == files


@pytest.mark.parametrize("seen", [True, False], ids=["an event says so", "no event does"])
def test_the_compendium_moved_away_after_a_save_finishes_and_ends_1(
    session: Session, seen: bool
) -> None:
    said: list[str] = []

    def save() -> set[Path]:
        (session.root / WEAPON_FILE).write_text(weapon().replace("cost: 1\n", "cost: 9\n"))
        return {session.root / WEAPON_FILE}

    def move_away() -> set[Path]:  # its parent's watch sees it go; its own goes with it
        session.root.rename(session.root.with_name("elsewhere"))
        return {session.root} if seen else set()

    status = follow_events(
        session.watch, Scripted(save, move_away), threading.Event(), said.append, said.append
    )
    assert status == 1
    assert any("was moved, deleted or replaced; the watch ends" in line for line in said)
    zip_matches_module(session.out)


def test_a_finishing_step_that_fails_is_said_and_ends_1(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []

    def fail() -> None:
        raise FileNotFoundError(2, "No such file or directory", "live/foundry/x.zip")

    monkeypatch.setattr(session.watch.updaters["foundry"], "finish", fail)
    stopping = threading.Event()
    stopping.set()  # Ctrl-C at once: the finishing step still runs
    assert follow_events(session.watch, Scripted(), stopping, said.append, said.append) == 1
    assert "rulepress: foundry: No such file or directory (live/foundry/x.zip)" in said
    assert "rulepress build" in said[-1]


def test_the_real_watch_ends_1_when_the_compendium_is_moved_after_a_save(
    tmp_path: Path,
) -> None:
    root = build_tree(tmp_path / "compendium", base_tree())
    process = subprocess.Popen(
        [sys.executable, "-m", "rulepress", "build", "--watch", "compendium", "--out", "live"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()
    threading.Thread(
        target=lambda: [lines.put(line) for line in process.stdout], daemon=True
    ).start()

    def wait_for(pattern: str) -> None:
        while not re.search(pattern, line := lines.get(timeout=HANG_GUARD)):
            assert "Traceback" not in line and "internal error" not in line, line

    try:
        wait_for(r"^watching ")
        (root / "demo/a").symlink_to("b")  # a loop of folder links: watchdog is not lost
        (root / "demo/b").symlink_to("a")
        (root / WEAPON_FILE).write_text(weapon().replace("cost: 1\n", "cost: 8\n"))
        wait_for(r"^rebuilt ")
        root.rename(tmp_path / "elsewhere")
        wait_for(r"was moved, deleted or replaced; the watch ends")
        assert process.wait(timeout=HANG_GUARD) == 1
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait()
    zip_matches_module(tmp_path / "live")
    assert not list((tmp_path / "live" / "foundry").glob(".*.zip.*"))  # no temporary zip left


def test_serve_reads_a_flood_of_events_as_one_whole_read(tmp_path):
    """`serve` bounds a burst as the watch does: past BURST_PATHS paths it is told only the
    compendium folder (one whole read), and it keeps no more than that many paths."""
    from watchdog.events import FileModifiedEvent

    from rulepress.commands.serve import ChangedPaths
    from rulepress.commands.watch_events import BURST_PATHS

    noted = ChangedPaths(tmp_path)
    for number in range(5 * BURST_PATHS):
        noted.on_any_event(FileModifiedEvent(str(tmp_path / f"file-{number}.yaml")))
    assert len(noted._paths) <= BURST_PATHS + 2
    assert noted.take() == [tmp_path]
    noted.on_any_event(FileModifiedEvent(str(tmp_path / "one.yaml")))
    assert noted.take() == [tmp_path / "one.yaml"]
