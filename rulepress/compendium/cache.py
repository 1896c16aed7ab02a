"""Validated documents kept between runs, keyed by the bytes of their file.

A file whose exact bytes loaded cleanly before gets its document back without being
parsed and validated again. The key is the content (a BLAKE2b digest), never a time
stamp, so an edited file always misses. The cache file starts with the digest of the
rulepress code that wrote it and is ignored whole when the code differs, so changed
models never meet old documents. A cache that is missing, damaged or unreadable is no
cache. It is a pickle, so it is sealed with the user's key (rulepress.sealed): one that
this user's rulepress did not write, such as one committed to the repository, is never
unpickled.
"""

from __future__ import annotations

import functools
import pickle
from pathlib import Path

from pydantic import VERSION as PYDANTIC_VERSION

from rulepress import sealed
from rulepress.caching import cache_folder, code_digest, digest
from rulepress.models import Document

FORMAT = "rulepress-documents 1"


def cache_header(kind: str) -> bytes:
    """The first line of a cache file: what it holds, and the code that wrote it (the
    rulepress package, Python, pydantic). A file headed otherwise is never unpickled."""
    return " ".join([kind, code_digest(), PYDANTIC_VERSION]).encode()


class DocumentCache:
    """Two pickle files per compendium folder: the documents as of the last full write,
    and those new since. A rebuild after a few edits writes only the small second file;
    when it outgrows a twentieth of the compendium, the first is written afresh with just
    the documents of that load. An old entry left meanwhile is never wrong, only unused:
    its key is the content it was made from."""

    def __init__(self, root: Path, folder: Path | None = None) -> None:
        """The cache of the compendium at `root`, its files named by that folder's digest so two
        compendiums never share one; in `folder`, else the cache folder (`cache_folder`)."""
        self.folder = str(folder or cache_folder())
        name = f"documents-{digest(str(root.resolve()).encode())}"
        self.name, self.new_name = f"{name}.pickle", f"{name}.new.pickle"
        self.header = cache_header(FORMAT)
        self.kept: dict[str, Document] = {}

    @functools.cached_property
    def stored(self) -> dict[str, Document]:
        """The documents of the last full write (empty until written, or if unreadable)."""
        return self._read(self.name)

    @functools.cached_property
    def added(self) -> dict[str, Document]:
        """The documents written since the last full write."""
        return self._read(self.new_name)

    @functools.cached_property
    def known(self) -> dict[str, Document]:
        """Every cached document, read on first use."""
        return {**self.stored, **self.added}

    def _read(self, name: str) -> dict[str, Document]:
        body = sealed.read(self.folder, name)  # None unless this user's rulepress wrote it
        start = len(self.header) + 1
        if body is None or body[:start] != self.header + b"\n":
            return {}  # missing, or written by other code: start afresh
        try:
            known = pickle.loads(memoryview(body)[start:])
        except Exception:  # damaged
            return {}
        return known if isinstance(known, dict) else {}

    def holds_any(self) -> bool:
        """Whether any document is known: parsed in this process or read from the files."""
        return bool(self.kept or self.known)

    def get(self, key: str) -> Document | None:
        """The document these bytes loaded as: parsed earlier in this process (another
        load through this cache, such as a git revision's), or read from the cache file."""
        document = self.kept.get(key)
        if document is None:
            document = self.known.get(key)
        if isinstance(document, Document):
            self.kept[key] = document
            return document
        return None

    def keep(self, key: str, document: Document) -> None:
        """Note a document this load parsed, for `save` to write."""
        self.kept[key] = document

    def save(self) -> None:
        """Write the documents this load parsed (each file whole, or not at all)."""
        new = {key: doc for key, doc in self.kept.items() if key not in self.known}
        if not new:
            return
        added = {**self.added, **new}
        if self.stored and len(added) <= max(50, len(self.kept) // 20):
            if self._write(self.new_name, added):
                self._written(self.stored, added)
        elif self._write(self.name, self.kept):
            sealed.remove(self.folder, self.new_name)
            self._written(dict(self.kept), {})

    def _written(self, stored: dict[str, Document], added: dict[str, Document]) -> None:
        """What the cache files now hold, so that a later load through this cache (a git
        revision's) writes only the documents new since, not everything again."""
        self.__dict__.update(stored=stored, added=added, known={**stored, **added})

    def _write(self, name: str, documents: dict[str, Document]) -> bool:
        writer = sealed.Writer.start(self.folder, name)
        if writer is None:
            return False  # a read-only folder, or no key: the build goes on without a cache
        try:
            writer.write(self.header + b"\n")
            pickle.dump(documents, writer, protocol=pickle.HIGHEST_PROTOCOL)
        except OSError:
            writer.discard()
            return False  # a full disk: next time reads all
        return writer.commit()


class DocumentsInMemory(DocumentCache):
    """A document cache with no file: what several loads in one process share when there
    is to be no cache on disk (`--no-cache`), so that bytes they have in common, such as
    the git revisions' of the site's history, are parsed once."""

    def __init__(self) -> None:
        """Empty, and never read from or written to disk."""
        self.kept = {}
        self._written({}, {})

    def save(self) -> None:
        """Nothing to write: the documents stay in `kept` for the next load."""
