"""The `json` target: each ruleset's published documents as one JSON file, for tools and bots."""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import orjson

from rulepress.compendium.model import Compendium, Ruleset
from rulepress.exporters import BaseExporter, ExportOptions
from rulepress.exporters.output import pretty_json
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.pieces import Pieces
from rulepress.exporters.ruleset_files import RulesetFiles
from rulepress.exporters.squeezed import squeeze
from rulepress.models import Document
from rulepress.output_names import safe_child
from rulepress.translations import editions

FORMAT_NAME = "rulepress-compendium"
FORMAT_VERSION = 1
"""The export's format version: raised when a file of the new version could break a
reader of the old one (a key removed, renamed, moved or retyped, a value's meaning
changed), never for an addition (a new optional field, a new kind). docs/json-export.md
holds the promise; tests/test_json_export.py holds each version's schema to it."""
SCHEMA_FILE = "compendium-export.schema.json"
"""The export's JSON Schema, as `rulepress schema` writes it into schemas/."""
FORMAT = {
    "name": FORMAT_NAME,
    "version": FORMAT_VERSION,
    "schema": f"urn:rulepress:schema:{SCHEMA_FILE}",
}
"""Every exported file's `format`: what it is, its version and its schema's `$id`."""


class JsonExporter(BaseExporter):
    """The `json` target: every published document as JSON, for other tools to read."""

    name = "json"
    description = "one JSON file per ruleset with every published document (dist/json/)"

    def export(self, compendium: Compendium, out: Path, options: ExportOptions) -> None:
        """Write `<ruleset>.json` for each ruleset into `out`, and `<language>/<ruleset>.json`
        for each language it is translated into, a document's text at a time: the file is
        never held whole, nor its documents' data (at 10,000 weapons that was the build's
        peak memory)."""
        output = OutputFolder(out)
        for ruleset in compendium:
            shown = [(safe_child(out, f"{ruleset.id}.json"), ruleset)]
            shown += [
                (safe_child(out, e.language, f"{ruleset.id}.json"), e.ruleset)
                for e in editions(ruleset)
            ]
            for path, edition in shown:
                with output.replacing(path) as file:
                    try:
                        file.writelines(_json_parts(edition))
                    except orjson.JSONEncodeError:  # a value only json writes: afresh
                        file.seek(0)
                        file.truncate()
                        file.write(ruleset_json(edition))

    def live(self, output: OutputFolder, target: Path, options: ExportOptions) -> RulesetFiles:
        """Each changed ruleset's `<ruleset>.json` written again, keeping the text of its
        unchanged documents."""
        return RulesetFiles(
            output,
            target,
            ".json",
            lambda _compendium, ruleset, pieces, _edition: ruleset_json_parts(ruleset, pieces),
        )


def ruleset_json_parts(ruleset: Ruleset, pieces: Pieces) -> list[bytes] | bytes:
    """A ruleset's JSON file in the parts it joins, as a watch run writes it again when the
    ruleset changes, keeping the text of each run of unchanged documents in `pieces`,
    compressed (exporters.squeezed: the file is 48 MB at 10,000 weapons, its kept runs
    3.5 MB); or, where a value only json writes, the file whole."""
    with contextlib.suppress(orjson.JSONEncodeError):
        return list(_json_parts(ruleset, partial(_kept_runs, pieces)))
    return ruleset_json(ruleset)


def ruleset_json(ruleset: Ruleset) -> bytes:
    """A ruleset's JSON file: its format, its info and its published documents by kind,
    written whole (the build's road when orjson cannot write a value)."""
    data = {
        "format": FORMAT,
        "ruleset": ruleset.info.model_dump(mode="json", exclude_defaults=True),
        "documents": {
            kind: [document.model_dump(mode="json", exclude_defaults=True) for document in of_kind]
            for kind, of_kind in _published(ruleset).items()
        },
    }
    return pretty_json(data)


def _published(ruleset: Ruleset) -> dict[str, list[Document]]:
    """The published documents by kind, each kind's by id."""
    documents: dict[str, list[Document]] = {}
    for entry in sorted(ruleset.entries, key=lambda e: (e.document.kind, e.document.id)):
        if not entry.document.is_draft:
            documents.setdefault(entry.document.kind, []).append(entry.document)
    return documents


INDENTED = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS


def _document_text(document: Document) -> bytes:
    """A document's text as it sits in the file (its lines indented for their place)."""
    data = document.model_dump(mode="json", exclude_defaults=True)
    return orjson.dumps(data, option=INDENTED).replace(b"\n", b"\n      ")


SEPARATOR = b",\n      "
"""Between two documents' texts in a kind's list."""
RUN_ENDS = 64
"""A kept run of documents ends after one whose id's CRC-32 is a multiple of this: about
64 documents a run, and a document added or removed changes its own run only."""


def _texts(documents: list[Document]) -> Iterator[bytes]:
    """The documents' texts as the file joins them (the build's road)."""
    for place, document in enumerate(documents):
        if place:  # apart: each text joined as it is, never copied first
            yield SEPARATOR
        yield _document_text(document)


def _kept_runs(pieces: Pieces, documents: list[Document]) -> Iterator[bytes]:
    """The same bytes in runs of documents, each run's text kept compressed in a watch
    run's `pieces` while its documents are the same objects."""
    for place, run in enumerate(_runs(documents)):
        if place:
            yield SEPARATOR
        yield pieces.get("json-run", run, partial(_run_text, run))


def _runs(documents: list[Document]) -> Iterator[tuple[Document, ...]]:
    run: list[Document] = []
    for document in documents:
        run.append(document)
        if zlib.crc32(document.id.encode("utf-8")) % RUN_ENDS == 0:
            yield tuple(run)
            run = []
    if run:
        yield tuple(run)


def _run_text(run: tuple[Document, ...]) -> bytes:
    return squeeze(SEPARATOR.join(map(_document_text, run)))


def _json_parts(
    ruleset: Ruleset, texts: Callable[[list[Document]], Iterator[bytes]] = _texts
) -> Iterator[bytes]:
    """`pretty_json` of the file's data in parts, each kind's documents' from
    `texts(documents)`: the same bytes, without the file's data (or its text) held
    whole. orjson indents a value the same wherever it sits, but for the indent before
    each of its lines (JSON text has no raw newline inside a string)."""
    by_kind = _published(ruleset)
    yield b'{\n  "documents": '
    if by_kind:
        yield b"{\n"
        for number, kind in enumerate(sorted(by_kind), 1):
            yield b"    " + orjson.dumps(kind) + b": [\n      "
            yield from texts(by_kind[kind])
            yield b"\n    ]" + (b",\n" if number < len(by_kind) else b"\n")
        yield b"  }"
    else:
        yield b"{}"
    info = ruleset.info.model_dump(mode="json", exclude_defaults=True)
    yield b',\n  "format": ' + orjson.dumps(FORMAT, option=INDENTED).replace(b"\n", b"\n  ")
    yield b',\n  "ruleset": ' + orjson.dumps(info, option=INDENTED).replace(b"\n", b"\n  ")
    yield b"\n}\n"
