"""What changed in the rules between two compendiums, and over the git history.

A compendium is read from a folder or from a git revision. Documents are matched by id (a
document whose `previous_ids` name a vanished id is a rename, not a removal and an
addition); rows of tables are matched by their AP, level or id, so a changed cell reads
"Light Combat Pistol: damage at AP 12 from 13 to 14". Then the figures the rules compute
from the data (odds by rank and by pool) are compared, to show what a change does in play.
Each change's `text` is that sentence, the one wording `rulepress diff` prints and the
site's Changes page shows (per commit, from `history`; commit messages are never shown).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from rulepress.compendium.cache import DocumentCache, DocumentsInMemory
from rulepress.compendium.loader import load_compendium
from rulepress.compendium.model import Compendium, Ruleset
from rulepress.errors import Level, RulepressError
from rulepress.git import git_output, run_git
from rulepress.models import Document, SkillTest, StepDice, WeaponProfile
from rulepress.models.step_dice import STEPS
from rulepress.validation import validate

IDENTITY_KEYS = ("ap", "level", "id", "benefit", "unit", "source", "skill")
KIND_LABELS = {
    "tc-source": "TC source",
    "tc-ladder": "TC ladder",
    "cp-spending": "CP table",
    "cp-earning": "CP table",
    "weapon-section": "weapon section",
}
MAX_COMPUTED = 12
MAX_SCANNED_COMMITS = 20
"""How far back `history` looks for commits that changed a rule."""


@dataclass(frozen=True)
class Change:
    """One change to the rules, as a line a reader understands."""

    ruleset: str
    kind: str
    document: str
    change: str
    """added, removed, renamed, changed or computed."""
    text: str
    before: str | None = None
    """For a computed figure, its exact chance before the change ("5/36"); else None."""
    after: str | None = None
    """For a computed figure, its exact chance after the change; else None."""


def kind_label(kind: str) -> str:
    """A kind as a reader says it: `weapon`, `skill test`."""
    return KIND_LABELS.get(kind, kind.replace("-", " "))


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
    return _load_revision(_commit(spec, cwd), spec, compendium_path, cwd)


def _load_revision(commit: str, spec: str, compendium_path: str, cwd: Path | None) -> Compendium:
    """The compendium at `commit`, copied out of git's objects and validated."""
    # removed on leaving, whatever happens (an error, Ctrl-C)
    with tempfile.TemporaryDirectory(prefix="rulepress-diff-", ignore_cleanup_errors=True) as tmp:
        checkout = RevisionCheckout(Path(tmp) / "compendium", compendium_path, cwd)
        return _validated(checkout.check_out(commit, spec), spec)


def _commit(spec: str, cwd: Path | None) -> str:
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

    def check_out(self, commit: str, spec: str) -> Path:
        """Make `root` hold the files at `commit` (`spec`, as the user named it); return it."""
        entries = self._entries(commit, spec)
        missing = sorted({obj for _, obj, _, _ in entries if obj not in self.objects})
        if missing:
            blobs = run_git(
                self.cwd, "cat-file", "--batch", stdin=b"".join(o + b"\n" for o in missing)
            )
            contents = _batch_contents(blobs.stdout, len(missing))
            if blobs.returncode != 0 or contents is None:
                raise RulepressError(f"git could not read {self.path}/ at {spec}")
            self.objects.update(zip(missing, contents, strict=True))
        wanted = {parts: (mode, obj) for mode, obj, _, parts in entries}
        try:
            self._change_to(wanted)
        except OSError:  # a folder where a file now goes: write the revision afresh
            try:
                shutil.rmtree(self.root, ignore_errors=True)
                self.written = {}
                self._change_to(wanted)
            except OSError as exc:
                self.written = {}
                raise RulepressError(
                    f"cannot copy {self.path}/ at {spec}: {exc.strerror or exc}"
                ) from None
        return self.root

    def _entries(self, commit: str, spec: str) -> list[tuple[bytes, bytes, int, tuple[str, ...]]]:
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

    def _change_to(self, wanted: dict[tuple[str, ...], tuple[bytes, bytes]]) -> None:
        """Remove what `wanted` does not hold as it is, then write what is new."""
        real_root = self.root.resolve() if self.root.exists() else None
        for parts, held in list(self.written.items()):
            if wanted.get(parts) == held:
                continue
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


@dataclass(frozen=True)
class Revision:
    """A commit that changed the rules, with the changes it made. Its message is left
    out: it is the tool's words (and untrusted text), not the game's."""

    commit: str
    date: str
    changes: tuple[Change, ...]


def history(compendium: Compendium, limit: int = 3) -> list[Revision]:
    """The rules changes of the last `limit` commits that changed a rule, newest first,
    looking back over at most `MAX_SCANNED_COMMITS` commits that touched the compendium
    (a commit that changed no rule, only formatting or notes, is skipped); empty outside
    a git checkout.

    Each revision is read from git's objects (each object once) and loaded, without the
    cross-document checks: comparing needs only the documents. A revision none of whose
    files fails to load (every file parses and matches its model, every ruleset has its
    `ruleset.yaml`, no link leads out) is compared; one with such an error is skipped,
    as is one git cannot give. Files load through the document cache the compendium was
    loaded through, so bytes it has seen are not parsed again; loaded without one
    (`--no-cache`), through a cache held in memory for this call, so bytes several
    revisions share are parsed once."""
    root = compendium.root
    documents = compendium.document_cache or DocumentsInMemory()
    prefix = git_output(root, "rev-parse", "--show-prefix")
    log = git_output(
        root, "log", f"-{MAX_SCANNED_COMMITS}", "--format=%H%x09%ad", "--date=short", "--", "."
    )
    if prefix is None or not log:
        return []
    path = prefix.rstrip("/") or "."
    loaded: dict[str, Compendium | None] = {}  # by commit: `<c>~1` is often the next one
    # removed on leaving, whatever happens (an error, Ctrl-C)
    with tempfile.TemporaryDirectory(
        prefix="rulepress-history-", ignore_cleanup_errors=True
    ) as tmp:
        checkout = RevisionCheckout(Path(tmp) / "compendium", path, root)

        def side(revision: str) -> Compendium | None:
            try:
                commit = _commit(revision, root)
                if commit not in loaded:
                    loaded[commit] = None
                    loaded[commit] = _loaded(checkout, commit, revision, documents)
            except RulepressError:
                return None
            return loaded[commit]

        revisions: list[Revision] = []
        for line in log.splitlines():
            if len(revisions) == limit:
                break
            commit, date = line.split("\t", 1)
            before, after = side(f"{commit}~1"), side(commit)
            if before is None or after is None:
                continue
            changes = tuple(compare(before, after))
            if changes:
                revisions.append(Revision(commit[:10], date, changes))
    return revisions


def _loaded(
    checkout: RevisionCheckout, commit: str, spec: str, documents: DocumentCache
) -> Compendium:
    """The documents at `commit`, loaded without the cross-document checks; a file that
    does not load is a RulepressError."""
    loaded = load_compendium(checkout.check_out(commit, spec), documents)
    if any(finding.level == Level.ERROR for finding in loaded.findings):
        raise RulepressError(f"the compendium at {spec} has files that do not load")
    return loaded.compendium


def _validated(folder: Path, spec: str) -> Compendium:
    validation = validate(folder)
    if not validation.ok:
        raise RulepressError(f"the compendium at {spec} has errors; run `rulepress validate`")
    return validation.compendium


def compare(old: Compendium, new: Compendium) -> list[Change]:
    """What changed to the rules from `old` to `new`, ruleset by ruleset, in words."""
    changes: list[Change] = []
    for ruleset_id in sorted(set(old.rulesets) | set(new.rulesets)):
        before, after = old.rulesets.get(ruleset_id), new.rulesets.get(ruleset_id)
        if before is None or after is None:
            label = "new" if before is None else "removed"
            changes.append(
                Change(
                    ruleset_id,
                    "ruleset",
                    ruleset_id,
                    "added" if before is None else "removed",
                    f"{label} ruleset: {ruleset_id}",
                )
            )
            continue
        changes.extend(_compare_ruleset(before, after))
        changes.extend(_compare_computed(before, after))
    return changes


def _documents(ruleset: Ruleset) -> dict[str, Document]:
    return {entry.document.id: entry.document for entry in ruleset.entries}


def _compare_ruleset(before: Ruleset, after: Ruleset) -> Iterator[Change]:
    yield from _compare_document(after.id, before.info, after.info, {})
    old, new = _documents(before), _documents(after)
    names = {doc_id: doc.display_name for doc_id, doc in {**old, **new}.items()}
    renamed = {
        previous: doc.id
        for doc in new.values()
        for previous in doc.previous_ids
        if previous in old and previous not in new
    }
    rid = after.id
    for doc_id, document in old.items():
        if doc_id not in new and doc_id not in renamed:
            yield Change(
                rid,
                document.kind,
                doc_id,
                "removed",
                f"removed {kind_label(document.kind)}: {document.display_name}",
            )
    for doc_id, document in new.items():
        previous = next((p for p, n in renamed.items() if n == doc_id), None)
        if previous is not None:
            yield Change(
                rid,
                document.kind,
                doc_id,
                "renamed",
                f"renamed {kind_label(document.kind)}: {old[previous].display_name} "
                f"({previous}) to {document.display_name} ({doc_id})",
            )
            yield from _compare_document(rid, old[previous], document, names)
        elif doc_id not in old:
            yield Change(
                rid,
                document.kind,
                doc_id,
                "added",
                f"new {kind_label(document.kind)}: {_summary(document)}",
            )
        else:
            yield from _compare_document(rid, old[doc_id], document, names)


def _summary(document: Document) -> str:
    if isinstance(document, WeaponProfile):
        draft = ", draft" if document.is_draft else ""
        return f"{document.display_name} (tier {document.tier}{draft})"
    return document.display_name


def _compare_document(
    ruleset_id: str, old: Document, new: Document, names: dict[str, str]
) -> Iterator[Change]:
    before, after = _leaves(_comparable(old)), _leaves(_comparable(new))
    name = new.display_name
    prefix = name if isinstance(new, WeaponProfile) else f"{kind_label(new.kind)} {name}"
    for path in sorted(set(before) | set(after), key=str):
        if path[:1] in TOOL_FIELDS:
            continue
        a, b = before.get(path, NOTHING), after.get(path, NOTHING)
        if a != b and not (_is_nothing(a) and _is_nothing(b)):
            yield Change(
                ruleset_id, new.kind, new.id, "changed", _changed_words(prefix, path, a, b, names)
            )


NOTHING: list = []
"""A value a document did not have: shown as an empty list is, "(none)"."""
TOOL_FIELDS = {("previous_ids",), ("acknowledged",)}
"""Fields that are the tool's records (old ids, findings acknowledged), not rules."""


def _is_nothing(value: object) -> bool:
    return value in (NOTHING, None, "")


def _changed_words(prefix: str, path: tuple, old: object, new: object, names: dict) -> str:
    """One changed value in words: "Light Combat Pistol: damage at AP 5 from 4 to 5";
    a value given for the first time is "now ...", one taken away "no longer ..."."""
    where = _path_words(path)
    subject = f"{prefix}: {where}" if where else prefix
    if _is_nothing(old):
        return f"{subject} now {_show(new, names)}"
    if _is_nothing(new):
        return f"{subject} no longer {_show(old, names)}"
    shown_old, shown_new = _show(old, names), _show(new, names)
    if shown_old == shown_new:  # a long text changed past what is shown
        return f"{subject} reworded"
    return f"{subject} from {shown_old} to {shown_new}"


def _comparable(document: Document) -> object:
    data = document.model_dump(mode="json", exclude_defaults=False)
    data.pop("id", None)
    return data


def _leaves(value: object, path: tuple = ()) -> dict[tuple, object]:
    """Flatten to {path: scalar}; list items with an identity key are keyed by it."""
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            result.update(_leaves(item, (*path, key)))
        return result
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            key = next((k for k in IDENTITY_KEYS if all(k in v for v in value)), None)
            if key is not None and len({json.dumps(v[key]) for v in value}) == len(value):
                result = {}
                for item in value:
                    rest = {k: v for k, v in item.items() if k != key}
                    result.update(_leaves(rest, (*path, f"{key}={item[key]}")))
                return result
        if all(not isinstance(v, dict | list) for v in value):
            return {path: value}
        result = {}
        for index, item in enumerate(value):
            result.update(_leaves(item, (*path, index)))
        return result
    return {path: value}


def _path_words(path: tuple) -> str:
    """('table', 'ap=12', 'damage') -> 'damage at AP 12'."""
    words, where = [], []
    for part in path:
        text = str(part)
        if "=" in text:
            key, value = text.split("=", 1)
            where.append(f"{'AP' if key == 'ap' else key} {value}")
        elif isinstance(part, int):
            where.append(f"#{part + 1}")
        elif text not in ("table", "rows"):
            words.append(text.replace("_", " "))
    return " ".join(words + (["at", ", ".join(where)] if where else []))


def _show(value: object, names: dict[str, str]) -> str:
    """A value as a reader knows it: ids of documents by their names, lists joined by /."""
    if isinstance(value, list):
        return "/".join(_show(item, names) for item in value) if value else "(none)"
    text = names.get(value, str(value)) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def computed_figures(ruleset: Ruleset) -> dict[str, Fraction]:
    """Chances the rules compute from the data, exact, by a label in words."""
    figures: dict[str, Fraction] = {}
    skill_test = ruleset.one(SkillTest)
    if skill_test is not None:
        for rank in range(1, 11):
            distribution = skill_test.distribution(rank)
            for ap in range(1, 2 * rank + 1):
                chance = sum((p for value, p in distribution.items() if value >= ap), Fraction(0))
                figures[f"chance of {ap} AP or more at rank {rank}"] = chance
    step_dice = ruleset.one(StepDice)
    if step_dice is not None:
        for attribute in STEPS:
            for skill in (None, *STEPS):
                pool = [attribute, *([skill] if skill else [])]
                for pushed in (False, True):
                    label = f"chance of success with {'+'.join(pool)}{', pushed' if pushed else ''}"
                    figures[label] = Fraction(step_dice.chance(pool, pushed=pushed))
    return figures


def percent(chance: Fraction) -> str:
    """A chance as the reader reads it, to a tenth of a percent: "30.6%"."""
    return f"{round(float(chance) * 100, 1)}%"


def _compare_computed(before: Ruleset, after: Ruleset) -> Iterator[Change]:
    old, new = computed_figures(before), computed_figures(after)
    # a move too small to show as a tenth of a percent is not one a reader sees
    differing = [
        label for label in new if label in old and percent(old[label]) != percent(new[label])
    ]
    for label in differing[:MAX_COMPUTED]:
        yield Change(
            after.id,
            "computed",
            label,
            "computed",
            f"{label}: from {percent(old[label])} to {percent(new[label])}",
            before=str(old[label]),
            after=str(new[label]),
        )
    if len(differing) > MAX_COMPUTED:
        yield Change(
            after.id,
            "computed",
            "more",
            "computed",
            f"... and {len(differing) - MAX_COMPUTED} more chances moved",
        )
