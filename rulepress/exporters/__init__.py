"""Exporters render the validated Compendium into one output target each.

An exporter never reads YAML and never re-validates. Built-in exporters are listed here;
other packages add theirs under the `rulepress.exporters` entry-point group, and each is
checked against the `Exporter` contract when it is found, not when a build first uses it.

A build replaces a target's folder whole; `rulepress build --watch`, after that first
build, asks each exporter for its live form (`Exporter.live`) and updates the output edit
by edit through it (`LiveExporter`). An exporter without one is exported whole again on
each change, as a build does.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Protocol

from rulepress.compendium.model import Compendium
from rulepress.environment import entry_points
from rulepress.errors import RulepressError

if TYPE_CHECKING:  # output_folder is the exporters' own module: imported when used
    from rulepress.exporters.output_folder import OutputFolder

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
    built: Mapping[str, Path] = field(default_factory=dict, compare=False)
    """The folders of the targets this build has already written, by target name, all
    from these same options: an exporter may copy from one the bytes it would otherwise
    render again (the site's downloads). Empty outside a build; `build` fills it."""


class LiveExporter(Protocol):
    """A target's output kept up to date in place, ruleset by ruleset (`Exporter.live`).

    Given the compendium and the rulesets to redo, it renders them through the same code
    as the build and writes only the files whose bytes changed, each through the
    `OutputFolder` it was given (`write`, `write_if_changed`, `remove`: a temporary file
    in the same folder, then a rename, never through a link), so a reader sees the old
    file or the new one, never half of one. After `finish` the output equals a fresh
    build's."""

    def update(
        self,
        compendium: Compendium,
        rulesets: Iterable[str],
        removed: Iterable[str],
        steady: Collection[str] = (),
    ) -> None:
        """Bring the output of `rulesets` (ids of `compendium`) up to date and delete that
        of the `removed` ruleset ids, writing only what changed. In the `steady` rulesets
        only documents' own contents changed (exporters.pieces.steady_rulesets): what was
        rendered from an unchanged document may be kept (exporters.pieces). The first
        call, before any edit, names every ruleset: the files on disk are then the
        build's own."""

    def finish(self) -> None:
        """Write what was left for a quiet moment (a release zip); the output then equals
        a fresh build's."""


class Exporter(Protocol):
    """What `rulepress build` uses of an exporter: every member is declared here
    (`live` may be left out: the target is then exported whole on each change)."""

    name: str
    """The target name used by `rulepress build --target`."""
    description: str
    """One line for people: what the target writes."""

    def export(self, compendium: Compendium, out: Path, options: ExportOptions) -> None:
        """Write the target's files into `out`, an empty folder that becomes the output."""

    def check_replaceable(self, previous: Path) -> None:
        """Raise RulepressError if the previous output `previous` must not be replaced
        (checked for every target before any is written)."""

    def live(
        self, output: OutputFolder, target: Path, options: ExportOptions
    ) -> LiveExporter | None:
        """The target's live form for `rulepress build --watch`, writing into `target` (a
        folder of `output` that holds the build's output) through `output`; made once
        when the watch starts, and again after the target was exported whole. None: the
        target is exported whole on each change (the site's, and BaseExporter's
        default)."""


class BaseExporter:
    """Defaults for an exporter from another package: subclass it, set `name` and
    `description`, write `export`; the rest is only needed to do more."""

    name: ClassVar[str]
    """The target name used by `rulepress build --target`."""
    description: ClassVar[str] = ""
    """One line for people: what the target writes."""

    def check_replaceable(self, previous: Path) -> None:
        """Any previous output may be replaced."""

    def live(
        self, output: OutputFolder, target: Path, options: ExportOptions
    ) -> LiveExporter | None:
        """No live form: `build --watch` exports the target whole on each change."""
        return None


_MEMBERS = {"name": str, "description": str}
_METHODS = ("export", "check_replaceable")
_OPTIONAL_METHODS = ("live",)
"""Members an exporter written before them may lack (`live_form` stands in for them)."""


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
    problems += [
        f"{method} is not callable"
        for method in _OPTIONAL_METHODS
        if not callable(getattr(exporter, method, _absent))
    ]
    if problems:
        raise RulepressError(
            f"{where} does not meet the exporter contract: {'; '.join(problems)} "
            "(subclass rulepress.exporters.BaseExporter for the defaults)"
        )
    return exporter


def _absent(*_args: object) -> None:
    """What an exporter without an optional method counts as having."""


def live_form(
    exporter: Exporter, output: OutputFolder, target: Path, options: ExportOptions
) -> LiveExporter | None:
    """The exporter's live form writing into `target` (`Exporter.live`); None for one
    without `live`, whose target `build --watch` exports whole on each change."""
    live = getattr(exporter, "live", None)
    return None if live is None else live(output, target, options)
