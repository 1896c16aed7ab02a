"""Writing outputs safely: nothing half-written, nothing outside the output folder."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson

from rulepress.errors import RulepressError, printable
from rulepress.exporters.output_folder import OutputFolder, UnwritableOutput
from rulepress.files import CLOEXEC
from rulepress.progress import notice


def pretty_json(value: object) -> bytes:
    """Sorted keys, two-space indent, UTF-8 text, a final newline: the files reviewers diff.
    orjson writes them ~30x faster than `json.dumps(indent=2)`, which has no C encoder,
    and the same bytes but for how floats are spelled (`1e-8`, not `1e-08`); integers
    beyond 64 bits, which orjson refuses, take json's road. orjson would write NaN as
    null: the models refuse NaN, and the LevelDB encoder, which runs first, too."""
    try:
        data = orjson.dumps(value, option=PRETTY)
    except orjson.JSONEncodeError:
        text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False)
        return (text + "\n").encode("utf-8")
    # a small text is copied into bytes of its own size: orjson's grown buffer costs up to
    # twice the memory while it is held (thousands are, in a build); a large one's spare
    # room was never written, so never resident, and a copy would double it for a moment
    return data if len(data) > KEPT_AS_GROWN else bytes(memoryview(data))


PRETTY = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE
KEPT_AS_GROWN = 1 << 20
"""Bytes from which orjson's text is kept as it wrote it, not copied."""


LOCK_NAME = ".rulepress-build.lock"
MARKER_NAME = ".rulepress-output"
"""Inside each target folder a build writes: the mark that a later build may replace it.
A staging folder holds it from the moment it is made, so a killed build's is known."""
LEFTOVER = re.compile(r"\.(?P<target>.+)\.(?P<kind>staging|retired)-[0-9a-f]+\Z")
"""The name of a staging folder (`.<target>.staging-<hex>`) or of a retired output
(`.<target>.retired-<pid>`) beside the target folders: only a build makes them."""


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
    if not _holds_marker(OutputFolder(target.parent), target, target):
        raise RulepressError(
            f"refusing to replace {target}: rulepress did not write it (it has no "
            f"{MARKER_NAME} file); move it away or choose another --out (an output of an "
            "older rulepress has no mark either: delete it once)"
        )


def _holds_marker(output: OutputFolder, folder: Path, target: Path) -> bool:
    try:
        return output.read(folder / MARKER_NAME) == marker_text(target)
    except RulepressError:  # a link, a pipe, a folder: no mark
        return False


@contextlib.contextmanager
def output_lock(
    out: Path, role: str = "build", waiting: Callable[[str], None] = notice
) -> Iterator[BuildLock]:
    """Hold the output folder for one build at a time: a second build into the same folder
    waits for the first, so their swaps never interleave, and says so (`waiting`: whose
    process, doing what, as the holder wrote into the lock file: `role`). On entry, what
    a killed build left behind is tidied: its staging folders removed, a retired output
    put back."""
    lock = BuildLock(out, role, waiting)
    lock.take()
    try:
        _recover(lock.output)
    except OSError as exc:
        lock.release()
        raise RulepressError(f"cannot use output folder {out}: {exc.strerror}") from None
    try:
        yield lock
    finally:
        lock.release()


class BuildLock:
    """The lock file of an output folder (LOCK_NAME), opened without following a link
    and held with flock; while held it names its holder (`<pid> <role>`)."""

    def __init__(self, out: Path, role: str, waiting: Callable[[str], None]) -> None:
        """Nothing is opened until `take`."""
        self.out, self.role, self.waiting = out, role, waiting
        self.output = OutputFolder(out)
        self.handle: int | None = None

    def take(self) -> None:
        """Open the lock file (made, with the folder, if missing) and hold it, once any
        other holder lets it go."""
        handle = self._open()
        try:
            self._hold(handle)
            os.ftruncate(handle, 0)
            os.pwrite(handle, f"{os.getpid()} {self.role}\n".encode(), 0)
        except OSError as exc:
            os.close(handle)
            raise RulepressError(f"cannot use output folder {self.out}: {exc.strerror}") from None
        except BaseException:
            os.close(handle)
            raise
        self.handle = handle

    def renew(self) -> None:
        """Hold the lock file at the path again if the one held is not there any more (the
        output folder was removed): a build started since must wait for this holder."""
        try:
            with self.output.folder(self.out) as folder:
                here = os.stat(LOCK_NAME, dir_fd=folder, follow_symlinks=False)
            held = os.fstat(self.handle) if self.handle is not None else None
            if held is not None and (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino):
                return
        except FileNotFoundError:
            pass
        self.release()
        self.take()

    def release(self) -> None:
        """Let the lock go; the file names no holder then."""
        if self.handle is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self.handle, 0)
            fcntl.flock(self.handle, fcntl.LOCK_UN)
        os.close(self.handle)
        self.handle = None

    def _open(self) -> int:
        where = self.out / LOCK_NAME
        try:
            with self.output.folder(self.out, create=True) as folder:
                flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | CLOEXEC
                handle = os.open(LOCK_NAME, flags, 0o644, dir_fd=folder)
        except RulepressError:
            raise
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise RulepressError(
                    f"refusing to use the build lock {where}: it is a symbolic link, "
                    "not a file rulepress wrote; remove it"
                ) from None
            raise RulepressError(
                f"cannot write to output folder {self.out}: {exc.strerror}"
            ) from None
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            os.close(handle)
            raise RulepressError(f"refusing to use the build lock {where}: not a regular file")
        return handle

    def _hold(self, handle: int) -> None:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        holder = os.pread(handle, 200, 0).decode("utf-8", "replace").strip().split(" ", 1)
        who = (
            f" held by process {holder[0]} ({printable(holder[1])})"
            if len(holder) == 2 and holder[0].isdigit()
            else ""
        )
        self.waiting(f"waiting for the build lock of {printable(str(self.out))}/{who}…")
        fcntl.flock(handle, fcntl.LOCK_EX)


def _recover(output: OutputFolder) -> None:
    """Remove the staging folders a killed build left and put back an output it retired,
    each known by its name and the mark inside it; anything else is left alone."""
    for name, is_folder in sorted(output.entries(output.root, skip_links=True).items()):
        found = LEFTOVER.match(name)
        if not (found and is_folder):
            continue
        target = output.root / found["target"]
        if not _holds_marker(output, output.root / name, target):
            continue  # not a build's: never removed
        if found["kind"] == "staging" or os.path.lexists(target):
            output.remove(output.root / name)
        else:  # killed between the two renames of a swap: the old output goes back
            with output.folder(output.root) as folder:
                os.rename(name, target.name, src_dir_fd=folder, dst_dir_fd=folder)


@contextlib.contextmanager
def replaced_atomically(
    target: Path, *, mark: bool = True, output: OutputFolder | None = None
) -> Iterator[Path]:
    """Yield an empty staging folder beside `target` (but for the mark, MARKER_NAME); on
    success it replaces `target`, which must be a marked output too. With `mark=False`
    (a pack a watch writes afresh) no mark is written nor asked for. Every step goes
    through `output` (default: the folder holding `target`), never through a link.

    If the body raises, `target` is left as it was; an OSError (a full disk, a folder
    that cannot be moved) becomes a RulepressError naming the path and the reason. If
    the process dies, the next build (under `output_lock`) removes the staging folder,
    or restores the previous output if the swap was cut between its two renames.
    """
    parent = target.parent
    output = output or OutputFolder(parent)
    name = f".{target.name}.staging-{os.urandom(8).hex()}"
    staging = parent / name
    try:
        with output.folder(parent, create=True) as folder:
            os.mkdir(name, 0o755, dir_fd=folder)
            os.chmod(name, 0o755, dir_fd=folder)  # whatever the umask: the output is shared
        if mark:
            output.write(staging / MARKER_NAME, marker_text(target))
    except OSError as exc:
        raise RulepressError(f"cannot write to output folder {parent}: {exc.strerror}") from None
    try:
        yield staging
        if mark:  # again: an exporter may have emptied its folder
            output.write(staging / MARKER_NAME, marker_text(target))
            refuse_unless_built(target)  # again, under the lock, right before replacing it
        _swap(output, staging, target)
    except UnwritableOutput as exc:
        raise RulepressError(
            f"cannot write output {target}: {exc.path}: {exc.reason}; "
            "its previous output is left as it was"
        ) from None
    except OSError as exc:
        where = exc.filename or staging
        raise RulepressError(
            f"cannot write output {target}: {where}: {exc.strerror or exc}; "
            "its previous output is left as it was"
        ) from None
    finally:
        with contextlib.suppress(OSError, RulepressError):
            output.remove(staging)


def _swap(output: OutputFolder, staging: Path, target: Path) -> None:
    retired = f".{target.name}.retired-{os.getpid()}"
    with output.folder(target.parent) as folder:
        moved = False
        try:
            if os.path.lexists(target):
                os.rename(target.name, retired, src_dir_fd=folder, dst_dir_fd=folder)
                moved = True
            os.rename(staging.name, target.name, src_dir_fd=folder, dst_dir_fd=folder)
        except OSError as exc:
            if moved:  # put the previous output back; if even that fails, _recover will
                with contextlib.suppress(OSError):
                    os.rename(retired, target.name, src_dir_fd=folder, dst_dir_fd=folder)
            # the path in full: the renames name it relative to the folder's descriptor
            exc.filename = target.parent / exc.filename if exc.filename else target
            raise
    output.remove(target.parent / retired)
