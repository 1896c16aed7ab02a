"""A module's source files written by a forked process while the render goes on.

Creating the 11,000 source files of 10,000 weapons was two fifths of the export: time
in the kernel, paid again in the GIL by a thread (each system call gives it up and
waits to take it back). A child forked at the start of the export takes each file
through a pipe only the two processes hold, as a frame (its path in the output folder,
its bytes), and creates it as SourceFolder would (inside the output folder, through no
link, never over a file). Nothing comes back but a status: nothing is unpickled.

`flush` waits until every file given is written; the first error the child met is
raised then as the OSError it was (its code and path), and the files after it are not
written. A child gone (killed) takes the files in its pipe with it: the export fails
then, saying so. Where a process cannot fork (forking.can_fork: another thread
running, a system that does not say), the files are written in this process, as they
always were: the outcome, an error included, is the same.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import struct
from pathlib import Path

from rulepress.exporters.output_folder import FILE_MODE, OutputFolder
from rulepress.files import CLOEXEC
from rulepress.forking import can_fork, fork

FRAME = struct.Struct("<II")
"""A frame's head: its path's length and its data's length (a path of 0 bytes: flush)."""
REPLY = struct.Struct("<i")
"""The child's reply to a flush: 0, or the error's code, then its path's length and path."""
PIPE_BYTES = 1 << 20
"""The pipe's buffer: a few weapons' files go in before a write waits for the child."""
CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | CLOEXEC


def create_file(folder: int, name: str, data: bytes) -> None:
    """Create the file `name` in the open folder `folder` with `data`."""
    file = os.open(name, CREATE, FILE_MODE, dir_fd=folder)
    try:
        write_whole(file, data)
    finally:
        os.close(file)


def write_whole(descriptor: int, data: bytes) -> None:
    """Write all of `data` (a write may take less than it is given)."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


class SourceWriter:
    """Source files of one export, written beside it (a `with` block: on leaving it the
    child has written everything and is gone)."""

    def __init__(self, output: OutputFolder) -> None:
        """Files go into `output`; the child is forked when the block starts."""
        self.output = output
        self.pid: int | None = None
        self.frames = self.replies = -1

    def __enter__(self) -> SourceWriter:
        """Fork the child if this process may."""
        if can_fork():
            self._fork()
        return self

    def __exit__(self, kind, error, trace) -> None:
        """End the child; raise its error if the block raised none."""
        if self.pid is None:
            return
        try:
            if error is None:
                self.flush()
        finally:
            self._end()

    def write(self, folder: int, path: Path, data: bytes) -> None:
        """Write the new file `path` (inside the output folder; `folder` is its folder,
        open in this process): by the child, or here."""
        if self.pid is not None:
            encoded = os.fsencode(path.relative_to(self.output.root).as_posix())
            self._send(FRAME.pack(len(encoded), len(data)) + encoded + data)
            return
        try:
            create_file(folder, path.name, data)
        except OSError as exc:
            exc.filename = path  # the path in full, for the error
            raise

    def flush(self) -> None:
        """Return once every file given is written; raise the first error met."""
        if self.pid is None:
            return
        self._send(FRAME.pack(0, 0))
        (number,) = REPLY.unpack(self._read(REPLY.size))
        if number:
            (size,) = REPLY.unpack(self._read(REPLY.size))
            where = self.output.root / os.fsdecode(self._read(size))
            raise OSError(number, os.strerror(number), where)

    def _fork(self) -> None:
        frames, into_child = os.pipe()
        from_child, replies = os.pipe()
        with contextlib.suppress(OSError):
            fcntl.fcntl(into_child, fcntl.F_SETPIPE_SZ, PIPE_BYTES)

        def serve() -> None:
            os.close(into_child)
            os.close(from_child)
            _serve(self.output, frames, replies)

        pid = fork(serve)
        os.close(frames)
        os.close(replies)
        self.pid, self.frames, self.replies = pid, into_child, from_child

    def _gone(self) -> OSError:
        return OSError(errno.EIO, "the writer of the source files ended", str(self.output.root))

    def _send(self, frame: bytes) -> None:
        try:
            write_whole(self.frames, frame)
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
        if self.pid is not None:
            os.waitpid(self.pid, 0)  # its pipe closed: it reads the end and exits
            self.pid = None


def _serve(output: OutputFolder, frames: int, replies: int) -> None:
    """The child's loop: create each file framed, reply to each flush, end at the end."""
    folders: dict[str, int] = {}
    failed: tuple[int, bytes] | None = None
    with open(frames, "rb", buffering=PIPE_BYTES) as pipe:
        while head := pipe.read(FRAME.size):
            size, length = FRAME.unpack(head)
            if size == 0:  # a flush: say how it went
                reply = REPLY.pack(0) if failed is None else _failure(*failed)
                os.write(replies, reply)
                failed = None
                continue
            path = os.fsdecode(pipe.read(size))
            data = pipe.read(length)
            if failed is not None:
                continue  # the files after an error are not written
            parent, _, name = path.rpartition("/")
            try:
                if parent not in folders:
                    with output.folder(output.root / parent, create=True) as handle:
                        folders[parent] = os.dup(handle)
                create_file(folders[parent], name, data)
            except OSError as exc:
                failed = (exc.errno or errno.EIO, os.fsencode(path))


def _failure(number: int, path: bytes) -> bytes:
    return REPLY.pack(number) + REPLY.pack(len(path)) + path
