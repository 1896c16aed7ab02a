"""The `site` target: the rules reference website, built with mkdocs and Material.

The pages are generated from the compendium into a temporary mkdocs project, then
`mkdocs build --strict` renders it into the output folder; a warning fails the build.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from rulepress.compendium.model import Compendium
from rulepress.errors import RulepressError
from rulepress.exporters import BaseExporter, ExportOptions
from rulepress.exporters.foundry import FoundryExporter
from rulepress.exporters.json_data import JsonExporter
from rulepress.exporters.markdown_guide import MarkdownExporter
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.site.languages import (
    SiteLanguage,
    edition_notes,
    marked_compendium,
    page_keys,
    site_languages,
    source_language,
)
from rulepress.exporters.site.pages import generate
from rulepress.exporters.site.project import DOWNLOADS
from rulepress.git import git_output
from rulepress.history import Revision, history
from rulepress.output_names import safe_child
from rulepress.progress import current

LAST_EPOCH = 253402300799
"""The last second of the year 9999: Python's dates, and so mkdocs', end there."""


def build_epoch(compendium_root: Path) -> str:
    """The date the site says it was built, fixed so that the same compendium gives the
    same files: SOURCE_DATE_EPOCH if set, else the compendium's last commit, else 0. A
    commit's time is the committer's say (a pull request's may be in the year 33658):
    one that is not a date mkdocs can print counts as none."""
    chosen = os.environ.get("SOURCE_DATE_EPOCH")
    if chosen:
        if not (chosen.isascii() and chosen.isdigit() and int(chosen) <= LAST_EPOCH):
            raise RulepressError(
                f"SOURCE_DATE_EPOCH must be whole seconds from 0 to {LAST_EPOCH}, not {chosen!r}"
            )
        return chosen
    stamp = git_output(compendium_root, "log", "-1", "--format=%ct", "--", ".")
    if stamp and stamp.isascii() and stamp.isdigit() and int(stamp) <= LAST_EPOCH:
        return stamp
    return "0"


def mkdocs_command(*args: str) -> list[str]:
    """The command that runs mkdocs in this Python, with its arguments."""
    return [sys.executable, "-m", "mkdocs", *args]


def run_mkdocs(config: Path, site_dir: Path, epoch: str = "0") -> None:
    """`mkdocs build --strict` in a child process (mkdocs configures global logging)."""
    completed = subprocess.run(
        # mkdocs reads a relative --site-dir against the config's folder: pass it absolute
        mkdocs_command(
            "build", "--strict", "--quiet", "-f", str(config), "-d", str(site_dir.resolve())
        ),
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "SOURCE_DATE_EPOCH": epoch},
    )
    if completed.returncode != 0:
        detail = (completed.stderr or completed.stdout).strip()
        raise RulepressError(f"mkdocs build --strict failed:\n{detail}")


class SiteExporter(BaseExporter):
    """The `site` target: a mkdocs project generated from the compendium, then built."""

    name = "site"
    description = "the rules reference website, mkdocs + Material (dist/site/)"

    def export(self, compendium: Compendium, out: Path, options: ExportOptions) -> None:
        """Generate the mkdocs project in a temporary folder, build the site into `out`,
        and put the downloads its home page links beside it. When rulesets declare
        languages, the site of each is built into its folder of `out` (site.languages),
        after the source language's (mkdocs empties the folder it builds into)."""
        sites, views = site_plan(compendium)
        with tempfile.TemporaryDirectory(prefix="rulepress-site-") as project:
            language = (sites[0], sites) if sites else None
            revisions = history(compendium) if sites else None  # read once for every site
            config = generate(
                compendium, Path(project), options.templates, revisions=revisions, language=language
            )
            with current().stage("mkdocs") as stage:  # the site's longest part
                run_mkdocs(config, out, build_epoch(compendium.root))
                pages = sum(1 for _ in out.rglob("*.html"))
                stage.result = f"built {pages:,} page{'s' if pages != 1 else ''}"
            with current().stage("downloads") as stage:
                write_downloads(compendium, safe_child(out, DOWNLOADS), options, Path(project))
                files = sum(1 for _ in safe_child(out, DOWNLOADS).iterdir())
                stage.result = f"wrote {files:,} file{'s' if files != 1 else ''} for the site"
        for site in sites[1:]:
            self.export_language(views[site.code], out, options, (site, sites), revisions)

    def export_language(
        self,
        view: Compendium,
        out: Path,
        options: ExportOptions,
        language: tuple[SiteLanguage, list[SiteLanguage]],
        revisions: list[Revision] | None = None,
    ) -> None:
        """Build the site of one translation (`view`, the compendium as its reader sees
        it) into its folder of `out`; `revisions`, the Changes page's, as the source's."""
        site = language[0]
        folder = safe_child(out, site.folder)
        with tempfile.TemporaryDirectory(prefix=f"rulepress-site-{site.folder}-") as project:
            config = generate(
                view, Path(project), options.templates, revisions=revisions, language=language
            )
            with current().stage(f"mkdocs {site.code}") as stage:
                run_mkdocs(config, folder, build_epoch(view.root))
                pages = sum(1 for _ in folder.rglob("*.html"))
                stage.result = f"built {pages:,} page{'s' if pages != 1 else ''} in {site.name}"


def site_plan(compendium: Compendium) -> tuple[list[SiteLanguage], dict[str, Compendium]]:
    """Every site (the source language's first) and, by language, the compendium as its
    reader sees it (`marked_compendium`); ([], {}) when no ruleset declares a language.
    The build's and `rulepress serve`'s."""
    translations = site_languages(compendium)
    sites = [source_language(compendium), *translations] if translations else []
    views = {site.code: marked_compendium(compendium, site.code) for site in translations}
    sites = [
        replace(
            site,
            pages=page_keys(views.get(site.code, compendium)),
            notes=edition_notes(compendium, site.code, sites[0].code) if site.folder else {},
        )
        for site in sites
    ]
    return sites, views


def write_downloads(
    compendium: Compendium, folder: Path, options: ExportOptions, scratch: Path
) -> None:
    """Each ruleset's guide, Foundry module zip and JSON, as the `markdown`, `foundry` and
    `json` targets write them: copied from the build's own output of a target when it has
    just written it (`options.built`, the same options: the same bytes), else rendered
    here (`build --target site`: a site is published on its own). The guide and JSON of
    each edition in another language go to `<language>/`, as those targets write them,
    for that language's site to link."""
    folder.mkdir()
    output = OutputFolder(folder)
    modules = [compendium.settings.settings.foundry.module_id(r.id) for r in compendium]
    if not _copied(output, options, "markdown", _edition_files(compendium, ".md")):
        MarkdownExporter().export(compendium, folder, options)
    if not _copied(output, options, "json", _edition_files(compendium, ".json")):
        JsonExporter().export(compendium, folder, options)
    if not _copied(output, options, "foundry", [f"{module}.zip" for module in modules]):
        rendered = safe_child(scratch, "foundry")
        FoundryExporter().export(compendium, rendered, options)
        for module in sorted(rendered.glob("*.zip")):
            module.replace(safe_child(folder, module.name))


def _edition_files(compendium: Compendium, suffix: str) -> list[str]:
    """Each ruleset's file and its editions' (`de/cool.md`), as the target names them."""
    return [
        name
        for ruleset in compendium
        for name in (
            f"{ruleset.id}{suffix}",
            *(f"{plan.code}/{ruleset.id}{suffix}" for plan in ruleset.info.languages),
        )
    ]


def _copied(output: OutputFolder, options: ExportOptions, target: str, names: list[str]) -> bool:
    """Copy the files `names` from the build's output of `target` into `output`'s folder;
    False, copying none, when the build has not written that target or lacks one."""
    built = options.built.get(target)
    if built is None:
        return False
    source = OutputFolder(built)
    files = {name: source.read(safe_child(built, *name.split("/"))) for name in names}
    if any(data is None for data in files.values()):
        return False
    for name, data in files.items():
        output.write(safe_child(output.root, *name.split("/")), data)
    return True
