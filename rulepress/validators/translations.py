"""Checks of the translations (rulepress.translations): stale, missing, misplaced or
misshapen texts, each at the translation's own line."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import PurePath

from pydantic import TypeAdapter, ValidationError

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.models import rich_text
from rulepress.models.translation import Translation
from rulepress.translations import FOLDER, digest, source_of, translated, translations_in
from rulepress.translations.fields import TextField, text_fields
from rulepress.validators.registry import Report, check

PLACEHOLDER = re.compile(r"\{[^{}\s]*\}|%(?:\([a-z_]+\))?[sdif]")
"""A placeholder a text may hold (`{n}`, `%s`, `%(name)s`): a translation keeps each."""
SHOWN = 60
"""The most characters of a text a finding quotes."""


def _quoted(text: str) -> str:
    line = " ".join(text.split())
    return repr(line if len(line) <= SHOWN else line[: SHOWN - 1] + "…")


def _translated_texts(ruleset: Ruleset) -> Iterator[tuple[Entry, str, TextField]]:
    """(translation entry, data path, the source's text field) for each translated text
    whose document and field exist."""
    for entry in ruleset.translations:
        translation = entry.document
        source = source_of(ruleset, translation.document)
        if source is None:
            continue
        fields = text_fields(source.document)
        for at in translation.texts:
            if at in fields:
                yield entry, at, fields[at]


@check("RP401", "stale-translation", Level.WARNING)
def stale_translations(ruleset: Ruleset) -> Iterator[Report]:
    """A translation made from a source text that has changed since: its digest is not
    the source's now, so the outputs show the source's text until a translator reviews
    the translation and runs `rulepress translate <language> --review`.

    Example: `name: {text: Angstwurf, digest: 5e1f…, source: Fear roll}` once the source's
    name reads `Fear Roll`."""
    for entry, at, field in _translated_texts(ruleset):
        offered = entry.document.texts[at]
        if not offered.text or offered.digest == digest(field.text):
            continue
        was = f"from {_quoted(offered.source)}" if offered.source else "from an older text"
        yield Report(
            entry,
            f"{entry.document.language}: {at} was translated {was}; the source now reads "
            f"{_quoted(field.text)}: review it, then `rulepress translate "
            f"{entry.document.language} --review`",
            ("texts", at),
        )


@check("RP402", "untranslated-texts", Level.INFO)
def untranslated_texts(ruleset: Ruleset) -> Iterator[Report]:
    """How many texts of a declared language are not translated (no entry, an empty one,
    or a stale one), counted per language at its `languages:` entry: info, or a warning
    when the language is `required` (so `validate --strict` fails on it).

    Example: `de: 41 of 57 texts are not translated (3 of 5 documents have no
    translation file)`."""
    if not ruleset.info.languages:
        return  # walking every document's texts costs a second at 10,000 weapons
    sources = [source_of(ruleset, ruleset.id)]
    sources += [e for e in ruleset.entries if not e.document.is_draft]
    with_texts = [source.document.id for source in sources if text_fields(source.document)]
    for number, plan in enumerate(ruleset.info.languages):
        edition = translated(ruleset, plan.code)
        missing, total = len(edition.untranslated), edition.texts
        files = translations_in(ruleset, plan.code)
        without_file = sum(1 for document_id in with_texts if document_id not in files)
        if missing:
            yield Report(
                source_of(ruleset, ruleset.id),
                f"{plan.code}: {missing} of {total} texts are not translated ({without_file} "
                f"of {len(with_texts)} documents have no translation file); `rulepress translate "
                f"{plan.code}` writes the entries still to do",
                ("languages", number),
                level=Level.WARNING if plan.required else None,
            )


@check("RP403", "translation-of-nothing", Level.ERROR)
def translations_of_nothing(ruleset: Ruleset) -> Iterator[Report]:
    """A translation of a document the ruleset does not have, or of a field its document
    does not have (renamed, removed, or not a text): nothing would show it.

    Example: `texts: {damage: ...}` (a figure, not a text), or `document: old-pistol` after
    the pistol's file was removed."""
    for entry in ruleset.translations:
        translation = entry.document
        source = source_of(ruleset, translation.document)
        if source is None:
            yield Report(
                entry,
                f"translates document {translation.document!r}, which ruleset "
                f"{ruleset.id!r} does not have",
                ("document",),
            )
            continue
        fields = text_fields(source.document)
        for at in translation.texts:
            if at not in fields:
                yield Report(
                    entry,
                    f"{translation.document} has no text at {at!r}; its texts: "
                    f"{', '.join(list(fields)[:8]) or 'none'}",
                    ("texts", at),
                    key=True,
                )


@check("RP404", "misshapen-translation", Level.WARNING)
def misshapen_translations(ruleset: Ruleset) -> Iterator[Report]:
    """A translation whose Markdown or placeholders differ in shape from its source's:
    another number of paragraphs or list items, other `doc:` links, emphasis dropped, or
    a placeholder (`{n}`, `%s`) left out or added. Also a translation its field's type
    refuses (a line break in a name, lists nested too deep): that one is an error.

    Example: the source `Roll *under* [Cool](doc:cool-stat).` translated as
    `Würfle unter Cool.` (the emphasis and the link are gone)."""
    for entry, at, field in _translated_texts(ruleset):
        text = entry.document.texts[at].text
        if not text:
            continue
        refusal = _refusal(field.annotation, text)
        if refusal:
            yield Report(entry, f"{at}: {refusal}", ("texts", at, "text"), level=Level.ERROR)
            continue
        differences = _shape_differences(field, text)
        if differences:
            yield Report(
                entry,
                f"{at}: the translation's shape is not its source's: {'; '.join(differences)}",
                ("texts", at, "text"),
            )


@functools.cache
def _adapter(annotation: object) -> TypeAdapter:
    return TypeAdapter(annotation)


def _refusal(annotation: object, text: str) -> str:
    """Why the source field's type refuses `text`, or ""."""
    try:
        _adapter(annotation).validate_python(text, strict=True)
    except ValidationError as refused:
        return refused.errors()[0]["msg"]
    return ""


def _shape(field: TextField, text: str) -> dict[str, object]:
    shape: dict[str, object] = {"placeholders": sorted(PLACEHOLDER.findall(text))}
    if not field.rich:
        shape["paragraphs"] = len([p for p in re.split(r"\n\s*\n", text) if p.strip()])
        return shape
    blocks = rich_text.parse(text)
    shape["blocks"] = [_block_shape(block) for block in blocks]
    shape["links"] = sorted(rich_text.doc_links(text))
    shape["emphasis"] = sum(_emphases(block) for block in blocks)
    return shape


def _block_shape(block: object) -> object:
    if isinstance(block, rich_text.ListBlock):
        return ("list", len(block.items))
    return "paragraph"


def _emphases(node: object) -> int:
    children: tuple = ()
    if isinstance(node, rich_text.ListBlock):
        children = tuple(b for item in node.items for b in item)
    elif hasattr(node, "children"):
        children = node.children
    return isinstance(node, rich_text.Emphasis) + sum(_emphases(c) for c in children)


SHAPE_WORDS = {
    "placeholders": "placeholders",
    "paragraphs": "paragraphs",
    "blocks": "paragraphs and lists",
    "links": "doc: links",
    "emphasis": "emphasised spans",
}


def _shape_differences(field: TextField, text: str) -> list[str]:
    source, ours = _shape(field, field.text), _shape(field, text)
    return [
        f"{SHAPE_WORDS[key]} {ours[key]!r} where the source has {source[key]!r}"
        for key in source
        if source[key] != ours[key]
    ]


def _placement_index(document) -> tuple:
    """What misplaced-translation reads of a document besides its file (which an edit in
    place keeps): its kind, and a translation's language and document."""
    return (document.KIND, getattr(document, "language", None), getattr(document, "document", None))


@check("RP405", "misplaced-translation", Level.ERROR, index=_placement_index)
def misplaced_translations(ruleset: Ruleset) -> Iterator[Report]:
    """A translation file outside `translations/<its language>/`, of a language the
    ruleset does not declare in `languages:`, or a second file translating the same
    document into the same language; and a document of another kind below
    `translations/` (it would be taken for a document of the ruleset).

    Example: `translations/de/fear-roll.yaml` holding `language: fr`."""
    declared = {plan.code for plan in ruleset.info.languages}
    seen: dict[tuple[str, str], Entry] = {}
    for entry in ruleset.translations:
        translation: Translation = entry.document
        folder = _language_folder(ruleset, entry)
        if folder != translation.language:
            where = f"translations/{folder}/" if folder else "outside translations/"
            yield Report(
                entry,
                f"a translation into {translation.language!r} lies {where}; move it to "
                f"{FOLDER}/{translation.language}/",
                ("language",),
            )
        elif translation.language not in declared:
            yield Report(
                entry,
                f"language {translation.language!r} is not declared in ruleset.yaml's "
                f"`languages:` (declared: {', '.join(sorted(declared)) or 'none'})",
                ("language",),
            )
        key = (translation.document, translation.language)
        if key in seen:
            yield Report(
                entry,
                f"{seen[key].file.name} translates {translation.document!r} into "
                f"{translation.language!r} already",
                ("document",),
            )
        seen.setdefault(key, entry)
    for entry in ruleset.entries:
        if _language_folder(ruleset, entry) is not None:
            yield Report(
                entry,
                f"a {entry.document.KIND} document below {FOLDER}/: only translations belong there",
                ("kind",),
            )


def _language_folder(ruleset: Ruleset, entry: Entry) -> str | None:
    """The language folder below `translations/` the entry's file is in, None if none."""
    try:
        parts = PurePath(entry.file).relative_to(ruleset.folder).parts
    except ValueError:
        return None
    return parts[1] if len(parts) > 2 and parts[0] == FOLDER else None


@check("RP406", "unmatched-source-copy", Level.WARNING)
def unmatched_source_copies(ruleset: Ruleset) -> Iterator[Report]:
    """A translation's `source` (the source text beside it) that is not the text its
    digest was made from: edited by hand, so a reviewer would compare the wrong text.

    Example: `{text: Angstwurf, digest: <digest of "Fear roll">, source: Fear Roll}`."""
    for entry in ruleset.translations:
        for at, offered in entry.document.texts.items():
            if offered.source is not None and digest(offered.source) != offered.digest:
                yield Report(
                    entry,
                    f"{at}: `source` is not the text the digest was made from; "
                    "`rulepress translate --review` writes both anew",
                    ("texts", at, "source"),
                )
