"""Validated documents kept between runs, keyed by the bytes of their file.

A file whose exact bytes loaded cleanly before gets its document back without being
parsed and validated again. The key is the content (a BLAKE2b digest), never a time
stamp, so an edited file always misses. The cache file starts with the digest of the
rulepress code that wrote it and is ignored whole when the code differs, so changed
models never meet old documents. A cache that is missing, damaged or unreadable is no
cache. It is a pickle, as trusted as the .pyc files of the project it sits in.
"""

from __future__ import annotations

import functools
import os
import pickle
import tempfile
from pathlib import Path

from pydantic import VERSION as PYDANTIC_VERSION

from rulepress.build_stamp import cache_folder, code_digest, digest, mark_cache_folder
from rulepress.models import Document

FORMAT = b"rulepress-documents 1"


class DocumentCache:
    """One pickle file per compendium folder; after a load it holds that load's files."""

    def __init__(self, root: Path, folder: Path | None = None) -> None:
        self.folder = Path(folder or cache_folder())
        self.path = self.folder / f"documents-{digest(str(root.resolve()).encode())}.pickle"
        self.header = b" ".join([FORMAT, code_digest().encode(), PYDANTIC_VERSION.encode()])
        self.kept: dict[str, Document] = {}

    @functools.cached_property
    def known(self) -> dict[str, Document]:
        """The documents of the cache file, read on first use (inside the loader, which
        pauses the cycle collector: unpickling makes as many objects as parsing)."""
        try:
            with open(self.path, "rb") as file:
                if file.readline().rstrip(b"\n") != self.header:
                    return {}
                known = pickle.load(file)
        except Exception:  # missing, damaged or written by other code: start afresh
            return {}
        return known if isinstance(known, dict) else {}

    @staticmethod
    def key(raw: bytes) -> str:
        return digest(raw)

    def get(self, key: str) -> Document | None:
        document = self.known.get(key)
        if isinstance(document, Document):
            self.kept[key] = document
            return document
        return None

    def keep(self, key: str, document: Document) -> None:
        self.kept[key] = document

    def save(self) -> None:
        """Write this load's documents (whole, or not at all) when they differ from the file's."""
        if self.kept.keys() == self.known.keys():
            return
        try:
            mark_cache_folder(str(self.folder))
            handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        except OSError:
            return  # a read-only folder: the build goes on without a cache
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(self.header + b"\n")
                pickle.dump(self.kept, file, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, self.path)
        except OSError:
            pass  # a full disk, or a folder where the file goes: next time reads everything
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
