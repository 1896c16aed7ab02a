"""What every cache and the build stamp share: where they live, and content named by the
digest of its bytes (a file, a folder tree, the rulepress code itself).

The compendium's document cache and the build stamp use it. Only the standard library
is imported here (through rulepress.files and rulepress.sealed too), because the
launcher's no-op build uses it.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable, Iterator

from rulepress.environment import installed_path
from rulepress.files import read_regular
from rulepress.sealed import blake2b  # hashlib's, without OpenSSL (see rulepress.sealed)

PACKAGE = os.path.dirname(os.path.abspath(__file__))
SKIPPED_FOLDERS = ("__pycache__",)


def cache_folder() -> str:
    """Where caches and stamps live: $RULEPRESS_CACHE_DIR, else ./.rulepress-cache."""
    return os.environ.get("RULEPRESS_CACHE_DIR") or ".rulepress-cache"


def digest(data: bytes) -> str:
    """A short name for these bytes: 128 bits of BLAKE2b, in hex."""
    return blake2b(data, digest_size=16).hexdigest()


def digest_of_parts(parts: Iterable[bytes]) -> str:
    """`digest` of the parts joined, without joining them (a file written in parts)."""
    hasher = blake2b(digest_size=16)
    for part in parts:
        hasher.update(part)
    return hasher.hexdigest()


def file_digests(
    folder: str, known: Callable[[str, str], str | None] | None = None
) -> Iterator[tuple[str, str]]:
    """(path relative to `folder`, digest of its bytes) for every file below `folder`. A
    file that cannot be read (a pipe, a device, a file too large to be a document) gets a
    marker: the loader reports it, the stamp only notes it, and never waits on it.
    `known(relative path, path)` may give a file's digest without its being read (None:
    read it)."""
    for parent, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if name not in SKIPPED_FOLDERS]
        below = relative_prefix(parent, folder)
        for name in folders:  # not walked into, but the loader may read through them
            path = os.path.join(parent, name)
            if os.path.islink(path):
                yield below + name, f"link to {os.readlink(path)}"
        for name in files:
            path = os.path.join(parent, name)
            found = known(below + name, path) if known is not None else None
            if found is None:
                try:
                    found = digest(read_regular(path))
                except OSError as problem:
                    found = f"unreadable: {problem}"
            yield below + name, found


def file_state(path: str) -> list[int] | None:
    """The inode, size, modification and change times of the file at `path` (through a
    link), or None: what changes when the file is written, replaced or touched, its
    change time whatever the writer does about the others."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return [status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns]


def file_states(folder: str) -> dict[str, list[int]]:
    """Relative path -> `file_state`, for every file `file_digests` gives a digest of."""
    states = {}
    for parent, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if name not in SKIPPED_FOLDERS]
        below = relative_prefix(parent, folder)
        for name in files:
            state = file_state(os.path.join(parent, name))
            if state is not None:
                states[below + name] = state
    return states


def relative_prefix(parent: str, folder: str) -> str:
    """`parent` (from os.walk(folder)) relative to `folder`, ending in a separator
    (os.path.relpath costs more than reading a small file)."""
    return "" if parent == folder else parent[len(folder) :].lstrip(os.sep) + os.sep


def tree_digests(folder: str) -> dict[str, str]:
    """Relative path -> digest of the bytes, for every file below `folder`."""
    return dict(file_digests(folder))


@functools.cache
def code_digest() -> str:
    """One digest of the rulepress package and its installed plugins (code and templates)
    and the Python running it: anything made by other code is never reused. Taken once a
    process (the document cache and the build stamp ask): it stands for the
    code this process runs."""
    listing = [sys.version]
    for folder in code_folders():
        digests = tree_digests(folder) if os.path.isdir(folder) else {"": file_digest(folder)}
        listing += [f"{folder} {path} {hexdigest}" for path, hexdigest in sorted(digests.items())]
    return digest("\n".join(listing).encode("utf-8", "surrogateescape"))


def file_digest(path: str) -> str:
    """The digest of one file's bytes; "absent" or "unreadable" when it has none."""
    try:
        return digest(read_regular(path))
    except FileNotFoundError:
        return "absent"
    except OSError:
        return "unreadable"


PLUGIN_GROUPS = ("[rulepress.games]", "[rulepress.kinds]", "[rulepress.exporters]")
"""The entry-point groups whose modules are plugin code (rulepress's own games name
rulepress itself, which is already the first folder)."""


def code_folders() -> list[str]:
    """The rulepress package, then the folder (or file) of each installed plugin's
    top-level module: the code whose change makes every cache and stamp stale. Found from
    the installed distributions' `entry_points.txt` directly: importlib.metadata would
    cost the launcher's no-op build more than the rest of it."""
    return [PACKAGE, *(folder for folder in _plugin_folders() if folder != PACKAGE)]


@functools.cache
def _plugin_folders() -> tuple[str, ...]:
    """The installed plugins' code, found once a process: nothing installs one meanwhile.
    Only the installed environment is looked in, as plugin discovery does
    (rulepress.environment): the working folder's distributions are no plugins."""
    modules: set[str] = set()
    for entry in installed_path():
        try:
            names = os.listdir(entry)
        except OSError:
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                modules |= _plugin_modules(os.path.join(entry, name, "entry_points.txt"))
    folders: list[str] = []
    # rulepress's own games name rulepress itself: its folder comes first already, and
    # finding it would import importlib.util, which an installed rulepress has not loaded
    for module in sorted(modules - {"rulepress"}):
        location = _location(module)
        if location and location not in folders:
            folders.append(location)
    return tuple(folders)


def _plugin_modules(path: str) -> set[str]:
    """Top-level modules the rulepress entry points of one distribution name."""
    try:
        text = read_regular(path).decode("utf-8", "replace")
    except OSError:
        return set()
    found, ours = set(), False
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            ours = line in PLUGIN_GROUPS
        elif ours and "=" in line:
            found.add(line.split("=", 1)[1].split(":")[0].strip().split(".")[0])
    return found


def _location(module: str) -> str | None:
    """The folder of a package, or the file of a module, without importing it (as the
    import would find it: an editable install's finder too)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return os.path.abspath(next(iter(spec.submodule_search_locations)))
    return os.path.abspath(spec.origin) if spec.origin else None
