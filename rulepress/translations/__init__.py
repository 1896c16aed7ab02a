"""Translations as data: each document's texts in the languages a ruleset declares.

A translation file lies below the ruleset's `translations/<language>/` folder and holds
`kind: translation` (rulepress.models.translation): the id of the document it
translates and, by data path, each text with the digest of the source text it was made
from. The checks (validators.translations) say which are stale, missing or misshapen;
`translated` gives the ruleset as a reader of that language sees it, the source's text
standing wherever no current translation does.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from rulepress.compendium.model import Compendium, Entry, Ruleset
from rulepress.models import Document
from rulepress.models.translation import Translation
from rulepress.translations.fields import TextField, replaced, text_fields

FOLDER = "translations"
"""The folder of a ruleset that holds its translations, one subfolder per language."""

__all__ = [
    "FOLDER",
    "TextField",
    "Translated",
    "digest",
    "editions",
    "fallback_note",
    "languages",
    "source_of",
    "text_fields",
    "translated",
    "translated_compendium",
    "translations_in",
]


def digest(text: str) -> str:
    """The digest a translation keeps of its source text: the first 16 hex digits of the
    SHA-256 of the text in Unicode NFC (so one text typed two ways has one digest)."""
    return hashlib.sha256(unicodedata.normalize("NFC", text).encode("utf-8")).hexdigest()[:16]


def languages(compendium: Compendium) -> list[str]:
    """Every language some ruleset declares (`languages:` of its `ruleset.yaml`), in the
    order first declared."""
    found: dict[str, None] = {}
    for ruleset in compendium:
        found |= dict.fromkeys(plan.code for plan in ruleset.info.languages)
    return list(found)


def translations_in(ruleset: Ruleset, language: str) -> dict[str, Entry]:
    """The ruleset's translation files of `language` by the id of the document each
    translates (the first, when two translate one document: a check reports the other)."""
    found: dict[str, Entry] = {}
    for entry in ruleset.translations:
        document = entry.document
        if isinstance(document, Translation) and document.language == language:
            found.setdefault(document.document, entry)
    return found


def source_of(ruleset: Ruleset, document_id: str) -> Entry | None:
    """The entry a translation of `document_id` translates: a document, or the ruleset's
    own `ruleset.yaml` for the ruleset's id."""
    if document_id == ruleset.id:
        return Entry(ruleset.info, ruleset.info_source, ruleset.info_digest)
    return ruleset.entry(document_id)


@dataclass(frozen=True)
class Translated:
    """A ruleset as a reader of one language sees it, and where its source still shows."""

    ruleset: Ruleset
    language: str
    untranslated: frozenset[tuple[str, str]] = field(default=frozenset())
    """(document id, data path) of every text shown in the source's language: no
    translation, an empty one, or a stale one (its source changed since)."""
    texts: int = 0
    """How many texts the ruleset has in all."""

    def shows_source(self, document: Document, path: str = "") -> bool:
        """Whether `document` (or its text at `path`) shows the source's language."""
        if path:
            return (document.id, path) in self.untranslated
        return any(doc == document.id for doc, _ in self.untranslated)


def translated(ruleset: Ruleset, language: str) -> Translated:
    """`ruleset` with every current translation into `language` in place of its source
    text. A stale translation (its digest is not the source's now) is not used, as
    gettext leaves out a fuzzy entry: the reviewed source shows until a translator
    reviews it. A chapter title translated in `ruleset.yaml` renames the chapter in the
    documents that name it too, so the guide keeps its chapters together."""
    files = translations_in(ruleset, language)
    untranslated: set[tuple[str, str]] = set()
    total = 0

    def applied(entry: Entry, document_id: str) -> Entry:
        nonlocal total
        document = entry.document
        if document.is_draft:  # never exported, so never counted
            return entry
        texts = text_fields(document)
        total += len(texts)
        translation = files.get(document_id)
        given = translation.document.texts if translation is not None else {}
        for at, source in texts.items():
            offered = given.get(at)
            if offered is None or not offered.text or offered.digest != digest(source.text):
                untranslated.add((document_id, at))
                continue
            document = replaced(document, source.path, offered.text)
        return entry if document is entry.document else replace(entry, document=document)

    info = applied(Entry(ruleset.info, ruleset.info_source, ruleset.info_digest), ruleset.id)
    chapters = {
        source.title: ours.title
        for source, ours in zip(ruleset.info.chapters, info.document.chapters, strict=True)
        if source.title != ours.title
    }
    entries = tuple(_renamed_chapter(applied(e, e.document.id), chapters) for e in ruleset.entries)
    view = Ruleset(
        info.document,
        ruleset.folder,
        ruleset.info_source,
        entries,
        ruleset.info_digest,
        ruleset.translations,
    )
    return Translated(view, language, frozenset(untranslated), total)


def _renamed_chapter(entry: Entry, chapters: dict[str, str]) -> Entry:
    chapter = getattr(entry.document, "chapter", None)
    if not isinstance(chapter, str) or chapter not in chapters:
        return entry
    return replace(entry, document=entry.document.model_copy(update={"chapter": chapters[chapter]}))


def editions(ruleset: Ruleset) -> list[Translated]:
    """The ruleset in each language it declares (`languages:` of its `ruleset.yaml`), in
    the order declared: what every output writes besides the source's edition."""
    return [translated(ruleset, plan.code) for plan in ruleset.info.languages]


def fallback_note(edition: Translated) -> str:
    """The line an edition opens with while some of its texts still show the source's
    words: its language's own `fallback_note` if it has one; "" for a complete one."""
    if not edition.untranslated:
        return ""
    plan = next(p for p in edition.ruleset.info.languages if p.code == edition.language)
    note = plan.fallback_note or DEFAULT_FALLBACK_NOTE
    counts = (len(edition.untranslated), edition.texts, plan.name)
    for name, value in zip(("untranslated", "texts", "language"), counts, strict=True):
        note = note.replace("{" + name + "}", str(value))  # only these: the note is data
    return note


DEFAULT_FALLBACK_NOTE = (
    "{untranslated} of {texts} texts of this {language} edition are not translated yet: "
    "they show in the source's language."
)


def translated_compendium(compendium: Compendium, language: str) -> Compendium:
    """The compendium as a reader of `language` sees it: each ruleset that declares the
    language translated (see `translated`), the others as they are."""
    rulesets = {
        ruleset_id: (
            translated(ruleset, language).ruleset
            if any(plan.code == language for plan in ruleset.info.languages)
            else ruleset
        )
        for ruleset_id, ruleset in compendium.rulesets.items()
    }
    return replace(compendium, rulesets=MappingProxyType(rulesets))
