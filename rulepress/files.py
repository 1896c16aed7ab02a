"""Reading a file that anyone may have put there: only a regular file, and only so much;
and writing one whole (`Replacement`), never through a link.

A content repository may hold a named pipe (reading it blocks forever), a link to
/dev/zero (reading it never ends), a socket, or a sparse file of many gigabytes. Every
file rulepress reads from a repository goes through `open_regular`: it looks before it
opens (a pipe or a device is never opened), opens without blocking, looks again at what
it opened, and refuses anything that is not a regular file or is larger than a bound.
Only modules Python loads at start are imported here: the launcher uses it.
"""

from __future__ import annotations

import io  # loaded at start (sys.stdout is one); typing is not
import os
import stat

CLOEXEC = getattr(os, "O_CLOEXEC", 0)
MAX_DOCUMENT_BYTES = 2 * 2**20
"""The most a compendium file may hold: 2 MiB, 300 times the largest bundled document
(6.7 KB) and about a second of parsing with libyaml (~1 ms per 2.3 KB)."""

_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
)


class RefusedFile(OSError):
    """A file rulepress will not read; the message says why."""


def _check(status: os.stat_result, limit: int | None) -> None:
    if not stat.S_ISREG(status.st_mode):
        kind = next((name for test, name in _KINDS if test(status.st_mode)), "a special file")
        raise RefusedFile(f"not a regular file ({kind}); refused")
    if limit is not None and status.st_size > limit:
        raise RefusedFile(f"larger than {limit // 2**20} MiB; refused")


def open_regular(
    path: str | os.PathLike,
    *,
    limit: int | None = MAX_DOCUMENT_BYTES,
    follow_links: bool = True,
    dir_fd: int | None = None,
) -> io.BufferedReader:
    """`path` opened for reading, if it is a regular file of at most `limit` bytes;
    else RefusedFile. With `follow_links=False` a link is refused too."""
    _check(os.stat(path, dir_fd=dir_fd, follow_symlinks=follow_links), limit)
    flags = os.O_RDONLY | os.O_NONBLOCK | CLOEXEC
    if not follow_links:
        flags |= os.O_NOFOLLOW
    handle = os.open(path, flags, dir_fd=dir_fd)
    try:
        _check(os.fstat(handle), limit)  # what was opened, should the path have changed
        return os.fdopen(handle, "rb")
    except BaseException:
        os.close(handle)
        raise


def read_regular(
    path: str | os.PathLike, limit: int = MAX_DOCUMENT_BYTES, *, follow_links: bool = True
) -> bytes:
    """The bytes of `path`, a regular file of at most `limit` bytes; else RefusedFile."""
    with open_regular(path, limit=limit, follow_links=follow_links) as file:
        data = file.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        raise RefusedFile(f"larger than {limit // 2**20} MiB; refused")
    return data


class Replacement:
    """A file that takes the place of `path` whole: written beside it under a name of its
    own, then renamed over it (`commit`), so a reader finds the old file or the new one,
    never part of one, and a process killed half way leaves only a temporary file. The
    temporary file is made by this process (O_EXCL, O_NOFOLLOW, mode 0o600): it is never
    a link someone put there, nor a file someone else holds open. Every cache, stamp and
    key file and the compendium writer write through it. With `dir_fd`, `path` is
    relative to that folder, which is then never reached through a link."""

    def __init__(self, path: str | os.PathLike, *, dir_fd: int | None = None) -> None:
        """Open the temporary file at once (never through a link, never an existing file), so a
        path that cannot be written fails before any work."""
        self.path = os.fspath(path)
        self.dir_fd = dir_fd
        folder, name = os.path.split(self.path)
        self.temporary = os.path.join(folder, f".{name}.{os.urandom(8).hex()}.tmp")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | CLOEXEC
        handle = os.open(self.temporary, flags, 0o600, dir_fd=dir_fd)
        self.file = os.fdopen(handle, "wb")

    def commit(self, *, replace: bool = True) -> None:
        """Close the file and put it at `path`: over whatever is there, or with
        `replace=False` only if nothing is (else FileExistsError). On an OSError the
        temporary file is left for `discard`."""
        self.file.close()
        if replace:
            os.replace(self.temporary, self.path, src_dir_fd=self.dir_fd, dst_dir_fd=self.dir_fd)
            return
        where = {"src_dir_fd": self.dir_fd, "dst_dir_fd": self.dir_fd}
        os.link(self.temporary, self.path, **where, follow_symlinks=False)
        self.discard()

    def discard(self) -> None:
        """Remove the temporary file, if it is still there (call it in a `finally`)."""
        for step in (self.file.close, lambda: os.unlink(self.temporary, dir_fd=self.dir_fd)):
            try:  # noqa: SIM105 - contextlib is not among the modules loaded at start
                step()
            except OSError:
                pass
