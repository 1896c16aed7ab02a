"""A module's files written by a forked process while the render goes on.

Writing a module at 10,000 weapons is half kernel and library time the render need not
wait for: creating 11,000 source files (paid again in the GIL by a thread: each system
call gives it up and waits to take it back), LevelDB's batch and compaction, the release
zip's deflate. A child does all three from frames sent through a pipe only the two
processes hold: the output folder it writes into, first; a source file (its path in the
output folder, its bytes) and a pack's entries (the pack's folder and the key, the
value) as each document is made; a pack whose entries are all given (its folder); a
release zip (the module folder, the zip's path). It writes them as this process would
(inside the output folder, through no link, never over a file), and it never forks
again. A pack is written (leveldb.write_sorted, its entries sorted) by a thread of the
child's while the frames after it are taken; its table is deflated for the release zip
while LevelDB writes it (release.TableFollower), its other files once they are written
(release.deflate_ahead): at the end of a large export only the last pack's writing is
left to wait for, not the zip's deflate of every pack (exporters.foundry.module_writes).
Nothing comes back but a status: nothing is unpickled.

The child is forked when the export starts, or before, while this process is small
(`writer_forked_early`, which `rulepress build` opens before the compendium loads): a
child forked from a process holding a loaded compendium counts each page it shares with
it as its own (a build's peak memory: 2.5 GB at 100,000 weapons, not the 2.1 GB this
process holds), and this process copies each of those pages it writes to once.

`flush` waits until everything given is written; the first error the child met is
raised then as the error it was (an OSError's code, path and words; a RulepressError's
message), and no release zip is written after it. A child gone (killed) takes what
was in its pipe with it: the export fails then, saying so. Where a process cannot fork
(forking.can_fork: another thread running, a system that does not say), everything is
written in this process, in the order given: the outcome, an error included, is the same.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import signal
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulepress.errors import RulepressError
from rulepress.exporters.foundry.module_writes import ModuleWrites, write_whole
from rulepress.exporters.output_folder import OutputFolder, RefusedOutput, UnwritableOutput
from rulepress.forking import can_fork, fork

FRAME = struct.Struct("<BII")
"""A frame's head: its kind, then the lengths of its two parts."""
BEGIN, FILE, ENTRY, PACK, ZIP, FLUSH = range(6)
"""Frame kinds: the output folder (its path), the first frame; a source file (path,
bytes); a pack's entry (its folder NUL the key, the value); a pack whose entries are all
given (its folder); a release zip (module folder, zip path); a flush."""
REPLY = struct.Struct("<BiI")
"""The child's reply to a flush: what it met, an OSError's code, the length of its text."""
DONE, OS_ERROR, UNWRITABLE, REFUSED = range(4)
"""What the child met: nothing; an OSError (text: path NUL words); an UnwritableOutput
(path NUL reason); another RulepressError (its message)."""
PIPE_BYTES = 1 << 20
"""The pipe's buffer: a few weapons' files go in before a write waits for the child."""
SEND_BYTES = PIPE_BYTES // 4
"""Frames are sent this many bytes at a time: one system call for many small ones."""


@dataclass(frozen=True)
class _Child:
    """A forked writer: its pid, the pipes of its frames and of its replies, and the
    folder it was forked in (an output folder's relative path is taken from it)."""

    pid: int
    frames: int
    replies: int
    folder: tuple[int, int]

    @classmethod
    def fork(cls) -> _Child:
        frames, into_child = os.pipe()
        from_child, replies = os.pipe()
        with contextlib.suppress(OSError):
            fcntl.fcntl(into_child, fcntl.F_SETPIPE_SZ, PIPE_BYTES)

        def serve() -> None:
            os.close(into_child)
            os.close(from_child)
            _serve(frames, replies)

        pid = fork(serve)
        os.close(frames)
        os.close(replies)
        return cls(pid, into_child, from_child, _working_folder())

    def end(self) -> None:
        """Close its pipes and wait for it: it reads their end and exits."""
        os.close(self.frames)
        os.close(self.replies)
        with contextlib.suppress(ChildProcessError):  # already waited for: it had ended
            os.waitpid(self.pid, 0)


_early: _Child | None = None
"""The writer `writer_forked_early` forked, until an export takes it."""


@contextlib.contextmanager
def writer_forked_early() -> Iterator[None]:
    """Fork the writer of the next export in this block now, if this process may fork
    (before the compendium loads: see the module's words); one that no export took is
    ended when the block ends."""
    global _early
    if _early is None and can_fork():
        _early = _Child.fork()
    try:
        yield
    finally:
        child, _early = _early, None
        if child is not None:
            child.end()


def _take_early(root: Path) -> _Child | None:
    """The writer forked early, if it is still there and would find `root` where this
    process does (a relative path, this process in the folder the child was forked in)."""
    global _early
    child, _early = _early, None
    if child is None:
        return None
    if _ended(child.pid) or (not root.is_absolute() and _working_folder() != child.folder):
        child.end()
        return None
    return child


def _ended(pid: int) -> bool:
    """Whether the child `pid` has ended (it is waited for if it has)."""
    try:
        return os.waitpid(pid, os.WNOHANG) != (0, 0)
    except ChildProcessError:
        return True


def _working_folder() -> tuple[int, int]:
    found = os.stat(".")
    return found.st_dev, found.st_ino


class ModuleWriter:
    """The source files, packs and release zips of one export, written beside it (a
    `with` block: on leaving it everything is written and the child is gone)."""

    def __init__(self, output: OutputFolder) -> None:
        """Files go into `output`; the child is forked when the block starts (or taken,
        forked early)."""
        self.output = output
        self.here = ModuleWrites(output)
        self.pid: int | None = None
        self.frames = self.replies = -1
        self.pending = bytearray()
        self.relative: dict[Path, bytes] = {}
        """Each folder's path below the output folder, as frames carry it, worked out once:
        thousands of files go into one (pathlib's `relative_to` was 7% of an export)."""

    def __enter__(self) -> ModuleWriter:
        """Take the child forked early, or fork one if this process may."""
        child = _take_early(self.output.root) or (_Child.fork() if can_fork() else None)
        if child is not None:
            self.pid, self.frames, self.replies = child.pid, child.frames, child.replies
            self._send(BEGIN, os.fsencode(self.output.root))
        return self

    def __exit__(self, kind, error, trace) -> None:
        """End the child; raise its error if the block raised none. If it raised, the
        export is not put in place: the child is stopped where it is."""
        try:
            if error is None:
                self.flush()
            elif self.pid is not None:
                os.kill(self.pid, signal.SIGKILL)
        finally:
            self._end()
            self.here.close()

    def write_file(self, folder: Path, name: str, data: bytes) -> None:
        """Create the new file `name` in `folder` (inside the output folder) holding `data`."""
        if "/" in name or name in ("", ".", ".."):
            raise RefusedOutput(f"refusing unsafe output name: {folder / name}")
        path = self._relative(folder) + b"/" + os.fsencode(name)
        if self.pid is None:
            self.here.file(path, data)
        else:
            self._send(FILE, path, data)

    def add_entries(self, folder: Path, entries: Iterable[tuple[str, bytes]]) -> None:
        """Give entries (key, value; no key given twice) of the pack `folder`."""
        pack = self._relative(folder)
        for key, value in entries:
            if self.pid is None:
                self.here.entry(pack, key.encode("utf-8"), value)
            else:
                self._send(ENTRY, pack + b"\0" + key.encode("utf-8"), value)

    def write_pack(self, folder: Path) -> None:
        """Write the new LevelDB `folder` holding the entries given for it."""
        if self.pid is None:
            self.here.pack(self._relative(folder))
        else:  # sent now, not with the next frames: the child begins the pack at once
            self._send(PACK, self._relative(folder))
            self._send_pending()

    def write_zip(self, module: Path, target: Path) -> None:
        """Write the release zip of the module folder `module` to `target`, once what was
        given before it is written."""
        if self.pid is None:
            self.here.zip(self._relative(module), self._relative(target))
        else:
            self._send(ZIP, self._relative(module), self._relative(target))

    def flush(self) -> None:
        """Return once everything given is written; raise the first error met."""
        if self.pid is None:
            return
        self._send(FLUSH)
        self._send_pending()
        met, number, size = REPLY.unpack(self._read(REPLY.size))
        if met != DONE:
            raise _error(met, number, os.fsdecode(self._read(size)))

    def _relative(self, path: Path) -> bytes:
        relative = self.relative.get(path)
        if relative is None:
            relative = os.fsencode(path.relative_to(self.output.root).as_posix())
            self.relative[path] = relative
        return relative

    def _gone(self) -> OSError:
        return OSError(errno.EIO, "the writer of the module's files ended", str(self.output.root))

    def _send(self, kind: int, first: bytes = b"", second: bytes = b"") -> None:
        self.pending += FRAME.pack(kind, len(first), len(second))
        if len(second) >= SEND_BYTES:  # not copied into the buffer: sent as it is
            self._send_pending()
            self._write(first)
            self._write(second)
            return
        self.pending += first
        self.pending += second
        if len(self.pending) >= SEND_BYTES:
            self._send_pending()

    def _send_pending(self) -> None:
        self._write(self.pending)
        self.pending = bytearray()  # not cleared: a view of it may live on in an error

    def _write(self, data: bytes | bytearray) -> None:
        try:
            write_whole(self.frames, data)
        except BrokenPipeError:
            raise self._gone() from None

    def _read(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            more = os.read(self.replies, size - len(data))
            if not more:
                raise self._gone()
            data += more
        return data

    def _end(self) -> None:
        for pipe in (self.frames, self.replies):
            if pipe != -1:
                os.close(pipe)
        self.frames = self.replies = -1
        self.pending = bytearray()  # not cleared: a view of it may live on in an error
        if self.pid is not None:
            os.waitpid(self.pid, 0)  # its pipe closed: it reads the end and exits
            self.pid = None


def _serve(frames: int, replies: int) -> None:
    """The child's loop: learn the output folder, do what each frame says, reply to each
    flush, end at the end. After an error, nothing is written until the flush that
    reports it (but what a pack's thread, begun before it, still writes)."""
    failed: bytes | None = None
    with open(frames, "rb", buffering=PIPE_BYTES) as pipe:

        def frame() -> tuple[int, bytes, bytes]:
            head = pipe.read(FRAME.size)
            if len(head) < FRAME.size:
                raise EOFError
            kind, first, second = FRAME.unpack(head)
            parts = pipe.read(first), pipe.read(second)
            if (len(parts[0]), len(parts[1])) != (first, second):
                raise EOFError  # cut short (this process interrupted): not written
            return kind, *parts

        with contextlib.suppress(EOFError):  # the pipe closed: the export is over
            kind, root, _ = frame()
            if kind != BEGIN:
                return
            writes = ModuleWrites(OutputFolder(os.fsdecode(root)), beside=True)
            while True:
                kind, first, second = frame()
                if kind == FLUSH:
                    try:
                        writes.settle()
                    except (OSError, RulepressError) as exc:
                        failed = _reply(exc)  # the earlier error (see settle)
                    write_whole(replies, failed or REPLY.pack(DONE, 0, 0))
                    failed = None
                    continue
                try:
                    if failed is None:
                        _do(writes, kind, first, second)
                except (OSError, RulepressError) as exc:
                    failed = _reply(exc)


def _do(writes: ModuleWrites, kind: int, first: bytes, second: bytes) -> None:
    if kind == FILE:
        writes.file(first, second)
    elif kind == ENTRY:
        folder, _, key = first.partition(b"\0")
        writes.entry(folder, key, second)
    elif kind == PACK:
        writes.pack(first)
    elif kind == ZIP:
        writes.zip(first, second)


def _reply(exc: OSError | RulepressError) -> bytes:
    """The reply that reports `exc` (see REPLY)."""
    if isinstance(exc, UnwritableOutput):
        met, number, text = UNWRITABLE, 0, f"{exc.path}\0{exc.reason}"
    elif isinstance(exc, RulepressError):
        met, number, text = REFUSED, 0, str(exc)
    else:
        words = exc.strerror or str(exc)
        met, number, text = OS_ERROR, exc.errno or errno.EIO, f"{exc.filename or ''}\0{words}"
    data = os.fsencode(text)
    return REPLY.pack(met, number, len(data)) + data


def _error(met: int, number: int, text: str) -> Exception:
    """The error a reply reports, as it was raised in the child."""
    if met == REFUSED:
        return RulepressError(text)
    where, _, words = text.partition("\0")
    if met == UNWRITABLE:
        return UnwritableOutput(where, words)
    return OSError(number, words, where or None)
