"""`rulepress build` forks the module's writer before the compendium loads, while the
process is small (exporters/foundry/module_writer.py, writer_forked_early): the export
takes that writer and writes what one process writes; a writer no export took, or one
that ended, leaves no child; a writer that would find a relative output elsewhere is not
used.

Each build runs in a fresh Python, as `rulepress build` does (see
test_foundry_module_writer: a fork beside LevelDB's thread is never made).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.helpers import COMPENDIUM, REPO, contents

BUILD = """
import json, os, sys, time
from pathlib import Path
from rulepress import forking
from rulepress.commands import build as building
from rulepress.exporters.foundry import module_writer

compendium, out, targets, mode, fault, elsewhere = sys.argv[1:7]
events = []
fork = module_writer.fork
def counted(run):
    events.append("fork")
    return fork(run)
module_writer.fork = counted
module_writer.can_fork = lambda: mode == "fork" and forking.threads() == 1
validate = building.validate
def validating(*args, **kwargs):
    events.append("load")
    if fault == "chdir":
        os.chdir(elsewhere)
    if fault == "kill":  # the early writer ended before the export: a zombie, not waited for
        pid = module_writer._early.pid
        os.kill(pid, 9)
        while open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
            time.sleep(0.01)
    return validate(*args, **kwargs)
building.validate = validating
validation, written = building.build(Path(compendium), Path(out), targets.split(","))
try:
    os.waitpid(-1, os.WNOHANG)
    left = True
except ChildProcessError:
    left = False
print(json.dumps({"events": events, "ok": validation.ok, "left": left,
                  "written": [str(path) for path in written]}))
"""


def built(
    compendium: Path,
    out: Path | str,
    *,
    targets: str = "foundry",
    mode: str = "fork",
    fault: str = "none",
    cwd: Path = REPO,
    elsewhere: Path = REPO,
) -> dict:
    """`build()` of `compendium` into `out` in a fresh Python, forking (`mode` "fork") or in
    one process ("here"), with `fault`: the forks and the load in their order, whether
    the compendium was valid, a child left, the folders written."""
    args = [str(compendium), str(out), targets, mode, fault, str(elsewhere)]
    done = subprocess.run(
        [sys.executable, "-c", BUILD, *args], capture_output=True, text=True, cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert not result["left"]
    return result


def files(out: Path) -> dict[str, object]:
    return contents(out, packs_as_entries=False, zips=True)


def test_the_writer_is_forked_before_the_load_and_writes_the_one_process_module(tmp_path):
    forked = built(COMPENDIUM, tmp_path / "forked")
    assert forked["events"] == ["fork", "load"]
    assert built(COMPENDIUM, tmp_path / "here", mode="here")["events"] == ["load"]
    written = files(tmp_path / "here")
    assert any(name.endswith(".ldb") for name in written)
    assert files(tmp_path / "forked") == written


def test_a_build_without_a_module_forks_no_writer(tmp_path):
    assert built(COMPENDIUM, tmp_path / "out", targets="markdown")["events"] == ["load"]


def test_a_writer_no_export_took_is_ended(tmp_path):
    """The compendium has an error: nothing is written, and the writer forked for it ends."""
    copy = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM, copy)
    cannon = copy / "iris/weapons/rapid-fire-weapons/tactical-auto-cannon.yaml"
    cannon.write_text(cannon.read_text().replace("damage: 26,", "damage: [", 1))
    result = built(copy, tmp_path / "out")
    assert (result["events"], result["ok"], result["written"]) == (["fork", "load"], False, [])
    assert not (tmp_path / "out").exists()


def test_a_writer_that_ended_before_the_export_is_replaced(tmp_path):
    result = built(COMPENDIUM, tmp_path / "out", fault="kill")
    assert result["events"] == ["fork", "load", "fork"]
    built(COMPENDIUM, tmp_path / "here", mode="here")
    assert files(tmp_path / "out") == files(tmp_path / "here")


def test_a_relative_output_is_written_where_the_build_finds_it_after_a_change_of_folder(
    tmp_path,
):
    """The build moved to another folder while it loaded (a plugin's doing): the writer
    forked in the first would write a relative output elsewhere, so a new one is forked."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    result = built(COMPENDIUM, "out", fault="chdir", cwd=first, elsewhere=second)
    assert result["events"] == ["fork", "load", "fork"]
    assert not (first / "out").exists()
    built(COMPENDIUM, tmp_path / "here", mode="here")
    assert files(second / "out") == files(tmp_path / "here")
