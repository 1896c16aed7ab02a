"""What changed in the rules between two compendiums, and over the git history.

A compendium is read from a folder or from a git revision (`checkout`); two are compared
in words (`changes`). Each change's `text` is that sentence, the one wording
`rulepress diff` prints and the site's Changes page shows (per commit, from `history`;
commit messages are never shown). When the history is missing (no git repository, no
git) or cut short (a shallow clone), `history` says so in one line, with what it left out.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rulepress.compendium.cache import DocumentCache, DocumentsInMemory
from rulepress.compendium.model import Compendium
from rulepress.errors import RulepressError, printable
from rulepress.git import git_output, tree_ids
from rulepress.history.changes import Change, compare, computed_figures, kind_label, percent
from rulepress.history.checkout import RevisionCheckout, load_side, resolve_commit
from rulepress.history.patched import PatchedRevisions
from rulepress.history.revisions import RevisionDoesNotLoad
from rulepress.history.stored import StoredChanges
from rulepress.progress import notice

__all__ = [
    "MAX_SCANNED_COMMITS",
    "Change",
    "Revision",
    "RevisionCheckout",
    "compare",
    "computed_figures",
    "history",
    "kind_label",
    "load_side",
    "percent",
]

MAX_SCANNED_COMMITS = 20
"""How far back `history` looks for commits that changed a rule."""


@dataclass(frozen=True)
class Revision:
    """A commit that changed the rules, with the changes it made. Its message is left
    out: it is the tool's words (and untrusted text), not the game's."""

    commit: str
    date: str
    changes: tuple[Change, ...]


def history(
    compendium: Compendium, limit: int = 3, say: Callable[[str], None] = notice
) -> list[Revision]:
    """The rules changes of the last `limit` commits that changed a rule, newest first,
    looking back over at most `MAX_SCANNED_COMMITS` commits that touched the compendium
    (a commit that changed no rule, only formatting or notes, is skipped); empty outside
    a git checkout.

    Each revision is read from git's objects (each object once) and loaded, without the
    cross-document checks: comparing needs only the documents. Each is taken from the
    compendium given (then from the revision before), loading only the document files
    whose bytes differ (rulepress.history.patched; a revision it cannot place so is
    checked out whole, rulepress.history.revisions), and documents whose bytes did not
    change are not compared, so the cost follows the size of the changes. A revision
    none of whose files fails to load (every file parses and matches its model, every
    ruleset has its `ruleset.yaml`, no link leads out) is compared; one with such an
    error is skipped, as is one git cannot give. Files load through the document cache
    the compendium was loaded through, so bytes it has seen are not parsed again, and
    what two revisions' trees gave is kept in the cache folder by their git ids
    (rulepress.history.stored); loaded without one (`--no-cache`), through a cache held
    in memory for this call that starts with the compendium's own documents, and nothing
    is kept.

    `say` gets one line when the history is missing or shallow, saying what is left out
    (by default, on stderr)."""
    root = compendium.root
    prefix = git_output(root, "rev-parse", "--show-prefix")
    if prefix is None:
        say(_missing(root))
        return []
    log = git_output(
        root, "log", f"-{MAX_SCANNED_COMMITS}", "--format=%H%x09%ad", "--date=short", "--", "."
    )
    revisions = _revisions(compendium, prefix, log or "", limit)
    if len(revisions) < limit and len((log or "").splitlines()) < MAX_SCANNED_COMMITS:
        left_out = _shallow(root, revisions, limit)  # the log ran out: where the clone stops?
        if left_out:
            say(left_out)
    return revisions


def _documents_of(compendium: Compendium) -> tuple[DocumentCache, StoredChanges | None]:
    """The document cache the revisions load through, and the stored changes (None
    without a cache folder)."""
    cache = compendium.document_cache
    if cache is not None and not isinstance(cache, DocumentsInMemory):
        return cache, StoredChanges(cache.folder, compendium.root)
    documents = cache or DocumentsInMemory()
    for ruleset in compendium:  # the working tree's bytes are often a revision's
        if ruleset.info_digest:
            documents.keep(ruleset.info_digest, ruleset.info)
        for entry in ruleset.entries:
            if entry.digest:
                documents.keep(entry.digest, entry.document)
    return documents, None


def _revisions(compendium: Compendium, prefix: str, log: str, limit: int) -> list[Revision]:
    """The rules changes of the last `limit` commits of `log` that changed a rule."""
    root = compendium.root
    if not log:
        return []
    path = prefix.rstrip("/") or "."
    commits = [tuple(line.split("\t", 1)) for line in log.splitlines()]
    trees = tree_ids(root, path, [c for commit, _ in commits for c in (f"{commit}~1", commit)])
    documents, stored = _documents_of(compendium)
    loaded: dict[str, Compendium | None] = {}  # by commit: `<c>~1` is often the next one
    # removed on leaving, whatever happens (an error, Ctrl-C)
    with tempfile.TemporaryDirectory(
        prefix="rulepress-history-", ignore_cleanup_errors=True
    ) as tmp:
        checkout = RevisionCheckout(Path(tmp) / "compendium", path, root)
        loads = PatchedRevisions(compendium, checkout, Path(tmp) / "scratch", documents)
        failed: set[str] = set()  # commits whose files do not load (not a git failure)

        def side(revision: str) -> tuple[Compendium | None, bool]:
            """The compendium at `revision`, and whether it failed by not loading."""
            try:
                commit = resolve_commit(revision, root)
                if commit not in loaded:
                    loaded[commit] = None
                    try:
                        loaded[commit] = loads.load(commit, revision)
                    except RevisionDoesNotLoad:
                        failed.add(commit)
            except RulepressError:
                return None, False
            return loaded[commit], commit in failed

        revisions: list[Revision] = []
        for commit, date in commits:
            if len(revisions) == limit:
                break
            pair = (trees.get(f"{commit}~1"), trees.get(commit))
            keep = stored is not None and None not in pair
            known = stored.get(pair) if keep else False
            if known is False:
                before, unloadable = side(f"{commit}~1")  # none: `after` is not needed
                after, unloadable_after = side(commit) if before is not None else (None, False)
                known = None if before is None or after is None else tuple(compare(before, after))
                if keep and (known is not None or unloadable or unloadable_after):
                    stored.put(pair, known)  # a git that failed is not kept
            if known:
                revisions.append(Revision(commit[:10], date, known))
        if stored is not None:
            stored.save()
    return revisions


HOW_TO_FETCH = (
    "fetch the whole history (`git fetch --unshallow`; in GitHub Actions, actions/checkout "
    "with `fetch-depth: 0`) to show it"
)


def _missing(root: Path) -> str:
    """The line that says the history cannot be read at all, and why."""
    if shutil.which("git") is None:
        return "history: git is not installed, so the site has no Changes page"
    return (
        f"history: {printable(str(root))} is in no git repository (or git cannot read "
        "it), so the site has no Changes page; build from a clone of the repository to have it"
    )


def _shallow(root: Path, revisions: list[Revision], limit: int) -> str | None:
    """The line that says what a shallow clone's history left out; None in a full clone."""
    if git_output(root, "rev-parse", "--is-shallow-repository") != "true":
        return None
    # a shallow clone's oldest commits stand in it without their parents
    stops = git_output(root, "log", "--max-parents=0", "--format=%ad %h", "--date=short", "HEAD")
    newest_stop = max((stops or "").splitlines(), default="")
    where = f" (it stops at {newest_stop.replace(' ', ', commit ')})" if newest_stop else ""
    if not revisions:
        shown = "the site's Changes page is left out"
    else:
        shown = (
            f"the site's Changes page shows {len(revisions)} of the last {limit} commits "
            "that changed a rule, and leaves out the older ones"
        )
    return f"history: this clone's git history is shallow{where}: {shown}; {HOW_TO_FETCH}"
