"""The validated Compendium: every ruleset's documents, each with the file it came from."""

from __future__ import annotations

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
            self.info, self.folder, self.info_source, entries, self.info_digest, whole=self
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

    def one(self, kind: type[D]) -> D | None:
        """The ruleset's single document of this kind (a rule stated once), if any."""
        found = self.all(kind, drafts=True)
        return found[0] if found else None

    def rulings(self) -> list[tuple[Document, object]]:
        """(document, ruling) for every ruling of a published document, in file order."""
        return [
            (entry.document, ruling)
            for entry in self.entries
            if not entry.document.is_draft
            for ruling in entry.document.rulings
        ]

    def require(self, kind: type[D]) -> D:
        """Like `one`, for a caller that cannot go on without the document."""
        found = self.one(kind)
        if found is None:
            raise RulepressError(f"ruleset '{self.id}' has no {kind.KIND} document")
        return found


@dataclass(frozen=True)
class Compendium:
    """Every ruleset found under `root`, keyed by ruleset id."""

    root: Path
    rulesets: Mapping[str, Ruleset]
    document_cache: DocumentCache | None = field(default=None, repr=False, compare=False)
    """The document cache it was loaded through (None: loaded without one). Loads of its
    git history go through the same cache, so `--no-cache` reaches them too."""
    settings: PublisherSettings = field(default_factory=PublisherSettings, compare=False)
    """The publisher's settings (rulepress.yaml), defaults when there is no file."""
    errata: tuple[Finding, ...] = field(default=(), compare=False)
    """The findings the documents acknowledge: the sources' known problems, each with
    the reason it is kept (set by validation; the errata the outputs print)."""

    def errata_of(self, ruleset: Ruleset) -> list[tuple[Document, Finding]]:
        """(document, finding) for each known problem of one ruleset's documents."""
        documents = {entry.file: entry.document for entry in ruleset.entries}
        documents[ruleset.info_source.file] = ruleset.info
        return [
            (documents[finding.file], finding)
            for finding in self.errata
            if finding.file in documents
        ]

    def __iter__(self) -> Iterator[Ruleset]:
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
