"""Exporters render the validated Compendium into one output target each.

An exporter never reads YAML and never re-validates. Built-in exporters are listed here;
other packages add theirs under the `rulepress.exporters` entry-point group.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol

from rulepress.compendium.model import Compendium


class Exporter(Protocol):
    name: str
    """The target name used by `rulepress build --target`."""
    description: str
    uses_render_memo: bool
    """Whether `export` takes pieces from a `memo` (below): only then is it given one.
    An exporter from another package may leave it out, which counts as False."""

    def export(self, compendium: Compendium, out: Path, options: dict | None = None) -> None:
        """Write the target's files into `out`, an empty folder that becomes the output.
        `options` holds target settings from the command line (`foundry_version`...)
        and, in a cached build, `memo`: a RenderMemo of pieces the previous export
        rendered, which an exporter may take again (see exporters.memo)."""


def builtin_exporters() -> dict[str, Exporter]:
    from rulepress.exporters.foundry import FoundryExporter
    from rulepress.exporters.json_data import JsonExporter
    from rulepress.exporters.markdown_guide import MarkdownExporter
    from rulepress.exporters.site import SiteExporter

    exporters = (FoundryExporter(), MarkdownExporter(), SiteExporter(), JsonExporter())
    return {exporter.name: exporter for exporter in exporters}


def available_exporters() -> dict[str, Exporter]:
    exporters = builtin_exporters()
    for point in entry_points(group="rulepress.exporters"):
        exporters.setdefault(point.name, point.load()())
    return exporters
