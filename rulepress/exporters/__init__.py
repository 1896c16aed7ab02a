"""Exporters render the validated Compendium into one output target each.

An exporter never reads YAML and never re-validates. Built-in exporters are listed here;
other packages add theirs under the `rulepress.exporters` entry-point group, and each is
checked against the `Exporter` contract when it is found, not when a build first uses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import ClassVar, Protocol

from rulepress.compendium.model import Compendium
from rulepress.environment import entry_points
from rulepress.errors import RulepressError

ENTRY_POINT_GROUP = "rulepress.exporters"


@dataclass(frozen=True)
class ExportOptions:
    """The target settings a build was asked for on the command line, the same for every
    target it writes. What a publisher sets for good is in the compendium's settings
    (`compendium.settings`, from rulepress.yaml)."""

    foundry_version: int = 14
    """The Foundry VTT version the module targets (it picks the TableResult shape)."""
    templates: Path | None = None
    """A folder of templates that override the shipped ones by name (rendered sandboxed)."""


class Exporter(Protocol):
    """What `rulepress build` uses of an exporter: every member is declared here."""

    name: str
    """The target name used by `rulepress build --target`."""
    description: str
    """One line for people: what the target writes."""

    def export(self, compendium: Compendium, out: Path, options: ExportOptions) -> None:
        """Write the target's files into `out`, an empty folder that becomes the output."""

    def check_replaceable(self, previous: Path) -> None:
        """Raise RulepressError if the previous output `previous` must not be replaced
        (checked for every target before any is written)."""


class BaseExporter:
    """Defaults for an exporter from another package: subclass it, set `name` and
    `description`, write `export`; the rest is only needed to do more."""

    name: ClassVar[str]
    """The target name used by `rulepress build --target`."""
    description: ClassVar[str] = ""
    """One line for people: what the target writes."""

    def check_replaceable(self, previous: Path) -> None:
        """Any previous output may be replaced."""


_MEMBERS = {"name": str, "description": str}
_METHODS = ("export", "check_replaceable")


def builtin_exporters() -> dict[str, Exporter]:
    """The exporters shipped with rulepress, by target name."""
    from rulepress.exporters.foundry import FoundryExporter
    from rulepress.exporters.json_data import JsonExporter
    from rulepress.exporters.markdown_guide import MarkdownExporter
    from rulepress.exporters.site import SiteExporter

    exporters = (FoundryExporter(), MarkdownExporter(), SiteExporter(), JsonExporter())
    return {exporter.name: exporter for exporter in exporters}


def available_exporters() -> dict[str, Exporter]:
    """The built-in exporters, then those of installed packages (a built-in name wins;
    one declared in the working folder is never seen: rulepress.environment)."""
    exporters = builtin_exporters()
    for point in entry_points(ENTRY_POINT_GROUP):
        if point.name not in exporters:
            exporters[point.name] = plugin_exporter(point)
    return exporters


def target_descriptions() -> dict[str, str]:
    """Each target `build --target` takes, with its line for people: the built-in ones,
    then the installed packages' by their entry point's name, none of them loaded (a
    shell completing `--target` needs only the names, and a broken plugin stays the
    build's error to report)."""
    targets = {name: exporter.description for name, exporter in builtin_exporters().items()}
    for point in entry_points(ENTRY_POINT_GROUP):
        targets.setdefault(point.name, f"from {point.value}")
    return targets


def plugin_exporter(point: EntryPoint) -> Exporter:
    """The exporter an entry point names (a class or factory, called with no arguments),
    refused unless it declares every member of `Exporter`: a build should fail at once,
    naming the plugin, not half way through writing its outputs."""
    where = f"exporter entry point {point.name!r} ({point.value}) in group {ENTRY_POINT_GROUP}"
    try:
        exporter = point.load()()
    except Exception as exc:  # the plugin's own bug, or a package half installed
        raise RulepressError(f"{where} cannot be loaded: {type(exc).__name__}: {exc}") from exc
    problems = [
        f"{member} is not a {kind.__name__}"
        for member, kind in _MEMBERS.items()
        if not isinstance(getattr(exporter, member, None), kind)
    ]
    problems += [
        f"{method}() is missing"
        for method in _METHODS
        if not callable(getattr(exporter, method, None))
    ]
    if problems:
        raise RulepressError(
            f"{where} does not meet the exporter contract: {'; '.join(problems)} "
            "(subclass rulepress.exporters.BaseExporter for the defaults)"
        )
    return exporter
