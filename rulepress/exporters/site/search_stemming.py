"""The search's stemming in a translation's site: lunr's stemmer of the site's language,
in a way Material's search as you type still finds what is typed.

Material appends `*` to every word typed and lunr runs no stemmer on a wildcard term, so
with lunr's stemmer alone a whole word the stemmer shortens finds nothing (`charakter*`
against the indexed stem `charakt`); that is why Material stems no language by default.
A translation's site whose language lunr stems therefore keeps the stemmer in the search
plugin's pipeline (`SEARCH_PIPELINE`) and gets its own copy of the theme's lunr file of
that language (`LUNR_FILE`, in the site's docs, which mkdocs prefers to the theme's
file of the same path): the theme's bytes, then rulepress's script (`SCRIPT`), which
indexes each word both as written and as its stem, and adds to each word typed the word
itself, stemmed, so that an inflected form finds the others (`Schüsse` finds `Schuss`).
The source language's site is left as it was (no stemmer, the theme's file).
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

from rulepress.exporters.site.project import SITE, SiteProject

SCRIPT = SITE / "javascripts" / "search-stemming.js"
"""rulepress's part of the language's lunr file: defines `rulepressStemming(lunr, lang)`."""

LUNR_FILE = "assets/javascripts/lunr/min/lunr.{language}.min.js"
"""Where Material's search worker loads a language's lunr file from (below the site)."""

SEARCH_PIPELINE = ["stemmer", "stopWordFilter", "trimmer"]
"""The search plugin's pipeline of a site that stems: lunr's whole pipeline."""


def material_lunr_file(language: str) -> Path | None:
    """The theme's lunr file of `language`, when Material ships one."""
    spec = importlib.util.find_spec("material")
    if spec is None or not spec.submodule_search_locations:
        return None
    if not re.fullmatch(r"[a-z]{2,3}", language):
        return None
    folder = Path(next(iter(spec.submodule_search_locations)))
    path = folder / "templates" / LUNR_FILE.format(language=language)
    return path if path.is_file() else None


def stems(language: str) -> bool:
    """Whether lunr stems `language` at search time: its lunr file adds the language's
    stemmer to the search pipeline (Japanese and Chinese only segment, Korean, Thai,
    Vietnamese and Armenian have no stemmer). English, which Material searches without
    a stemmer, is left so."""
    path = material_lunr_file(language)
    if language == "en" or path is None:
        return False
    text = path.read_text(encoding="utf-8")
    return re.search(rf"searchPipeline\.add\(\w+\.{language}\.stemmer\)", text) is not None


def lunr_override(language: str) -> bytes:
    """The site's lunr file of `language` (one `stems`): the theme's file as it is,
    then `SCRIPT`, then the call that applies it to the language."""
    path = material_lunr_file(language)
    if path is None:  # pragma: no cover - callers ask only for a language that stems
        raise ValueError(f"the theme has no lunr file for {language!r}")
    call = f"\nrulepressStemming(self.lunr, {json.dumps(language)});\n"
    return path.read_bytes() + b"\n" + SCRIPT.read_bytes() + call.encode("utf-8")


def write_search_stemming(project: SiteProject, language: str) -> bool:
    """Into a translation's site, the lunr file of its search language when lunr stems
    it; return whether it did (then the configuration keeps the stemmer: `apply_language`)."""
    if not stems(language):
        return False
    project.write_bytes(LUNR_FILE.format(language=language), lunr_override(language))
    return True
