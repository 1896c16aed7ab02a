"""The foundry export's source files written by a forked child beside the render
(exporters/foundry/source_writer.py): the same files as written in one process, the
same error, and no child left, whatever happens."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from rulepress.exporters import ExportOptions
from rulepress.exporters.foundry import FoundryExporter, source_writer
from rulepress.exporters.foundry.source_writer import SourceWriter
from rulepress.exporters.output_folder import OutputFolder


def files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name not in ("LOG", "LOCK")
    }


def assert_no_child_left() -> None:
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@pytest.fixture
def forks(monkeypatch) -> list[int]:
    """Every child the writer forks (its pid), forking allowed beside pytest's threads."""
    forked: list[int] = []
    fork = SourceWriter._fork

    def counted(self):
        fork(self)
        forked.append(self.pid)

    monkeypatch.setattr(source_writer, "can_fork", lambda: True)
    monkeypatch.setattr(SourceWriter, "_fork", counted)
    return forked


def export(bundled, out: Path) -> None:
    out.mkdir()
    FoundryExporter().export(bundled.compendium, out, ExportOptions())


def test_a_childs_export_is_the_one_process_export_byte_for_byte(bundled, tmp_path, forks):
    export(bundled, tmp_path / "forked")
    assert len(forks) == 1
    assert_no_child_left()
    source_writer.can_fork = lambda: False  # the fixture's monkeypatch puts it back
    export(bundled, tmp_path / "here")
    assert len(forks) == 1
    forked, here = files(tmp_path / "forked"), files(tmp_path / "here")
    assert any("/src/packs/" in name for name in forked)
    assert forked == here


def test_the_childs_error_is_the_one_process_error(bundled, tmp_path, forks):
    """A file in the way (O_EXCL: never written over): the same code and path, raised
    before the release zip is written, and the files after it not written."""
    first = tmp_path / "first"
    export(bundled, first)
    module = next(p for p in first.iterdir() if p.is_dir())
    taken = sorted((module / "src" / "packs").rglob("*.json"))[0]
    errors = []
    for name, can in (("forked", True), ("here", False)):
        out = tmp_path / name
        (out / taken.relative_to(first)).parent.mkdir(parents=True)
        (out / taken.relative_to(first)).write_bytes(b"in the way")
        source_writer.can_fork = lambda can=can: can
        with pytest.raises(OSError) as raised:
            FoundryExporter().export(bundled.compendium, out, ExportOptions())
        errors.append((raised.value.errno, Path(raised.value.filename).relative_to(out)))
        assert not (out / f"{module.name}.zip").exists()
    assert errors[0] == errors[1] == (errno.EEXIST, taken.relative_to(first))
    assert len(forks) == 2  # the first export's and the forked one's
    assert_no_child_left()


def test_an_error_of_the_render_leaves_no_child(bundled, tmp_path, forks, monkeypatch):
    from rulepress.exporters.foundry import packs

    def failing(module):
        raise RuntimeError("a bug in a pack")

    monkeypatch.setattr(packs, "macros_pack", failing)
    with pytest.raises(RuntimeError):
        export(bundled, tmp_path / "out")
    assert len(forks) == 1
    assert_no_child_left()


def test_a_child_gone_fails_the_export_and_leaves_no_child(tmp_path, monkeypatch):
    """The child killed: the files in its pipe went with it, so the export fails (its
    output is then never put in place), saying so."""
    monkeypatch.setattr(source_writer, "can_fork", lambda: True)
    (tmp_path / "a").mkdir()
    folder = os.open(tmp_path / "a", os.O_RDONLY | os.O_DIRECTORY)
    try:
        ended = pytest.raises(OSError, match="the writer of the source files ended")
        with ended, SourceWriter(OutputFolder(tmp_path)) as writer:
            writer.write(folder, tmp_path / "a" / "one.json", b"1")
            writer.flush()
            os.kill(writer.pid, 9)
            for number in range(2, 200):
                writer.write(folder, tmp_path / "a" / f"{number}.json", b"x" * 20_000)
    finally:
        os.close(folder)
    assert writer.pid is None
    assert_no_child_left()
    assert (tmp_path / "a" / "one.json").read_bytes() == b"1"
