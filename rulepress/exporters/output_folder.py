"""The one guard for every file a build and a watch open inside an output folder.

An output folder is the user's (`--out`), but what lies in it may not be: a `dist/json`
committed as a link to a user's own folder, a `LOCK` link in a pack, a folder swapped for
a link while a watch runs. `OutputFolder` reaches every file below its root from the
root's own descriptor, one folder at a time, each opened with O_NOFOLLOW | O_DIRECTORY:
a link anywhere below the root is refused, for reading as for writing, and nothing is
ever written through one. A file is written whole (files.Replacement, relative to its
folder's descriptor). For a library that opens by path (plyvel, for a LevelDB pack),
`real_folder` checks every component before the path is handed over.

The root itself is followed: an `--out` the user typed may point anywhere. The default
one, `dist`, may not lead out of the working folder (`refuse_default_leading_away`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import BinaryIO, TypeVar

from rulepress.caching import digest_of_parts
from rulepress.errors import RulepressError
from rulepress.files import CLOEXEC, Replacement, open_regular

FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | CLOEXEC
FILE_MODE = 0o644
"""The mode of every output file: the output is meant to be shared (Replacement's is 0600)."""
READ_PART = 1 << 20
"""How much of a file `digest` reads at a time."""
T = TypeVar("T")
FileIdentity = tuple[int, int, int, int]
"""A file's device, inode, size and time of its last change (ctime, in nanoseconds)."""


def file_identity(file: BinaryIO) -> FileIdentity:
    """The identity of the open file's bytes (FileIdentity)."""
    status = os.fstat(file.fileno())
    return status.st_dev, status.st_ino, status.st_size, status.st_ctime_ns


class RefusedOutput(RulepressError):
    """A path inside an output folder that rulepress will not open: the message says why."""


class UnwritableOutput(RulepressError):
    """A file of an output folder that could not be written (a full disk, a file too
    large): its `path` and the `reason`."""

    def __init__(self, path: Path | str, reason: str) -> None:
        """`cannot write output PATH: REASON`."""
        super().__init__(f"cannot write output {path}: {reason}")
        self.path, self.reason = path, reason


def refuse_default_leading_away(out: Path) -> None:
    """The default output folder (`dist`, not typed by the user) may not lead out of the
    working folder: a `dist` link committed to a repository would have a build write
    wherever it points."""
    here = Path.cwd().resolve()
    if not out.resolve().is_relative_to(here):
        raise RulepressError(
            f"refusing to write into {out}: it leads out of this folder, to {out.resolve()} "
            f"(a link); remove it, or pass --out {out.resolve()} to write there"
        )


class OutputFolder:
    """The output folder `root`, and every path below it opened without following a link."""

    def __init__(self, root: Path | str) -> None:
        """Nothing is opened yet: each operation walks from the root again, so a folder
        swapped for a link between two of them is seen."""
        self.root = Path(root)

    def parts(self, path: Path | str) -> tuple[str, ...]:
        """The components of `path` (the root or a path written below it) below the root."""
        path = Path(path)
        if path == self.root:
            return ()
        try:
            parts = path.relative_to(self.root).parts
        except ValueError:
            raise RefusedOutput(f"refusing to write outside the output folder: {path}") from None
        if any(part in ("", ".", "..") for part in parts):
            raise RefusedOutput(f"refusing unsafe output name: {path}")
        return parts

    @contextlib.contextmanager
    def folder(self, path: Path | str, *, create: bool = False) -> Iterator[int]:
        """A descriptor of the folder `path`, reached from the root without following a
        link; with `create`, missing folders are made. A missing one without `create`
        raises FileNotFoundError."""
        opened: list[int] = []
        try:
            try:
                opened.append(os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | CLOEXEC))
            except FileNotFoundError:
                if not create:
                    raise
                self.root.mkdir(parents=True, exist_ok=True)
                opened.append(os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | CLOEXEC))
            where = self.root
            for part in self.parts(path):
                where = where / part
                if create:
                    with contextlib.suppress(FileExistsError):
                        os.mkdir(part, 0o755, dir_fd=opened[-1])
                try:
                    opened.append(os.open(part, FOLDER_FLAGS, dir_fd=opened[-1]))
                except FileNotFoundError:
                    raise
                except OSError:
                    raise self._refusal(where, opened[-1], part) from None
            yield opened[-1]
        finally:
            for handle in reversed(opened):
                os.close(handle)

    @staticmethod
    def _refusal(where: Path, parent: int, name: str) -> RefusedOutput:
        try:
            mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
        except OSError:
            mode = 0
        what = "a symbolic link" if stat.S_ISLNK(mode) else "not a folder"
        return RefusedOutput(
            f"refusing to write through {where}: it is {what}, not a folder rulepress "
            "wrote; move it away (a build replaces its output folders whole)"
        )

    def _split(self, path: Path | str) -> tuple[Path, str]:
        parts = self.parts(path)
        if not parts:
            raise RefusedOutput(f"not a file inside the output folder: {path}")
        return self.root.joinpath(*parts[:-1]), parts[-1]

    def read(self, path: Path | str) -> bytes | None:
        """The bytes of the file `path`, None if there is none; a link or anything but a
        regular file is refused."""
        return self.with_file(path, lambda file: file.read())

    def read_identified(self, path: Path | str) -> tuple[bytes, FileIdentity] | None:
        """The bytes of the file `path` and their identity, from one opening (None if there
        is none; refused as `read` refuses)."""
        return self.with_file(path, lambda file: (file.read(), file_identity(file)))

    def identity(self, path: Path | str) -> FileIdentity | None:
        """The identity of the file `path`'s bytes (None if there is none): what says it
        still holds the bytes `read_identified` gave with the same identity."""
        return self.with_file(path, file_identity)

    def digest(self, path: Path | str) -> str | None:
        """`caching.digest` of the file `path`'s bytes, read a part at a time (never held
        whole), None if there is none; refused as `read` refuses."""
        return self.with_file(
            path, lambda file: digest_of_parts(iter(partial(file.read, READ_PART), b""))
        )

    def with_file(self, path: Path | str, use: Callable[[BinaryIO], T]) -> T | None:
        """`use(file)` of the regular file `path` open for reading, None if there is none;
        refused as `read` refuses."""
        folder, name = self._split(path)
        try:
            with (
                self.folder(folder) as handle,
                open_regular(name, limit=None, follow_links=False, dir_fd=handle) as file,
            ):
                return use(file)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise RefusedOutput(f"cannot read output {path}: {exc.strerror or exc}") from None

    @contextlib.contextmanager
    def replacing(self, path: Path | str) -> Iterator[BinaryIO]:
        """A file to write that then replaces `path` whole (files.Replacement in its
        folder's descriptor, made if missing); nothing is left if the body raises."""
        folder, name = self._split(path)
        try:
            with self.folder(folder, create=True) as handle:
                replacement = Replacement(name, dir_fd=handle)
                try:
                    yield replacement.file
                    os.fchmod(replacement.file.fileno(), FILE_MODE)
                    replacement.commit()
                finally:
                    replacement.discard()
        except RulepressError:
            raise
        except OSError as exc:
            raise UnwritableOutput(path, exc.strerror or str(exc)) from None

    def write(self, path: Path | str, data: bytes) -> None:
        """Replace the file `path` whole with `data`."""
        with self.replacing(path) as file:
            file.write(data)

    def write_if_changed(self, path: Path | str, data: bytes) -> bool:
        """Write `data` to `path` unless it holds those bytes already; whether it wrote."""
        if self.read(path) == data:
            return False
        self.write(path, data)
        return True

    def remove(self, path: Path | str) -> None:
        """Delete a file or a folder (never what a link leads to); nothing if absent."""
        folder, name = self._split(path)
        try:
            with self.folder(folder) as handle:
                mode = os.stat(name, dir_fd=handle, follow_symlinks=False).st_mode
                if stat.S_ISDIR(mode):
                    shutil.rmtree(name, dir_fd=handle)  # descriptor-based: no link followed
                else:
                    os.unlink(name, dir_fd=handle)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise RefusedOutput(f"cannot delete output {path}: {exc.strerror or exc}") from None

    def entries(self, path: Path | str, *, skip_links: bool = False) -> dict[str, bool]:
        """Name -> whether it is a folder, for what the folder `path` holds (empty if it is
        missing); a link in it is refused, or with `skip_links` left out."""
        try:
            with self.folder(path) as handle:
                found = {}
                with os.scandir(handle) as scan:
                    for entry in scan:
                        if entry.is_symlink() and skip_links:
                            continue
                        if entry.is_symlink():
                            raise RefusedOutput(
                                f"refusing to read {Path(path) / entry.name}: it is a "
                                "symbolic link, not a file rulepress wrote"
                            )
                        found[entry.name] = entry.is_dir(follow_symlinks=False)
                return found
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise RefusedOutput(f"cannot read output {path}: {exc.strerror or exc}") from None

    def files(
        self, path: Path | str, *, skip_links: bool = False
    ) -> Iterator[tuple[tuple[str, ...], bool]]:
        """Every file and folder below the folder `path`, by its parts below it and whether
        it is a folder, in sorted order of parts; a link anywhere is refused (or with
        `skip_links`, left out: what is only looked at before it is removed)."""
        for name, is_folder in sorted(self.entries(path, skip_links=skip_links).items()):
            yield (name,), is_folder
            if is_folder:
                for parts, inner in self.files(Path(path) / name, skip_links=skip_links):
                    yield (name, *parts), inner

    def real_folder(self, path: Path | str, *, create: bool = False) -> str:
        """`path` as a string for a library that opens by path, once every component below
        the root is checked to be a real folder and everything in it a regular file or a
        folder (a LevelDB pack: plyvel opens LOCK, CURRENT and the tables by name)."""
        with self.folder(path, create=create):
            pass
        self.entries(path)
        return str(path)
