"""The validated Compendium: every ruleset's documents, each with the file it came from."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar

from rulepress.compendium.settings import PublisherSettings
from rulepress.compendium.yaml_source import DataPath, Position, SourceMap
from rulepress.errors import Finding, RulepressError
from rulepress.models import Document, RulesetInfo

if TYPE_CHECKING:
    from rulepress.compendium.cache import DocumentCache

D = TypeVar("D", bound=Document)
TRANSLATION_CODES = "RP4"
"""The code prefix of the translations' checks (validators.translations)."""


@dataclass(frozen=True)
class Entry:
    """A document and the source map of the file it was read from."""

    document: Document
    source: SourceMap
    digest: str = ""
    """Digest of the file's bytes, which the document is a pure function of ("" if made
    in code): what caches key the document by."""

    @property
    def file(self) -> Path:
        """The file the document was read from."""
        return self.source.file

    def position(self, path: DataPath = (), *, key: bool = False) -> Position:
        """Where a value (or its key) stands in the file, for a finding to point at."""
        return self.source.locate(path, prefer_key=key)


@dataclass(frozen=True)
class Ruleset:
    """One game's documents. Lookups see published documents unless asked for drafts."""

    info: RulesetInfo
    folder: Path
    info_source: SourceMap
    entries: tuple[Entry, ...]
    info_digest: str = ""
    """Digest of `ruleset.yaml`'s bytes (see Entry.digest)."""
    translations: tuple[Entry, ...] = ()
    """The files below `translations/<language>/`: the documents' texts in other
    languages (rulepress.translations). They are not documents of the ruleset: checks,
    lookups and exports of the source language never see them."""
    whole: Ruleset | None = field(default=None, repr=False, compare=False)
    """Set on a view of some of a ruleset's entries (see `restricted`): the ruleset whose
    lookups the view answers with."""
    _by_id: Mapping[str, Entry] = field(init=False, repr=False, compare=False)
    _by_type: Mapping[type, list[int]] = field(init=False, repr=False, compare=False)
    # all() answers, by (kind, drafts): exporters ask for the same kinds once per section,
    # and a large ruleset has thousands of sections and documents.
    _sorted: dict[tuple[type, bool], tuple[Document, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        """Index the documents by id and by type once, so `get`, `one` and `all` need no scan."""
        if self.whole is not None:  # a view looks documents up in the whole ruleset
            object.__setattr__(self, "_by_id", self.whole._by_id)
            object.__setattr__(self, "_by_type", {})
            return
        index: dict[str, Entry] = {}
        by_type: dict[type, list[int]] = {}
        for number, entry in enumerate(self.entries):
            index.setdefault(entry.document.id, entry)  # a duplicate id is reported by a check
            by_type.setdefault(type(entry.document), []).append(number)
        object.__setattr__(self, "_by_id", MappingProxyType(index))
        object.__setattr__(self, "_by_type", MappingProxyType(by_type))

    @property
    def id(self) -> str:
        """The ruleset's id, as `ruleset.yaml` gives it."""
        return self.info.id

    def get(self, document_id: str) -> Document | None:
        """The document with this id, drafts included; None if there is none."""
        entry = self._by_id.get(document_id)
        return entry.document if entry else None

    def entry(self, document_id: str) -> Entry | None:
        """The document with this id and the file it came from; None if there is none."""
        return self._by_id.get(document_id)

    def restricted(self, entries: tuple[Entry, ...]) -> Ruleset:
        """A view whose `entries` are some of this ruleset's, while `get`, `entry`, `all`
        and `one` still see every document: how a check whose findings about a document
        depend on that document (and lookups) runs again on the changed ones only."""
        return Ruleset(
            self.info,
            self.folder,
            self.info_source,
            entries,
            self.info_digest,
            self.translations,
            whole=self,
        )

    def all(self, kind: type[D], *, drafts: bool = False) -> list[D]:
        """Documents of one model class, in the order of their `order` field, then id."""
        if self.whole is not None:
            return self.whole.all(kind, drafts=drafts)
        found = self._sorted.get((kind, drafts))
        if found is None:
            numbers = sorted(
                number
                for model, numbers in self._by_type.items()
                if issubclass(model, kind)
                for number in numbers
                if drafts or not self.entries[number].document.is_draft
            )  # file order, so that equal keys keep it in the sort below
            documents = [self.entries[number].document for number in numbers]
            found = tuple(sorted(documents, key=lambda d: (getattr(d, "order", 0), d.id)))
            self._sorted[(kind, drafts)] = found
        return list(found)

    def one(self, kind: type[D], *, drafts: bool = False) -> D | None:
        """The ruleset's single document of this kind (a rule stated once), if any. Like
        `all`, it sees drafts only when asked: a placeholder is no rule to apply."""
        found = self.all(kind, drafts=drafts)
        return found[0] if found else None

    def find(self, name: str, kind: type[D] = Document, *, drafts: bool = False) -> D:
        """The document of `kind` whose printed name is `name`, in any case: what a user
        knows ("Light Combat Pistol"), where `get` takes an id. Like `all`, it sees drafts
        only when asked. An unknown name is a KeyError that names the closest printed
        names; a name two documents share is a KeyError that names their ids."""
        wanted = name.casefold()
        documents = self.all(kind, drafts=drafts)
        found = [d for d in documents if d.display_name.casefold() == wanted]  # name or title
        if len(found) == 1:
            return found[0]
        if found:
            ids = ", ".join(d.id for d in found)
            raise KeyError(f"{len(found)} documents of '{self.id}' are named {name!r}: {ids}")
        names = {d.display_name.casefold(): d.display_name for d in documents}
        close = [names[n] for n in difflib.get_close_matches(wanted, list(names), n=3, cutoff=0.6)]
        hint = f"; did you mean {' or '.join(repr(n) for n in close)}?" if close else ""
        raise KeyError(f"ruleset '{self.id}' has no {_kind_name(kind)} named {name!r}{hint}")

    def rulings(self) -> list[tuple[Document, object]]:
        """(document, ruling) for every ruling of a published document, in file order."""
        return [
            (entry.document, ruling)
            for entry in self.entries
            if not entry.document.is_draft
            for ruling in entry.document.rulings
        ]

    def require(self, kind: type[D], *, drafts: bool = False) -> D:
        """Like `one`, for a caller that cannot go on without the document."""
        found = self.one(kind, drafts=drafts)
        if found is None:
            raise RulepressError(f"ruleset '{self.id}' has no {kind.KIND} document")
        return found


def _kind_name(kind: type[Document]) -> str:
    """How an error names the kind looked for: its KIND, or plain "document"."""
    return getattr(kind, "KIND", None) or "document"


@dataclass(frozen=True)
class Compendium:
    """Every ruleset found under `root`, keyed by ruleset id."""

    root: Path
    """The compendium folder the documents were read from."""
    rulesets: Mapping[str, Ruleset]
    """Each ruleset by its id (`iris`); `ruleset(id)` says which ids exist when one does not."""
    document_cache: DocumentCache | None = field(default=None, repr=False, compare=False)
    """The document cache it was loaded through (None: loaded without one). Loads of its
    git history go through the same cache, so `--no-cache` reaches them too."""
    settings: PublisherSettings = field(default_factory=PublisherSettings, compare=False)
    """The publisher's settings (rulepress.yaml), defaults when there is no file."""
    errata: tuple[Finding, ...] = field(default=(), compare=False)
    """The findings the documents acknowledge: the sources' known problems, each with
    the reason it is kept (set by validation; the errata the outputs print)."""

    def errata_of(self, ruleset: Ruleset) -> list[tuple[Document, Finding]]:
        """(document, finding) for each known problem of one ruleset's documents; the
        translations' own (RP4xx) are about an edition, not the source, and are left out."""
        documents = {entry.file: entry.document for entry in ruleset.entries}
        documents[ruleset.info_source.file] = ruleset.info
        return [
            (documents[finding.file], finding)
            for finding in self.errata
            if finding.file in documents and not finding.code.startswith(TRANSLATION_CODES)
        ]

    def __iter__(self) -> Iterator[Ruleset]:
        """The rulesets in the order they were found, so a loop over the compendium is a loop
        over its games."""
        return iter(self.rulesets.values())

    def ruleset(self, ruleset_id: str) -> Ruleset:
        """The ruleset with this id; a KeyError naming the known ones if there is none."""
        try:
            return self.rulesets[ruleset_id]
        except KeyError:
            known = ", ".join(self.rulesets) or "none"
            raise KeyError(f"no ruleset {ruleset_id!r} (known: {known})") from None

    def entries(self) -> Iterator[tuple[Ruleset, Entry]]:
        """Every document of every ruleset, with its ruleset."""
        for ruleset in self:
            for entry in ruleset.entries:
                yield ruleset, entry
