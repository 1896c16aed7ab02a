"""The foundry export's files (source files, LevelDB packs, release zips) written by a
forked child beside the render (exporters/foundry/module_writer.py): the same files as
written in one process, the same error, and no child left, whatever happens.

Each export that forks runs in a fresh Python, as a build does: a child writing packs
needs a parent that never ran LevelDB (whose compaction thread a fork does not copy), and
pytest's worker has run it in other tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulepress.errors import RulepressError
from rulepress.exporters.foundry import module_writer
from rulepress.exporters.foundry.leveldb import read_entries
from rulepress.exporters.foundry.module_writer import ModuleWriter
from rulepress.exporters.foundry.pack import PackOutput, Ready
from rulepress.exporters.output_folder import OutputFolder, RefusedOutput
from tests.helpers import COMPENDIUM, REPO, contents, no_child_left

EXPORT = """
import json, os, sys
from pathlib import Path
from rulepress import forking
from rulepress.compendium.loader import load_compendium
from rulepress.exporters import ExportOptions
from rulepress.exporters.foundry import FoundryExporter, module_writer, packs

compendium, outs, mode, fault = sys.argv[1], sys.argv[2].split(","), sys.argv[3], sys.argv[4]
compendium = load_compendium(Path(compendium)).compendium
forked = []
fork = module_writer.fork
module_writer.fork = lambda run: forked.append(fork(run)) or forked[-1]
# a fork whatever the cores (a CI machine may have one), never beside another thread
module_writer.can_fork = lambda: mode == "fork" and forking.threads() == 1
if fault == "render":
    def failing(module):
        raise RuntimeError("a bug in a pack")
    packs.macros_pack = failing
error = None
for out in map(Path, outs):
    try:
        FoundryExporter().export(compendium, out, ExportOptions())
    except Exception as exc:
        where = getattr(exc, "filename", None)
        words = (getattr(exc, "strerror", None) or str(exc)).replace(str(out), "OUT")
        where = str(Path(where).relative_to(out)) if where else None
        error = [type(exc).__name__ if not isinstance(exc, OSError) else "OSError", where, words]
try:
    os.waitpid(-1, os.WNOHANG)
    left = True
except ChildProcessError:
    left = False
print(json.dumps({"forks": len(forked), "error": error, "left": left,
                  "threads": forking.threads()}))
"""


def exported(*outs: Path, mode: str = "fork", fault: str = "none") -> dict:
    """Export the bundled compendium into each of `outs` (made if missing) in a fresh
    Python, forking (`mode` "fork") or in one process ("here"), with `fault`; what it
    met: children forked, the last error (its type, path below its output, words), a
    child left, this process's threads after."""
    for out in outs:
        out.mkdir(exist_ok=True)
    args = [str(COMPENDIUM), ",".join(map(str, outs)), mode, fault]
    done = subprocess.run(
        [sys.executable, "-c", EXPORT, *args], capture_output=True, text=True, cwd=REPO
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["forks"] == (len(outs) if mode == "fork" else 0)
    assert not result["left"]
    return result


def files(out: Path) -> dict[str, object]:
    """Every file the export wrote, byte for byte (packs and release zips too)."""
    return contents(out, packs_as_entries=False, zips=True)


def test_a_childs_export_is_the_one_process_export_byte_for_byte(tmp_path):
    """Two exports in one process both fork (the packs are written in the child, so this
    process starts no LevelDB thread) and give what one process writes."""
    first, second, here = tmp_path / "first", tmp_path / "second", tmp_path / "here"
    assert exported(first, second)["threads"] == 1
    exported(here, mode="here")
    written = files(here)
    assert any("/src/packs/" in name for name in written)
    assert any(name.endswith(".ldb") for name in written)
    assert any(name.endswith(".zip") for name in written)
    assert files(first) == files(second) == written


def put_in_the_way(out: Path, name: str, folder: bool) -> None:
    """Something at `name` below `out`, where the export writes: a folder, or a file."""
    path = out / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if folder:
        path.mkdir()
        (path / "CURRENT").write_text("taken")
    else:
        path.write_bytes(b"in the way")


@pytest.mark.parametrize(
    ("name", "folder", "met"),
    [
        # a file there (O_EXCL: never written over), the first weapon's source file
        ("SOURCE", False, "OSError"),
        # a pack folder there: a LevelDB that exists is not written over
        ("rulepress-iris/packs/weapons", True, "OSError"),
        # a folder where the release zip goes
        ("rulepress-iris.zip", True, "UnwritableOutput"),
    ],
    ids=["source file", "pack", "zip"],
)
def test_the_childs_error_is_the_one_process_error(tmp_path, name, folder, met):
    """The same error, its path and words, forked or not, and nothing written after it:
    not the module's release zip."""
    if name == "SOURCE":  # the name the export gives it
        exported(tmp_path / "first", mode="here")
        sources = tmp_path / "first" / "rulepress-iris" / "src" / "packs" / "weapons"
        name = str(sorted(sources.glob("*.json"))[0].relative_to(tmp_path / "first"))
    errors = []
    for mode in ("fork", "here"):
        put_in_the_way(tmp_path / mode, name, folder)
        errors.append(exported(tmp_path / mode, mode=mode)["error"])
        if met != "UnwritableOutput":
            assert not (tmp_path / mode / "rulepress-iris.zip").exists()
    assert errors[0] == errors[1]
    assert errors[0][0] == met
    assert name in (errors[0][1] or "") + errors[0][2]


def test_an_error_of_the_render_leaves_no_child(tmp_path):
    result = exported(tmp_path / "out", fault="render")
    assert result["error"] == ["RuntimeError", None, "a bug in a pack"]


def test_a_child_gone_fails_the_export_and_leaves_no_child(tmp_path, monkeypatch):
    """The child killed: the files in its pipe went with it, so the export fails (its
    output is then never put in place), saying so. (Source files only: the child runs no
    LevelDB, so it may fork beside pytest's threads.)"""
    monkeypatch.setattr(module_writer, "can_fork", lambda: True)
    ended = pytest.raises(OSError, match="the writer of the module's files ended")
    with no_child_left(), ended, ModuleWriter(OutputFolder(tmp_path)) as writer:
        writer.write_file(tmp_path / "a", "one.json", b"1")
        writer.flush()
        os.kill(writer.pid, 9)
        for number in range(2, 200):
            writer.write_file(tmp_path / "a", f"{number}.json", b"x" * 20_000)
    assert writer.pid is None
    assert (tmp_path / "a" / "one.json").read_bytes() == b"1"


def test_a_key_given_twice_in_a_pack_is_refused_before_its_file_is_written(tmp_path, monkeypatch):
    monkeypatch.setattr(module_writer, "can_fork", lambda: False)
    output = OutputFolder(tmp_path)
    with ModuleWriter(output) as writer:
        pack = PackOutput(tmp_path / "src", tmp_path / "packs" / "weapons", writer)
        pack.write("weapons", Ready("a.json", (("!items!aaaaaaaaaaaaaaaa", b"{}"),), b"a"))
        twice = Ready("b.json", (("!items!aaaaaaaaaaaaaaaa", b"{}"),), b"b")
        with pytest.raises(RulepressError, match="pack weapons: two documents with key !items!a"):
            pack.write("weapons", twice)
        pack.write("weapons", Ready("c.json", (("!items!0aaaaaaaaaaaaaaa", b"[]"),), b"c"))
        pack.finish()
    assert sorted(p.name for p in (tmp_path / "src").iterdir()) == ["a.json", "c.json"]
    assert read_entries(tmp_path / "packs" / "weapons") == {
        "!items!0aaaaaaaaaaaaaaa": b"[]",
        "!items!aaaaaaaaaaaaaaaa": b"{}",
    }


@pytest.mark.parametrize("name", ["a/b.json", "..", ".", ""])
def test_a_file_name_that_is_not_one_name_in_its_folder_is_refused(tmp_path, monkeypatch, name):
    monkeypatch.setattr(module_writer, "can_fork", lambda: False)
    refused = pytest.raises(RefusedOutput, match="refusing unsafe output name")
    with ModuleWriter(OutputFolder(tmp_path)) as writer, refused:
        writer.write_file(tmp_path / "src", name, b"{}")
    assert not (tmp_path / "src").exists()
