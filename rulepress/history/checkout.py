"""A compendium read from a folder or from a git revision, for `diff` and `history`."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from rulepress.compendium.model import Compendium
from rulepress.errors import RulepressError
from rulepress.git import run_git
from rulepress.validation import validate


def load_side(
    spec: str, compendium_path: str = "compendium", cwd: Path | None = None
) -> Compendium:
    """A compendium from a folder, or from a git revision of `compendium_path` (relative
    to the top of the repository that `cwd`, or the working folder, is in)."""
    if not spec.strip():  # Path("") is the working folder
        raise RulepressError("an empty name is neither a compendium folder nor a git revision")
    folder = Path(spec)
    if cwd is None and folder.is_dir():
        return _validated(folder, spec)
    return _load_revision(resolve_commit(spec, cwd), spec, compendium_path, cwd)


def _load_revision(commit: str, spec: str, compendium_path: str, cwd: Path | None) -> Compendium:
    """The compendium at `commit`, copied out of git's objects and validated."""
    # removed on leaving, whatever happens (an error, Ctrl-C)
    with tempfile.TemporaryDirectory(prefix="rulepress-diff-", ignore_cleanup_errors=True) as tmp:
        checkout = RevisionCheckout(Path(tmp) / "compendium", compendium_path, cwd)
        return _validated(checkout.check_out(commit, spec), spec)


def resolve_commit(spec: str, cwd: Path | None) -> str:
    """The commit `spec` names; a clear error for an option, a name git does not know, a
    repository without commits or a shallow clone whose history stops short of it."""
    problem = f"{spec!r} is neither a compendium folder nor a git revision"
    if spec.startswith("-"):  # git would read it as an option
        raise RulepressError(problem)
    found = run_git(
        cwd, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{spec}^{{commit}}"
    )
    if found.returncode == 0:
        return found.stdout.decode().strip()
    if run_git(cwd, "rev-parse", "--git-dir").returncode != 0:
        raise RulepressError(problem)
    if run_git(cwd, "rev-parse", "--verify", "--quiet", "HEAD").returncode != 0:
        raise RulepressError(f"{problem}: the repository has no commits yet")
    shallow = run_git(cwd, "rev-parse", "--is-shallow-repository").stdout.strip() == b"true"
    if shallow:
        raise RulepressError(
            f"{problem}: this is a shallow clone, whose history may stop before it; "
            "run `git fetch --unshallow` (or check out with full history) and try again"
        )
    raise RulepressError(problem)


class RevisionCheckout:
    """The files of `path` at one git revision after another, written below `root` from
    git's objects (not `git archive`, whose .gitattributes in the history could hide or
    rewrite files). Each object is read from git once, however many revisions hold it,
    and each revision changes only the files that differ from the one written before.
    A symbolic link is written as the link it is, for the loader to judge as it judges
    links in a working tree; a submodule is left out."""

    def __init__(self, root: Path, path: str, cwd: Path | None) -> None:
        """Nothing is checked out yet; `cwd` is the git working tree the revisions are read from."""
        self.root, self.path, self.cwd = root, path, cwd
        self.objects: dict[bytes, bytes] = {}
        """Every object read so far, by its id."""
        self.written: dict[tuple[str, ...], tuple[bytes, bytes]] = {}
        """(mode, object id) of each file or link below `root`, by its path parts."""
        self.changed: set[tuple[str, ...]] | None = None
        """The path parts the last `check_out` removed or wrote; None when it wrote the
        revision afresh (or nothing was checked out yet)."""

    def check_out(self, commit: str, spec: str) -> Path:
        """Make `root` hold the files at `commit` (`spec`, as the user named it); return it."""
        entries = self.listing(commit, spec)
        self.read_objects(entries, spec)
        wanted = {parts: (mode, obj) for mode, obj, _, parts in entries}
        fresh = not self.written
        try:
            self.changed = self._change_to(wanted)
        except OSError:  # a folder where a file now goes: write the revision afresh
            fresh = True
            try:
                shutil.rmtree(self.root, ignore_errors=True)
                self.written = {}
                self._change_to(wanted)
            except OSError as exc:
                self.written = {}
                raise RulepressError(
                    f"cannot copy {self.path}/ at {spec}: {exc.strerror or exc}"
                ) from None
        if fresh:
            self.changed = None
        return self.root

    @property
    def holds_links(self) -> bool:
        """Whether the revision checked out holds a symbolic link: a file read through one
        can change while the link does not."""
        return any(mode == LINK_MODE for mode, _ in self.written.values())

    def read_objects(self, entries: list[TreeEntry], spec: str) -> None:
        """Read from git, in one `git cat-file --batch`, the objects of `entries` not read yet."""
        missing = sorted({obj for _, obj, _, _ in entries if obj not in self.objects})
        if missing:
            blobs = run_git(
                self.cwd, "cat-file", "--batch", stdin=b"".join(o + b"\n" for o in missing)
            )
            contents = _batch_contents(blobs.stdout, len(missing))
            if blobs.returncode != 0 or contents is None:
                raise RulepressError(f"git could not read {self.path}/ at {spec}")
            self.objects.update(zip(missing, contents, strict=True))

    def listing(self, commit: str, spec: str) -> list[TreeEntry]:
        """The files and links of `path` at `commit` (`git ls-tree`), their objects unread;
        RulepressError when there are none or they hold more than `MAX_REVISION_BYTES`."""
        listed = run_git(
            self.cwd, "ls-tree", "-r", "-z", "-l", "--full-tree", commit, "--", self.path
        )
        entries = [_tree_entry(line, self.path) for line in listed.stdout.split(b"\0") if line]
        found = [entry for entry in entries if entry is not None]
        if listed.returncode != 0 or not found:
            reason = listed.stderr.decode(errors="replace").strip() or "no files there"
            raise RulepressError(f"git has no {self.path}/ at {spec}: {reason}")
        total = sum(size for _, _, size, _ in found)
        if total > MAX_REVISION_BYTES:
            raise RulepressError(
                f"{self.path}/ at {spec} holds {total} bytes; more than {MAX_REVISION_BYTES} "
                "is refused"
            )
        return found

    def _change_to(
        self, wanted: dict[tuple[str, ...], tuple[bytes, bytes]]
    ) -> set[tuple[str, ...]]:
        """Remove what `wanted` does not hold as it is, then write what is new; return the
        path parts of both."""
        real_root = self.root.resolve() if self.root.exists() else None
        changed: set[tuple[str, ...]] = set()
        for parts, held in list(self.written.items()):
            if wanted.get(parts) == held:
                continue
            changed.add(parts)
            del self.written[parts]
            target = self.root.joinpath(*parts)
            if real_root is not None and target.parent.resolve() == real_root.joinpath(*parts[:-1]):
                target.unlink(missing_ok=True)  # never through a link
        self.root.mkdir(parents=True, exist_ok=True)
        new = [(parts, held) for parts, held in wanted.items() if parts not in self.written]
        for parts, (mode, obj) in sorted(new, key=lambda pair: pair[1][0] == LINK_MODE):
            # links last: no file is ever written through one
            _write_entry(self.root, parts, mode, self.objects[obj])
            self.written[parts] = (mode, obj)
            changed.add(parts)
        return changed


TreeEntry = tuple[bytes, bytes, int, tuple[str, ...]]
"""(mode, object id, size, path parts below the compendium folder) of a file or link."""
MAX_REVISION_BYTES = 1 << 30
"""A revision's compendium is read into memory; a larger one is refused."""
FILE_MODES = (b"100644", b"100755")
LINK_MODE = b"120000"


def _tree_entry(line: bytes, path: str) -> tuple[bytes, bytes, int, tuple[str, ...]] | None:
    """(mode, object id, size, path parts below `path`) of a file or link; None for
    anything else (a submodule) or a name no file system could hold safely."""
    info, _, name = line.partition(b"\t")
    mode, kind, obj, size = info.split()
    if kind != b"blob" or mode not in (*FILE_MODES, LINK_MODE):
        return None
    relative = os.fsdecode(name)
    if path not in ("", "."):
        prefix = path.strip("/") + "/"
        if not relative.startswith(prefix):
            return None
        relative = relative[len(prefix) :]
    parts = tuple(relative.split("/"))
    if any(part in ("", ".", "..") for part in parts):
        return None
    return mode, obj, int(size), parts


def _batch_contents(output: bytes, count: int) -> list[bytes] | None:
    """The objects' bytes in the order asked, from `git cat-file --batch`'s output:
    `<id> <type> <size>` then the bytes and a newline, for each."""
    contents, offset = [], 0
    for _ in range(count):
        end = output.find(b"\n", offset)
        header = output[offset:end].split()
        if end < 0 or len(header) != 3 or not header[2].isdigit():
            return None
        start = end + 1
        contents.append(output[start : start + int(header[2])])
        offset = start + int(header[2]) + 1
    return contents


def _write_entry(root: Path, parts: tuple[str, ...], mode: bytes, content: bytes) -> None:
    target = root.joinpath(*parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.parent.resolve() != root.resolve().joinpath(*parts[:-1]):
        return  # a malformed tree put a link where a folder goes: never write through it
    if mode == LINK_MODE:
        if b"\0" not in content:  # no file system holds such a link: left out
            os.symlink(os.fsdecode(content), target)
        return
    with open(target, "xb") as handle:  # "x": never through a link written before
        handle.write(content)


def _validated(folder: Path, spec: str) -> Compendium:
    validation = validate(folder)
    if not validation.ok:
        raise RulepressError(f"the compendium at {spec} has errors; run `rulepress validate`")
    return validation.compendium
