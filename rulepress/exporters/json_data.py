"""The `json` target: each ruleset's published documents as one JSON file, for tools and bots."""

from __future__ import annotations

import contextlib
from functools import partial
from pathlib import Path

import orjson

from rulepress.compendium.model import Compendium, Ruleset
from rulepress.exporters import BaseExporter, ExportOptions
from rulepress.exporters.output import pretty_json
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.pieces import Pieces
from rulepress.exporters.ruleset_files import RulesetFiles
from rulepress.models import Document

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
        for each language it is translated into."""
        self.live(OutputFolder(out), out, options).update(compendium, compendium.rulesets, ())

    def live(self, output: OutputFolder, target: Path, options: ExportOptions) -> RulesetFiles:
        """Each changed ruleset's `<ruleset>.json` written again, keeping the text of its
        unchanged documents."""
        return RulesetFiles(
            output,
            target,
            ".json",
            lambda _compendium, ruleset, pieces, _edition: ruleset_json(ruleset, pieces),
        )


def ruleset_json(ruleset: Ruleset, pieces: Pieces | None = None) -> bytes:
    """A ruleset's JSON file: its format, its info and its published documents by kind (the build's
    file, and the one a watch run writes again when the ruleset changes, keeping each
    unchanged document's text in `pieces`)."""
    if pieces is not None:
        with contextlib.suppress(orjson.JSONEncodeError):  # a value only json writes
            return _joined_json(ruleset, pieces)
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


def _joined_json(ruleset: Ruleset, pieces: Pieces) -> bytes:
    """`pretty_json` of the file's data, joined from each document's own text (kept while
    it is the same object): the same bytes, without serialising 10,000 unchanged documents
    again. orjson indents a value the same wherever it sits, but for the indent before
    each of its lines (JSON text has no raw newline inside a string)."""

    def text(document: Document) -> bytes:
        data = document.model_dump(mode="json", exclude_defaults=True)
        return orjson.dumps(data, option=INDENTED).replace(b"\n", b"\n      ")

    by_kind = _published(ruleset)
    parts = [b'{\n  "documents": ']
    if by_kind:
        parts.append(b"{\n")
        for number, kind in enumerate(sorted(by_kind), 1):
            texts = [pieces.get("json-text", (d,), partial(text, d)) for d in by_kind[kind]]
            parts += (b"    ", orjson.dumps(kind), b": [\n      ")
            parts += (b",\n      ".join(texts), b"\n    ]")
            parts.append(b",\n" if number < len(by_kind) else b"\n")
        parts.append(b"  }")
    else:
        parts.append(b"{}")
    info = ruleset.info.model_dump(mode="json", exclude_defaults=True)
    parts += (b',\n  "format": ', orjson.dumps(FORMAT, option=INDENTED).replace(b"\n", b"\n  "))
    parts += (b',\n  "ruleset": ', orjson.dumps(info, option=INDENTED).replace(b"\n", b"\n  "))
    parts.append(b"\n}\n")
    return b"".join(parts)
