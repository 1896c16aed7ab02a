"""A no-op `rulepress build` answered from a stamp, before click, pydantic or jinja2 load.

After a successful build the CLI writes a stamp: every file the build read (the
compendium, the rulepress package with its templates and site assets, a --templates
folder, the settings file and the files it names), each by the digest of its bytes;
the compendium's git commit and the variables that change an output; every folder of
the trees it wrote. Run again with the same arguments in the same folder, the launcher
checks them all again; when nothing differs it prints the stamp's report and stops. A
file is read again only if it may have changed: one whose inode, size and times are
those the stamp noted, last changed well before the stamp was taken, has its noted
digest (a write sets a file's change time, which no program can set back). A folder
tree is not even listed again while each of its folders has the inode and times noted,
last changed well before the stamp: adding, removing or renaming an entry sets its
folder's times, so only the files noted can be there.
Anything else (a changed, added or removed file, a commit, an output folder replaced or
a file added to or removed from one, other arguments, `--force` or `--no-cache`) runs
the real build.
The stamp is sealed with the user's key (rulepress.sealed), so a stamp committed to a
repository is no stamp, and one of any other shape than this code writes is none either.
Only standard-library modules Python loads at start are imported here (through
rulepress.caching, rulepress.files and rulepress.sealed too): the point is to cost no
more than Python's own start.
"""

from __future__ import annotations

import marshal  # built in: the stamp is read before anything else is imported
import os
import sys
import time

from rulepress import sealed
from rulepress.caching import (
    SKIPPED_FOLDERS,
    cache_folder,
    code_folders,
    digest,
    file_digest,
    file_digests,
    file_state,
    file_states,
    relative_prefix,
    tree_digests,
)
from rulepress.files import open_regular

STAMP_VERSION = 5


RACY_NS = 2_000_000_000
"""A file changed less than this before the snapshot may be written again within the
same tick of the file system's clock, its times unchanged: its state is not trusted."""


def folder_states(folder: str, skipped: tuple[str, ...] = ()) -> list[list] | None:
    """[path relative to `folder` ("" for itself), inode, modification and change times]
    of `folder` and of every folder below it (not through links, none named in
    `skipped`); None if one of them cannot be listed. An entry added to a folder, removed
    or renamed sets the folder's times: while they are unchanged, so are its entries."""
    states, unlisted = [], []
    for parent, folders, _ in os.walk(folder, onerror=unlisted.append):
        folders[:] = [name for name in folders if name not in skipped]
        status = os.lstat(parent)
        relative = relative_prefix(parent, folder)[:-1]
        states.append([relative, status.st_ino, status.st_mtime_ns, status.st_ctime_ns])
    return None if unlisted else states


def folders_unchanged(folder: str, states: list[list]) -> bool:
    """Whether each folder `folder_states` noted has its inode and times still (each
    stated, none listed)."""
    for relative, *state in states:
        try:
            status = os.lstat(os.path.join(folder, relative) if relative else folder)
        except OSError:
            return False
        if [status.st_ino, status.st_mtime_ns, status.st_ctime_ns] != state:
            return False
    return True


def _unchanged(
    folder: str,
    digests: dict[str, str],
    states: dict[str, list[int]],
    folders: list[list] | None,
    taken: int,
) -> bool:
    """Whether `folder` holds exactly these files with these digests (stops at the first
    difference: a build that has work to do should not wait for a full comparison). A
    file whose state (`file_state`: inode, size and times) is the one the snapshot saw,
    and was last changed well before it (`RACY_NS`), has the digest then taken without
    being read: a write sets its change time, which no program can set back. When every
    folder of the tree and every file noted is so (`_stated_unchanged`), the tree is not
    listed either."""
    if not os.path.isdir(folder):
        return False
    trusted = taken - RACY_NS
    if _stated_unchanged(folder, digests, states, folders, trusted):
        return True

    def known(relative: str, path: str) -> str | None:
        return digests.get(relative) if _as_noted(states, relative, path, trusted) else None

    seen = 0
    for path, found in file_digests(folder, known):
        if digests.get(path) != found:
            return False
        seen += 1
    return seen == len(digests)


def _stated_unchanged(
    folder: str,
    digests: dict[str, str],
    states: dict[str, list[int]],
    folders: list[list] | None,
    trusted: int,
) -> bool:
    """Whether, by their states alone, the tree's folders and files are those the
    snapshot saw, each last changed before `trusted`: then no entry was added, removed or
    renamed anywhere in it, and no file written. Anything else (a folder or a file
    changed, or changed lately; a link to a folder, which has no state) is for the full
    comparison to judge."""
    if folders is None or any(state[2] >= trusted or state[3] >= trusted for state in folders):
        return False
    if not folders_unchanged(folder, folders):
        return False
    return all(
        _as_noted(states, relative, os.path.join(folder, relative), trusted) for relative in digests
    )


def _as_noted(states: dict[str, list[int]], relative: str, path: str, trusted: int) -> bool:
    """Whether the file at `path` has the state the snapshot noted of `relative`, and was
    last changed before `trusted`: then its noted digest holds without its being read."""
    state = states.get(relative)
    return state is not None and state[3] < trusted and file_state(path) == state


def snapshot(compendium: str, others: list[str], single: list[str] = ()) -> dict:
    """What a build is about to read: every file of the package, the compendium and the
    `others` folders, and each of the `single` files (or that it is absent), by digest,
    and the compendium's git commit (the site shows its history). Taken before the
    build, so an edit made while it runs is seen next time. Each file's state is taken
    before its bytes, so a file written meanwhile is read again next time."""
    taken = time.time_ns()
    folders = [os.path.abspath(f) for f in [*code_folders(), compendium, *others]]
    trees = {f: folder_states(f, SKIPPED_FOLDERS) for f in folders if os.path.isdir(f)}
    states = {f: file_states(f) for f in folders if os.path.isdir(f)}
    files = {f: tree_digests(f) for f in folders if os.path.isdir(f)}
    singles = {os.path.abspath(f): file_digest(f) for f in single}
    return {
        "files": files,
        "states": states,
        "folders": trees,
        "taken": taken,
        "single": singles,
        "git": _git_record(compendium),
    }


def _git_record(folder: str) -> list | None:
    """[git dir, common dir, state] of the repository holding `folder`, if any."""
    from rulepress.git import git_output  # only a real build gets here

    found = git_output(folder, "rev-parse", "--absolute-git-dir", "--git-common-dir")
    lines = found.splitlines() if found else []
    if len(lines) != 2:
        return None
    git_dir, common = lines[0], os.path.join(folder, lines[1])
    common = os.path.abspath(common if not os.path.isabs(lines[1]) else lines[1])
    return [git_dir, common, _git_state(git_dir, common)]


def _git_state(git_dir: str, common: str) -> list[str]:
    """Digests of HEAD and of the ref it names: a commit or a checkout changes them."""

    def read(path: str) -> bytes:
        try:  # git's own files, of any size (packed-refs may be large); never a pipe
            with open_regular(path, limit=None) as file:
                return file.read()
        except OSError:
            return b""

    head = read(os.path.join(git_dir, "HEAD"))
    state = [head]
    if head.startswith(b"ref: "):
        ref = head[5:].strip().decode("utf-8", "surrogateescape")
        state += [read(os.path.join(common, ref)), read(os.path.join(common, "packed-refs"))]
    return [digest(part) for part in state]


ENVIRONMENT_VARIABLES = ("SOURCE_DATE_EPOCH", "TZ")  # the site's build date and its dates


def _environment() -> list:
    """The Python running, its installed packages (a pip install touches their folder),
    the plugins installed, and the environment variables that change an output."""
    folders = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    return [
        sys.version,
        code_folders(),
        [[p, os.stat(p).st_mtime_ns] for p in folders if os.path.isdir(p)],
        [os.environ.get(name) for name in ENVIRONMENT_VARIABLES],
    ]


def _output_state(folder: str) -> list:
    """`folder_states` of an output tree: a folder replaced, or a file or folder added or
    removed anywhere in it, changes them (a file edited in place does not)."""
    state = folder_states(folder)
    if not state:  # no folder, or one that cannot be listed: never up to date
        raise FileNotFoundError(folder)
    return state


def _left_over(folder: str) -> bool:
    """Whether a staging folder or a retired output of `folder` lies beside it: a build
    was killed there, and only a real build tidies it (exporters.output)."""
    parent, name = os.path.split(os.path.normpath(folder))
    starts = (f".{name}.staging-", f".{name}.retired-")
    return any(entry.startswith(starts) for entry in os.listdir(parent or "."))


def _stamp_name(argv: list[str]) -> str:
    # marshal's bytes differ between runs for equal values, so the key joins strings
    key = digest("\0".join([os.getcwd(), sys.prefix, *argv]).encode("utf-8", "surrogateescape"))
    return f"stamp-{key}"


def write_stamp(argv: list[str], stamp: object) -> None:
    """Seal `stamp` as the stamp of a build run with `argv`."""
    sealed.write(cache_folder(), _stamp_name(argv), marshal.dumps(stamp))


def read_stamp(argv: list[str]) -> dict | None:
    """The stamp of a build run with `argv`, if there is one of the shape record() writes."""
    body = sealed.read(cache_folder(), _stamp_name(argv))
    try:
        stamp = marshal.loads(body) if body is not None else None
    except (EOFError, ValueError, TypeError):
        return None
    return stamp if _well_formed(stamp) else None


def _well_formed(stamp: object) -> bool:
    """Whether `stamp` has the shape record() writes: a stamp of an older rulepress,
    sealed with the same key, may hold anything (and its report is printed as it is)."""
    if type(stamp) is not dict or stamp.get("version") != STAMP_VERSION:
        return False
    outputs, inputs = stamp.get("outputs"), stamp.get("inputs")
    if not (_made_of(stamp.get("report"), list, str) and _made_of(outputs, dict, str)):
        return False
    if type(inputs) is not dict or not _made_of(inputs.get("files"), dict, str):
        return False
    single = inputs.get("single")
    if not (_made_of(single, dict, str) and _made_of(list(single.values()), list, str)):
        return False
    git, states = inputs.get("git"), inputs.get("states")
    if type(inputs.get("taken")) is not int or not _made_of(states, dict, str):
        return False
    if not all(
        _made_of(held, dict, str)
        and all(_made_of(s, list, int) and len(s) == 4 for s in held.values())
        for held in states.values()
    ):
        return False
    trees = inputs.get("folders")
    if not (_made_of(trees, dict, str) and all(t is None or _folders(t) for t in trees.values())):
        return False
    return (
        all(_folders(state) for state in outputs.values())
        and all(_made_of(digests, dict, str) for digests in inputs["files"].values())
        and (git is None or (type(git) is list and len(git) == 3 and _made_of(git[2], list, str)))
    )


def _folders(value: object) -> bool:
    """Whether `value` has the shape `folder_states` gives."""
    return _made_of(value, list, list) and all(
        len(state) == 4 and type(state[0]) is str and _made_of(state[1:], list, int)
        for state in value  # type: ignore[union-attr]
    )


def _made_of(value: object, container: type, item: type) -> bool:
    """Whether `value` is a `container` whose items (a dict's keys) are all `item`s."""
    return type(value) is container and all(type(i) is item for i in value)  # type: ignore[attr-defined]


def record(argv: list[str], inputs: dict, outputs: list[str], report: list[str]) -> None:
    """Stamp a successful build run with `argv`. Call it while the build still holds its
    output lock, so that the outputs recorded are its own. Written whole or not at all; a
    folder that cannot be written only means that the next run builds again."""
    try:
        stamp = {
            "version": STAMP_VERSION,
            "environment": _environment(),
            "inputs": inputs,
            "outputs": {os.path.abspath(f): _output_state(f) for f in outputs},
            "report": report,
        }
    except OSError:
        return
    write_stamp(argv, stamp)


def up_to_date(argv: list[str]) -> list[str] | None:
    """The report of the stamped build when nothing it read or wrote has changed."""
    if not argv or argv[0] != "build" or {"--force", "--no-cache", "-h", "--help"} & set(argv):
        return None
    stamp = read_stamp(argv)
    if stamp is None:
        return None
    try:
        if stamp["environment"] != _environment():
            return None
        for folder, state in stamp["outputs"].items():  # the cheaper checks first
            if not folders_unchanged(folder, state) or _left_over(folder):
                return None
        git = stamp["inputs"]["git"]
        if git is not None and _git_state(git[0], git[1]) != git[2]:
            return None
        inputs = stamp["inputs"]
        states, trees, taken = inputs["states"], inputs["folders"], inputs["taken"]
        for folder, digests in inputs["files"].items():
            if not _unchanged(folder, digests, states.get(folder, {}), trees.get(folder), taken):
                return None
        for path, found in stamp["inputs"]["single"].items():
            if file_digest(path) != found:
                return None
        return list(stamp["report"])
    except (OSError, EOFError, ValueError, KeyError, TypeError, AttributeError):
        return None  # a folder that cannot be read, or a stamp this code cannot use: build
