"""Writing outputs safely: nothing half-written, nothing outside the output folder."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import orjson

from rulepress.errors import RulepressError
from rulepress.files import read_regular


def pretty_json(value: object) -> bytes:
    """Sorted keys, two-space indent, UTF-8 text, a final newline: the files reviewers diff.
    orjson writes them ~30x faster than `json.dumps(indent=2)`, which has no C encoder,
    and the same bytes but for how floats are spelled (`1e-8`, not `1e-08`); integers
    beyond 64 bits, which orjson refuses, take json's road. orjson would write NaN as
    null: the models refuse NaN, and the LevelDB encoder, which runs first, too."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
    except orjson.JSONEncodeError:
        text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False)
        return (text + "\n").encode("utf-8")


LOCK_NAME = ".rulepress-build.lock"
MARKER_NAME = ".rulepress-output"
"""Inside each target folder a build writes: the mark that a later build may replace it."""


def marker_text(target: Path) -> bytes:
    """What the mark file of a target folder holds."""
    return f"rulepress build output: {target.name}\n".encode()


def refuse_unless_built(target: Path) -> None:
    """A build replaces only what a build wrote: a target folder that exists must hold
    the mark a build leaves. A user's own folder named like a target (a repository's
    `site/` sources with `--out .`), a file or a link in its place is refused."""
    try:
        info = target.lstat()
    except (FileNotFoundError, NotADirectoryError):
        return  # nothing to replace; making the folder will say what is wrong
    except OSError as exc:
        raise RulepressError(f"cannot read output folder {target}: {exc.strerror}") from None
    if not stat.S_ISDIR(info.st_mode):
        what = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a folder"
        raise RulepressError(
            f"refusing to replace {target}: it is {what}, not an output rulepress wrote; "
            "move it away or choose another --out"
        )
    if not _holds_marker(target):
        raise RulepressError(
            f"refusing to replace {target}: rulepress did not write it (it has no "
            f"{MARKER_NAME} file); move it away or choose another --out (an output of an "
            "older rulepress has no mark either: delete it once)"
        )


def _holds_marker(target: Path) -> bool:
    expected = marker_text(target)
    try:
        found = read_regular(target / MARKER_NAME, len(expected), follow_links=False)
    except OSError:  # missing, a link, a pipe, too long: no mark
        return False
    return found == expected


@contextlib.contextmanager
def output_lock(out: Path) -> Iterator[None]:
    """Hold the output folder for one build at a time: a second build into the same folder
    waits for the first, so their swaps never interleave. On entry, what a killed build
    left behind is tidied: staging folders removed, a retired output put back."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        handle = open(out / LOCK_NAME, "a+b")  # noqa: SIM115 - held for the whole build
    except OSError as exc:
        raise RulepressError(f"cannot write to output folder {out}: {exc.strerror}") from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            _recover(out)
        except OSError as exc:
            raise RulepressError(f"cannot use output folder {out}: {exc.strerror}") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _recover(out: Path) -> None:
    for leftover in sorted(out.glob(".*.staging-*")):
        shutil.rmtree(leftover, ignore_errors=True)
    for retired in sorted(out.glob(".*.retired-*")):
        target = out / retired.name[1:].split(".retired-")[0]
        if target.exists():
            shutil.rmtree(retired, ignore_errors=True)
        else:  # killed between the two renames of a swap: the old output goes back
            os.rename(retired, target)


@contextlib.contextmanager
def replaced_atomically(target: Path) -> Iterator[Path]:
    """Yield an empty staging folder beside `target`; on success it is marked as a
    build's output (MARKER_NAME) and replaces `target`, which must be one too.

    If the body raises, `target` is left as it was; an OSError (a full disk, a folder
    that cannot be moved) becomes a RulepressError naming the path and the reason. If
    the process dies, the next build (under `output_lock`) removes the staging folder,
    or restores the previous output if the swap was cut between its two renames.
    """
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.staging-", dir=parent))
        staging.chmod(0o755)  # mkdtemp makes it private; the output is meant to be shared
    except OSError as exc:
        raise RulepressError(f"cannot write to output folder {parent}: {exc.strerror}") from None
    try:
        yield staging
        (staging / MARKER_NAME).write_bytes(marker_text(target))
        _swap(staging, target)
    except OSError as exc:
        where = exc.filename or staging
        raise RulepressError(
            f"cannot write output {target}: {where}: {exc.strerror or exc}; "
            "its previous output is left as it was"
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _swap(staging: Path, target: Path) -> None:
    refuse_unless_built(target)  # again, under the lock, right before replacing it
    retired = target.with_name(f".{target.name}.retired-{os.getpid()}")
    moved = False
    try:
        if os.path.lexists(target):
            os.rename(target, retired)
            moved = True
        os.rename(staging, target)
    except OSError as exc:
        if moved:  # put the previous output back; if even that fails, _recover will
            with contextlib.suppress(OSError):
                os.rename(retired, target)
        exc.filename = exc.filename or target
        raise
    shutil.rmtree(retired, ignore_errors=True)
