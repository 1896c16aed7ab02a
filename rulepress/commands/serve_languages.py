"""`rulepress serve`'s sites in the languages the rulesets declare: each built whole by
the build's own code beside the served site, then copied into its folder of it (`/de/`)
file by file, only where the bytes changed, so a page a change left alone keeps its
time (and a browser's cache)."""

from __future__ import annotations

from pathlib import Path

from rulepress.compendium.model import Compendium
from rulepress.exporters import ExportOptions
from rulepress.exporters.site import SiteExporter
from rulepress.exporters.site.languages import SiteLanguage
from rulepress.history import Revision


def build_translations(
    sites: list[SiteLanguage],
    views: dict[str, Compendium],
    scratch: Path,
    site_dir: Path,
    revisions: list[Revision],
) -> None:
    """Build each translation's site (`sites` after the source's, `views` the compendium
    as its readers see it) whole into `scratch`, as the build does
    (SiteExporter.export_language, the Changes page from `revisions`), then copy into its
    folder of `site_dir` the files whose bytes changed, and remove those gone."""
    for site in sites[1:]:
        SiteExporter().export_language(
            views[site.code], scratch, ExportOptions(), (site, sites), revisions
        )
        _copy_changed(scratch / site.folder, site_dir / site.folder)


def _copy_changed(source: Path, target: Path) -> None:
    """Make the folder `target` hold what `source` holds, writing only the files whose
    bytes differ. Both are the preview's own temporary folders."""
    wanted = {path.relative_to(source) for path in source.rglob("*") if path.is_file()}
    if target.is_dir():
        for path in sorted(target.rglob("*"), reverse=True):
            relative = path.relative_to(target)
            if path.is_file() and relative not in wanted:
                path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    for relative in sorted(wanted):
        data = (source / relative).read_bytes()
        path = target / relative
        if not path.is_file() or path.read_bytes() != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
