"""Validated documents kept between runs, keyed by the bytes of their file.

A file whose exact bytes loaded cleanly before gets its document back without being
parsed and validated again. The key is the content (a BLAKE2b digest), never a time
stamp, so an edited file always misses. The cache file starts with the digest of the
rulepress code that wrote it and is ignored whole when the code differs, so changed
models never meet old documents. A cache that is missing, damaged or unreadable is no
cache. It is a pickle, as trusted as the .pyc files of the project it sits in.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import tempfile
from pathlib import Path

from pydantic import VERSION as PYDANTIC_VERSION

from rulepress.build_stamp import cache_folder, code_digest, digest, mark_cache_folder
from rulepress.models import Document

FORMAT = "rulepress-documents 1"


def cache_header(kind: str, *more: str) -> bytes:
    """The first line of a cache file: what it holds, and the code that wrote it (the
    rulepress package, Python, pydantic). A file headed otherwise is never unpickled."""
    return " ".join([kind, code_digest(), PYDANTIC_VERSION, *more]).encode()


class DocumentCache:
    """Two pickle files per compendium folder: the documents as of the last full write,
    and those new since. A rebuild after a few edits writes only the small second file;
    when it outgrows a twentieth of the compendium, the first is written afresh with just
    the documents of that load. An old entry left meanwhile is never wrong, only unused:
    its key is the content it was made from."""

    def __init__(self, root: Path, folder: Path | None = None) -> None:
        self.folder = Path(folder or cache_folder())
        name = f"documents-{digest(str(root.resolve()).encode())}"
        self.path, self.new_path = (
            self.folder / f"{name}.pickle",
            self.folder / f"{name}.new.pickle",
        )
        self.header = cache_header(FORMAT)
        self.kept: dict[str, Document] = {}

    @functools.cached_property
    def stored(self) -> dict[str, Document]:
        return self._read(self.path)

    @functools.cached_property
    def added(self) -> dict[str, Document]:
        return self._read(self.new_path)

    @functools.cached_property
    def known(self) -> dict[str, Document]:
        """Every cached document, read on first use (inside the loader, which pauses the
        cycle collector: unpickling makes as many objects as parsing)."""
        return {**self.stored, **self.added}

    def _read(self, path: Path) -> dict[str, Document]:
        try:
            with open(path, "rb") as file:
                if file.readline().rstrip(b"\n") != self.header:
                    return {}
                known = pickle.load(file)
        except Exception:  # missing, damaged or written by other code: start afresh
            return {}
        return known if isinstance(known, dict) else {}

    def get(self, key: str) -> Document | None:
        document = self.known.get(key)
        if isinstance(document, Document):
            self.kept[key] = document
            return document
        return None

    def keep(self, key: str, document: Document) -> None:
        self.kept[key] = document

    def save(self) -> None:
        """Write the documents this load parsed (each file whole, or not at all)."""
        new = {key: doc for key, doc in self.kept.items() if key not in self.known}
        if not new:
            return
        added = {**self.added, **new}
        if self.stored and len(added) <= max(50, len(self.kept) // 20):
            self._write(self.new_path, added)
        elif self._write(self.path, self.kept):
            with contextlib.suppress(OSError):
                os.unlink(self.new_path)

    def _write(self, path: Path, documents: dict[str, Document]) -> bool:
        try:
            mark_cache_folder(str(self.folder))
            handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        except OSError:
            return False  # a read-only folder: the build goes on without a cache
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(self.header + b"\n")
                pickle.dump(documents, file, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, path)
            return True
        except OSError:
            return False  # a full disk, or a folder where the file goes: next time reads all
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
