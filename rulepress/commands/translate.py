"""`rulepress translate LANGUAGE`: the translator's files, brought up to date.

For each ruleset that declares the language, every document with texts gets its
translation file below `translations/<language>/` (the source file's path there), and
each text still to translate an entry: `text: ""`, the source's digest, and the source
text beside it. A stale entry (translated from a source text that changed since) is
left as it is, for a translator to review; `--review` then takes the source's text now
as the one it was made from. Every file is written or none (compendium.writer).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from rulepress.caching import digest as file_digest
from rulepress.compendium.model import Compendium, Entry, Ruleset
from rulepress.compendium.writer import document_data, dump_data, load_round_trip, write_all
from rulepress.compendium.yaml_source import decode_utf8
from rulepress.errors import RulepressError
from rulepress.files import OutsideRepository, inside, read_inside
from rulepress.models.translation import TranslatedText, Translation
from rulepress.translations import FOLDER, digest, source_of, translations_in
from rulepress.translations.fields import text_fields


@dataclass
class TranslatePlan:
    """What `translate` would write, and what it counted."""

    language: str
    files: list[tuple[Path, str]] = field(default_factory=list)
    added: int = 0
    """Entries written for texts with none."""
    stale: list[tuple[Path, str, str, str]] = field(default_factory=list)
    """(file, data path, the text it was made from, the source's text now) of each stale
    entry left for review."""
    reviewed: int = 0
    """Stale entries whose digest `--review` renewed."""
    renewed: int = 0
    """Untranslated entries whose source changed: their digest and copy follow it."""


def plan(compendium: Compendium, language: str, *, review: bool = False) -> TranslatePlan:
    """The files `translate` writes for `language`; a RulepressError when no ruleset
    declares it."""
    rulesets = [r for r in compendium if any(p.code == language for p in r.info.languages)]
    if not rulesets:
        declared = sorted({p.code for r in compendium for p in r.info.languages})
        raise RulepressError(
            f"no ruleset declares language {language!r} in ruleset.yaml's `languages:` "
            f"(declared: {', '.join(declared) or 'none'})"
        )
    result = TranslatePlan(language)
    for ruleset in rulesets:
        existing = translations_in(ruleset, language)
        sources = [source_of(ruleset, ruleset.id)]
        sources += [e for e in ruleset.entries if not e.document.is_draft]
        for source in sources:
            _plan_document(ruleset, source, existing.get(source.document.id), review, result)
    return result


def _plan_document(
    ruleset: Ruleset, source: Entry, current: Entry | None, review: bool, result: TranslatePlan
) -> None:
    fields = text_fields(source.document)
    if not fields:
        return
    texts = dict(current.document.texts) if current is not None else {}
    changed = current is None
    for at, field_now in fields.items():
        now, made_from = field_now.text, texts.get(at)
        if made_from is None:
            texts[at] = TranslatedText(text="", digest=digest(now), source=now)
            result.added += 1
            changed = True
        elif made_from.digest != digest(now):
            if made_from.text and not review:
                file = current.file if current is not None else source.file
                result.stale.append((file, at, made_from.source or "", now))
                continue
            result.reviewed += bool(made_from.text)
            result.renewed += not made_from.text
            texts[at] = made_from.model_copy(update={"digest": digest(now), "source": now})
            changed = True
    if not changed:
        return
    path = current.file if current is not None else _translation_path(ruleset, source, result)
    translation = Translation(
        kind="translation", document=source.document.id, language=result.language, texts=texts
    )
    if current is not None:
        translation = current.document.model_copy(update={"texts": texts})
    data = document_data(translation)
    original = load_round_trip(_text_of(ruleset, current)) if current is not None else None
    result.files.append((path, dump_data(data, original)))


def _text_of(ruleset: Ruleset, entry: Entry) -> str:
    """The translation file's text as it was loaded (its comments are kept): read again,
    inside the ruleset, and refused if it changed since."""
    raw = read_inside(ruleset.folder, os.path.relpath(entry.file, ruleset.folder))
    if entry.digest and file_digest(raw) != entry.digest:
        raise RulepressError(f"{entry.file} changed while translate ran; nothing written")
    return decode_utf8(raw)


def _translation_path(ruleset: Ruleset, source: Entry, result: TranslatePlan) -> Path:
    """Where a new translation of `source` goes: its file's path below the ruleset's
    folder, below `translations/<language>/`; refused if a link on the way leads out."""
    relative = os.path.relpath(source.file, ruleset.folder)
    path = ruleset.folder / FOLDER / result.language / relative
    try:
        existing = path.parent
        while not existing.exists() and existing != ruleset.folder:
            existing = existing.parent
        inside(ruleset.folder, os.path.relpath(existing, ruleset.folder), name="the ruleset")
    except OutsideRepository as refused:
        raise RulepressError(f"{path.parent}: {refused}; nothing written") from None
    if os.path.lexists(path):
        raise RulepressError(
            f"{path} exists but holds no translation of {source.document.id!r}; nothing written"
        )
    return path


def write(planned: TranslatePlan) -> list[Path]:
    """Write the planned files, all or none."""
    return write_all(planned.files)
