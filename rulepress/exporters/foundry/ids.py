"""Foundry document ids: 16 letters and digits, derived from what the document is.

The same ruleset, kind and slug always give the same id, so a rebuilt pack updates the
documents a world imported instead of duplicating them. A renamed document keeps the id
of its first slug (`previous_ids` in the YAML).
"""

from __future__ import annotations

import hashlib
import re

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
ID_LENGTH = 16
VALID_ID = re.compile(r"^[A-Za-z0-9]{16}$")


def foundry_id(*parts: str) -> str:
    """A stable 16-character id for the parts (ruleset, kind, slug...)."""
    number = int.from_bytes(hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest(), "big")
    chars = []
    for _ in range(ID_LENGTH):
        number, index = divmod(number, len(ALPHABET))
        chars.append(ALPHABET[index])
    return "".join(chars)


def document_slug(document) -> str:
    """The slug a document's id derives from: its first id, if it was renamed."""
    return document.previous_ids[0] if document.previous_ids else document.id
