"""A module's files written by a forked process while the render goes on.

Writing a module at 10,000 weapons is half kernel and library time the render need not
wait for: creating 11,000 source files (paid again in the GIL by a thread: each system
call gives it up and waits to take it back), LevelDB's batch and compaction, the release
zip's deflate. A child forked at the start of the export does all three from frames sent
through a pipe only the two processes hold: a source file (its path in the output
folder, its bytes) and a pack's entries (the pack's folder and the key, the value) as
each document is made; a pack whose entries are all given (its folder); a release zip
(the module folder, the zip's path). It writes them as this process would (inside the
output folder, through no link, never over a file), and it never forks again. A pack is
written (leveldb.write_sorted, its entries sorted) by a thread of the child's while the
frames after it are taken; its table is deflated for the release zip while LevelDB
writes it (release.TableFollower), its other files once they are written
(release.deflate_ahead): at the end of a large export only the last pack's writing is
left to wait for, not the zip's deflate of every pack. Nothing comes back but a status:
nothing is unpickled.

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
import threading
from collections.abc import Iterable, Iterator
from operator import itemgetter
from pathlib import Path

from rulepress.errors import RulepressError
from rulepress.exporters.foundry.leveldb import write_sorted
from rulepress.exporters.foundry.release import (
    Deflated,
    TableFollower,
    deflate_ahead,
    write_release_zip,
)
from rulepress.exporters.output_folder import FILE_MODE, OutputFolder, UnwritableOutput
from rulepress.files import CLOEXEC
from rulepress.forking import can_fork, fork

FRAME = struct.Struct("<BII")
"""A frame's head: its kind, then the lengths of its two parts."""
FILE, ENTRY, PACK, ZIP, FLUSH = range(5)
"""Frame kinds: a source file (path, bytes); a pack's entry (its folder NUL the key, the
value); a pack whose entries are all given (its folder); a release zip (module folder,
zip path); a flush."""
REPLY = struct.Struct("<BiI")
"""The child's reply to a flush: what it met, an OSError's code, the length of its text."""
DONE, OS_ERROR, UNWRITABLE, REFUSED = range(4)
"""What the child met: nothing; an OSError (text: path NUL words); an UnwritableOutput
(path NUL reason); another RulepressError (its message)."""
PIPE_BYTES = 1 << 20
"""The pipe's buffer: a few weapons' files go in before a write waits for the child."""
SEND_BYTES = PIPE_BYTES // 4
"""Frames are sent this many bytes at a time: one system call for many small ones."""
CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | CLOEXEC
Written = dict[Path, Deflated] | OSError | RulepressError
"""What a pack's thread gives: the pack's files deflated ahead, or the error it met."""


class ModuleWriter:
    """The source files, packs and release zips of one export, written beside it (a
    `with` block: on leaving it everything is written and the child is gone)."""

    def __init__(self, output: OutputFolder) -> None:
        """Files go into `output`; the child is forked when the block starts."""
        self.output = output
        self.here = _Writes(output)
        self.pid: int | None = None
        self.frames = self.replies = -1
        self.pending = bytearray()

    def __enter__(self) -> ModuleWriter:
        """Fork the child if this process may."""
        if can_fork():
            self._fork()
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

    def write_file(self, path: Path, data: bytes) -> None:
        """Create the new file `path` (inside the output folder) holding `data`."""
        if self.pid is None:
            self.here.file(self._relative(path), data)
        else:
            self._send(FILE, self._relative(path), data)

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
        return os.fsencode(path.relative_to(self.output.root).as_posix())

    def _fork(self) -> None:
        frames, into_child = os.pipe()
        from_child, replies = os.pipe()
        with contextlib.suppress(OSError):
            fcntl.fcntl(into_child, fcntl.F_SETPIPE_SZ, PIPE_BYTES)

        def serve() -> None:
            os.close(into_child)
            os.close(from_child)
            self.here.beside = True
            _serve(self.here, frames, replies)

        pid = fork(serve)
        os.close(frames)
        os.close(replies)
        self.pid, self.frames, self.replies = pid, into_child, from_child

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


class _Writes:
    """What the writer does, in the child or in this process; paths are relative to the
    output folder, as the frames carry them."""

    def __init__(self, output: OutputFolder) -> None:
        self.output = output
        self.folders: dict[str, int] = {}
        """Each source folder's descriptor: thousands of files, the path walked once."""
        self.beside = False
        """Whether packs are written beside the frames that follow (in the child: `pack`)."""
        self.writing: list[tuple[threading.Thread, list[Written]]] = []
        """Each pack's thread, in the order of the packs, and what it gave when done."""
        self.packs: dict[bytes, list[tuple[bytes, bytes]]] = {}
        """Each pack's entries given so far, by its folder (key as UTF-8, value)."""

    def file(self, path: bytes, data: bytes) -> None:
        parent, _, name = os.fsdecode(path).rpartition("/")
        try:
            if parent not in self.folders:
                with self.output.folder(self.output.root / parent, create=True) as handle:
                    self.folders[parent] = os.dup(handle)
            create_file(self.folders[parent], name, data)
        except OSError as exc:
            exc.filename = self.output.root / parent / name  # the path in full
            raise

    def entry(self, folder: bytes, key: bytes, value: bytes) -> None:
        self.packs.setdefault(folder, []).append((key, value))

    def pack(self, folder: bytes) -> None:
        entries = self.packs.pop(folder, [])
        entries.sort(key=itemgetter(0), reverse=True)  # taken from the end: `_taken`
        path = self.output.root / os.fsdecode(folder)
        if not self.beside:
            write_sorted(_taken(entries), path, self.output)
            return
        # the frames that follow (the next pack's files, the journal's) are taken while a
        # thread writes this one (LevelDB gives up the GIL, and so does zlib) and deflates
        # its files for the release zip: the render does not wait on either
        given: list[Written] = []
        thread = threading.Thread(target=self._write_beside, args=(entries, path, given))
        self.writing.append((thread, given))
        thread.start()

    def _write_beside(self, entries: list, folder: Path, given: list[Written]) -> None:
        try:
            with TableFollower(self.output, folder) as table:
                write_sorted(_taken(entries), folder, self.output)
            given.append(deflate_ahead(self.output, folder, table.deflated))
        except (OSError, RulepressError) as exc:
            given.append(exc)

    def settle(self) -> dict[Path, Deflated]:
        """Wait for the packs being written; their files deflated ahead. Raise the first
        error one met: met before any error of a frame after its pack (no pack is begun
        once an error is met)."""
        writing, self.writing = self.writing, []
        ahead: dict[Path, Deflated] = {}
        for thread, _ in writing:
            thread.join()
        for _, (result,) in writing:
            if isinstance(result, Exception):
                raise result
            ahead.update(result)
        return ahead

    def zip(self, module: bytes, target: bytes) -> None:
        ahead = self.settle()  # the module's packs are whole
        root = self.output.root
        with self.output.replacing(root / os.fsdecode(target)) as file:
            write_release_zip(self.output, root / os.fsdecode(module), file, ahead)

    def close(self) -> None:
        for handle in self.folders.values():
            os.close(handle)
        self.folders.clear()
        self.packs.clear()


def _taken(entries: list[tuple[bytes, bytes]]) -> Iterator[tuple[bytes, bytes]]:
    """The entries from the last to the first, each leaving the list as LevelDB's batch
    takes its copy: a pack's values are never held twice (60 MB at 10,000 weapons)."""
    while entries:
        yield entries.pop()


def _serve(writes: _Writes, frames: int, replies: int) -> None:
    """The child's loop: do what each frame says, reply to each flush, end at the end.
    After an error, nothing is written until the flush that reports it (but what a
    pack's thread, begun before it, still writes)."""
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


def _do(writes: _Writes, kind: int, first: bytes, second: bytes) -> None:
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


def create_file(folder: int, name: str, data: bytes) -> None:
    """Create the file `name` in the open folder `folder` with `data`."""
    file = os.open(name, CREATE, FILE_MODE, dir_fd=folder)
    try:
        write_whole(file, data)
    finally:
        os.close(file)


def write_whole(descriptor: int, data: bytes | bytearray) -> None:
    """Write all of `data` (a write may take less than it is given)."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]
