"""The `json` target: each ruleset's published documents as one JSON file, for tools and bots."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from rulepress.compendium.model import Compendium, Ruleset
from rulepress.exporters import BaseExporter, ExportOptions
from rulepress.exporters.output import pretty_json
from rulepress.exporters.pieces import Pieces
from rulepress.output_names import safe_child


class JsonExporter(BaseExporter):
    """The `json` target: every published document as JSON, for other tools to read."""

    name = "json"
    description = "one JSON file per ruleset with every published document (dist/json/)"

    def export(self, compendium: Compendium, out: Path, options: ExportOptions) -> None:
        """Write `<ruleset>.json` for each ruleset into `out`."""
        for ruleset in compendium:
            safe_child(out, f"{ruleset.id}.json").write_bytes(ruleset_json(ruleset))


def ruleset_json(ruleset: Ruleset, pieces: Pieces | None = None) -> bytes:
    """A ruleset's JSON file: its info and its published documents by kind (the build's
    file, and the one a watch run writes again when the ruleset changes, keeping each
    unchanged document's data in `pieces`)."""
    documents: dict[str, list] = {}
    for entry in sorted(ruleset.entries, key=lambda e: (e.document.kind, e.document.id)):
        document = entry.document
        if not document.is_draft:
            dump = partial(document.model_dump, mode="json", exclude_defaults=True)
            data = dump() if pieces is None else pieces.get("json-data", (document,), dump)
            documents.setdefault(document.kind, []).append(data)
    data = {
        "ruleset": ruleset.info.model_dump(mode="json", exclude_defaults=True),
        "documents": documents,
    }
    return pretty_json(data)
