"""The compendium at one git revision after another, each loaded from what it changed.

The first revision is written out of git's objects and loaded whole (through a document
cache, so bytes the working tree or an earlier build loaded are not parsed again); each
next one rewrites only the files that differ from the revision before
(`RevisionCheckout`) and reads only those again, through the loader's own functions
(compendium.loader: a ruleset folder keeps the files it did not change), so what a
revision costs follows what it changed, not the size of the compendium. A change the
loader's folder-by-folder reading cannot place (a new or removed ruleset folder, a
`ruleset.yaml`, anything beside the ruleset folders) or a revision holding a symbolic
link (whose target may change under an unchanged link) is loaded whole: slower, as
correct.
"""

from __future__ import annotations

from pathlib import Path

from rulepress.compendium.cache import DocumentCache
from rulepress.compendium.loader import LoadedFiles, RulesetFiles, read_compendium
from rulepress.compendium.model import Compendium
from rulepress.compendium.walk import RULESET_FILE
from rulepress.errors import Level, RulepressError
from rulepress.history.checkout import RevisionCheckout


class RevisionDoesNotLoad(RulepressError):
    """A revision with a file that does not load: a fact of its tree, the same every time."""


class RevisionLoads:
    """Revisions of one compendium folder loaded one after another from one checkout."""

    def __init__(self, checkout: RevisionCheckout, documents: DocumentCache) -> None:
        """Nothing is loaded yet; files load through `documents`."""
        self.checkout, self.documents = checkout, documents
        self.files: LoadedFiles | None = None
        """The files of the revision checked out last, as the loader read them."""

    def load(self, commit: str, spec: str) -> Compendium:
        """The documents at `commit` (`spec`, as named), loaded without the cross-document
        checks; RevisionDoesNotLoad when a file does not load, RulepressError when git
        cannot give the revision."""
        root = self.checkout.check_out(commit, spec)  # on an error, the checkout is as it was
        changed = self.checkout.changed  # or written afresh (None)
        files = None
        if self.files is not None and changed is not None and not self.checkout.holds_links:
            files = reread(self.files, root, changed, self.documents)
        if files is None:
            files = read_compendium(root, self.documents)
        self.files = files
        loaded = files.result(self.documents)
        if any(finding.level == Level.ERROR for finding in loaded.findings):
            raise RevisionDoesNotLoad(f"the compendium at {spec} has files that do not load")
        return loaded.compendium


def reread(
    files: LoadedFiles, root: Path, changed: set[tuple[str, ...]], documents: DocumentCache
) -> LoadedFiles | None:
    """`files` with the `changed` paths (parts below `root`) read again, each in its
    ruleset folder; None when only a whole load will do."""
    rulesets = list(files.rulesets)
    folders = {ruleset.folder: number for number, ruleset in enumerate(rulesets)}
    edits: dict[int, tuple[set[Path], bool]] = {}
    whole_root = root in folders  # the compendium is itself a ruleset folder
    for parts in changed:
        if whole_root:
            number, inside = folders[root], parts
        elif len(parts) < 2 or root / parts[0] not in folders:
            return None  # beside the ruleset folders, or a folder that may now be one
        else:
            number, inside = folders[root / parts[0]], parts[1:]
        if inside == (RULESET_FILE,):
            return None
        path = root.joinpath(*parts)
        paths, rescan = edits.setdefault(number, (set(), False))
        paths.add(path)
        edits[number] = (paths, rescan or not _saved_again(rulesets[number], path))
    for number, (paths, rescan) in edits.items():
        rulesets[number] = rulesets[number].reloaded(root, paths, documents, rescan=rescan)
    documents.save()
    return LoadedFiles(
        files.root, files.settings, files.settings_findings, files.folder_findings, tuple(rulesets)
    )


def _saved_again(files: RulesetFiles, path: Path) -> bool:
    """Whether `path` is a document file the last walk read and is one still, so that the
    folder need not be walked again."""
    return path in files.files and path.is_file() and not path.is_symlink()
