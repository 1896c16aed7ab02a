"""Reading a file that anyone may have put there: only a regular file, only so much, and
only inside its repository (`inside`); and writing one whole (`Replacement`), never
through a link.

A content repository may hold a named pipe (reading it blocks forever), a link to
/dev/zero (reading it never ends), a socket, or a sparse file of many gigabytes. Every
file rulepress reads from a repository goes through `open_regular`: it looks before it
opens (a pipe or a device is never opened), opens without blocking, looks again at what
it opened, and refuses anything that is not a regular file or is larger than a bound.

Every path read from a content repository (the compendium's files, the settings file, the
files the settings name) is first resolved by `inside`, one part at a time: no step may
leave the repository (a `..` above it, a link out, even one that comes back in) or enter a
`.git` at any depth (the checkout's credentials are in `.git/config`). A refusal says why
and never what the file holds.
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


MAX_LINKS = 40
"""The most links one path may pass through (Linux's own limit): more is taken for a loop."""


class OutsideRepository(RefusedFile):
    """A path that leads outside its repository, into a `.git`, or round a loop of links."""


def inside(
    root: str | os.PathLike, relative: str | os.PathLike, *, name: str = "the repository"
) -> str:
    """The real path of `relative` (a path below `root`), every link in it followed, if no
    step of the way leaves `root` or enters a `.git`; else OutsideRepository, whose
    message calls `root` `name`. A missing part is a FileNotFoundError. An absolute link
    is followed only into `root` itself."""
    real_root = os.path.realpath(root)
    outside = f"points outside {name}"
    spelled = (os.path.abspath(root), real_root)
    pending = os.fspath(relative).split(os.sep)[::-1]  # a stack: the next part last
    current, links = real_root, 0
    while pending:
        part = pending.pop()
        if part in ("", os.curdir):
            continue
        if part == os.pardir:
            if current == real_root:
                raise OutsideRepository(outside)
            current = os.path.dirname(current)
            continue
        if part.casefold() == ".git":  # casefold: one folder where names ignore case
            raise OutsideRepository("points into .git")
        candidate = os.path.join(current, part)
        try:
            target = os.readlink(candidate)
        except OSError as error:
            if not os.path.lexists(candidate):
                raise FileNotFoundError(error.errno, "no such file", candidate) from None
            current = candidate  # not a link
            continue
        links += 1
        if links > MAX_LINKS:
            raise OutsideRepository(f"is a loop of links, or a chain of more than {MAX_LINKS}")
        if os.path.isabs(target):
            target, current = _below(target, spelled, outside), real_root
        pending += target.split(os.sep)[::-1]
    return current


def _below(target: str, roots: tuple[str, ...], outside: str) -> str:
    """An absolute link's target relative to the repository, by either spelling of it."""
    for root in roots:
        if target == root or target.startswith(root.rstrip(os.sep) + os.sep):
            return target[len(root) :]
    raise OutsideRepository(outside)


def link_refusal(
    path: str | os.PathLike, root: str | os.PathLike, name: str = "the compendium"
) -> str | None:
    """Why the link `path` (a path below `root`) is not followed: it leads out of `root`,
    even to come back, into a `.git`, round a loop, or nowhere. None for a link that
    stays inside, and for anything that is no link."""
    if not os.path.islink(path):
        return None
    try:
        inside(root, os.path.relpath(path, root), name=name)
    except OutsideRepository as refused:
        return f"symbolic link {refused}; refused"
    except OSError:
        return "symbolic link points nowhere; refused"
    return None


def read_inside(
    root: str | os.PathLike,
    relative: str | os.PathLike,
    limit: int = MAX_DOCUMENT_BYTES,
    *,
    name: str = "the repository",
) -> bytes:
    """The bytes of `relative`, a regular file of at most `limit` bytes resolved `inside`
    `root`; else OutsideRepository, RefusedFile or another OSError."""
    return read_regular(inside(root, relative, name=name), limit, follow_links=False)


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
        # as many bytes as it holds, and one more to see whether it grew: a read of
        # `limit` bytes allocates that much for every file (3 times the cost of a small one)
        size = os.fstat(file.fileno()).st_size
        data = file.read(size + 1)
        if len(data) > size:
            data += file.read(limit + 1 - len(data))
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
