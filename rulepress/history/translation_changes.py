"""What changed in a ruleset's translations, in words: a text translated, its
translation changed or removed, a stale one reviewed (`rulepress diff`)."""

from __future__ import annotations

from collections.abc import Iterator

from rulepress.compendium.model import Ruleset
from rulepress.models.translation import TranslatedText
from rulepress.translations import source_of

SHOWN = 60
"""The most characters of a text a change quotes."""


def _texts(ruleset: Ruleset) -> dict[tuple[str, str, str], TranslatedText]:
    """(language, document id, data path) -> the translated text, for every translation."""
    return {
        (entry.document.language, entry.document.document, at): text
        for entry in ruleset.translations
        for at, text in entry.document.texts.items()
    }


def _quoted(text: str) -> str:
    line = " ".join(text.split())
    return repr(line if len(line) <= SHOWN else line[: SHOWN - 3] + "...")


def translation_changes(before: Ruleset, after: Ruleset) -> Iterator[tuple[str, str, str]]:
    """(document id, added|removed|changed, words) for each translated text that
    changed from `before` to `after`, named by its document's printed name."""
    old, new = _texts(before), _texts(after)
    for key in sorted(old.keys() | new.keys()):
        language, document_id, at = key
        source = source_of(after, document_id) or source_of(before, document_id)
        name = source.document.display_name if source is not None else document_id
        was, now = old.get(key), new.get(key)
        was_text, now_text = (was.text if was else ""), (now.text if now else "")
        where = f"{language}: {name}, {at}"
        if now_text and not was_text:
            yield document_id, "added", f"{where}: translated as {_quoted(now_text)}"
        elif was_text and not now_text:
            yield document_id, "removed", f"{where}: translation removed"
        elif was_text != now_text:
            words = f"translation {_quoted(was_text)} -> {_quoted(now_text)}"
            yield document_id, "changed", f"{where}: {words}"
        elif now_text and was.digest != now.digest:
            yield document_id, "changed", f"{where}: translation reviewed against the new source"
