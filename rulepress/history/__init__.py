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
from rulepress.compendium.loader import load_compendium
from rulepress.compendium.model import Compendium
from rulepress.errors import Level, RulepressError, printable
from rulepress.git import git_output
from rulepress.history.changes import Change, compare, computed_figures, kind_label, percent
from rulepress.history.checkout import RevisionCheckout, load_side, resolve_commit
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
    cross-document checks: comparing needs only the documents. A revision none of whose
    files fails to load (every file parses and matches its model, every ruleset has its
    `ruleset.yaml`, no link leads out) is compared; one with such an error is skipped,
    as is one git cannot give. Files load through the document cache the compendium was
    loaded through, so bytes it has seen are not parsed again; loaded without one
    (`--no-cache`), through a cache held in memory for this call, so bytes several
    revisions share are parsed once.

    `say` gets one line when the history is missing or shallow, saying what is left out
    (by default, on stderr)."""
    root = compendium.root
    documents = compendium.document_cache or DocumentsInMemory()
    prefix = git_output(root, "rev-parse", "--show-prefix")
    if prefix is None:
        say(_missing(root))
        return []
    log = git_output(
        root, "log", f"-{MAX_SCANNED_COMMITS}", "--format=%H%x09%ad", "--date=short", "--", "."
    )
    revisions = _revisions(compendium, prefix, log or "", limit, documents)
    if len(revisions) < limit and len((log or "").splitlines()) < MAX_SCANNED_COMMITS:
        left_out = _shallow(root, revisions, limit)  # the log ran out: where the clone stops?
        if left_out:
            say(left_out)
    return revisions


def _revisions(
    compendium: Compendium, prefix: str, log: str, limit: int, documents: DocumentCache
) -> list[Revision]:
    """The rules changes of the last `limit` commits of `log` that changed a rule."""
    root = compendium.root
    if not log:
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
                commit = resolve_commit(revision, root)
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


def _loaded(
    checkout: RevisionCheckout, commit: str, spec: str, documents: DocumentCache
) -> Compendium:
    """The documents at `commit`, loaded without the cross-document checks; a file that
    does not load is a RulepressError."""
    loaded = load_compendium(checkout.check_out(commit, spec), documents)
    if any(finding.level == Level.ERROR for finding in loaded.findings):
        raise RulepressError(f"the compendium at {spec} has files that do not load")
    return loaded.compendium
