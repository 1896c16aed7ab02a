"""How data becomes names in outputs and files: slugs, the names the outputs keep for
their own pages, and a child path that cannot leave its folder.

The exporters, the commands that write compendium files (`new`, `import wiki`) and the
name checks all use them, so they sit below all three.
"""

from __future__ import annotations

import re
from pathlib import Path

from rulepress.errors import RulepressError

# Names the outputs give their own pages, entries and anchors, beside the chapters' (whose
# ids are their titles' slugs) and the documents' (their ids): the site's `<ruleset>/index`,
# `rulings`, `errata` and `sources` pages (and `calculator`, for a game with calculators),
# the Markdown guide's `#rulings`, `#errata` and `#sources` anchors, the Foundry rules
# pack's last entry. Check RP223 refuses data that would take one.
GENERATED_NAMES: dict[str, str] = {
    "index": "the site's overview page of the ruleset",
    "rulings": "the rulings page of the site and of the Markdown guide",
    "errata": "the known problems page of the site and of the Markdown guide",
    "sources": "the sources page of the site and of the Markdown guide",
    "calculator": "the site's calculator page of the ruleset",
    "about-these-rules": "the Foundry journal entry of the credits and rulings",
}


def slug(text: str) -> str:
    """Lower-case letters and digits joined by single dashes: an id, an anchor, a page.
    Letters and digits of any script are kept ("café"): an anchor or a page may hold
    them, and an id made of one is refused by the id pattern, which says so."""
    cleaned = "".join(ch if ch.isalnum() else "-" for ch in text.lower())
    return "-".join(part for part in cleaned.split("-") if part)


def ascii_slug(text: str) -> str:
    """`slug`, but only ASCII letters and digits are kept, any other character is a
    separator ("café" gives "caf"): an id of ASCII letters, digits and dashes only, for
    an importer that names many documents from a page's headers at once. For ASCII text
    the two are the same."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def safe_child(folder: Path, *parts: str) -> Path:
    """`folder/parts...`, refusing any part that would lead outside `folder`."""
    if any(part in ("", ".", "..") or "/" in part or "\\" in part for part in parts):
        raise RulepressError(f"refusing unsafe output name: {'/'.join(parts)!r}")
    path = folder.joinpath(*parts)
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        raise RulepressError(  # no part is `..`: only a symbolic link leads out
            f"refusing to write outside the output folder: {path} leads to "
            f"{path.resolve()} (through a symbolic link)"
        ) from None
    return path
