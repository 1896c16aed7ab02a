"""The commands that check and publish the compendium: `validate`, `build`, `serve`."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from rulepress.cli.options import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    compendium_argument,
    no_cache_option,
    settings_option,
    verbosity_options,
)
from rulepress.commands.options import TEXT, FilePath, Text, format_options
from rulepress.errors import RulepressError

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


@click.command("validate")
@compendium_argument
@format_options(
    ("text", "json", "github"), "text", "text for people, json for tools, github for annotations."
)
@click.option(
    "--strict", is_flag=True, help="Treat warnings as errors (acknowledged ones excepted)."
)
@click.option(
    "--show-acknowledged",
    is_flag=True,
    help="Also print the findings the documents acknowledge, marked with their reason.",
)
@click.option(
    "--changed-since",
    metavar="REF",
    type=TEXT,
    default=None,
    help="With --format github: annotate only the files changed since git revision REF "
    "(and untracked ones); errors elsewhere are still said, without a place.",
)
@settings_option
@no_cache_option
@verbosity_options
def validate_command(
    compendium: Path,
    fmt: str,
    strict: bool,
    show_acknowledged: bool,
    changed_since: str | None,
    settings: Path | None,
    no_cache: bool,
    verbosity: int,
) -> None:
    """Check the compendium (--compendium, default ./compendium) and the publisher's
    settings, and print `path:line:col: level CODE: message` for each finding, errors
    first. Findings a document acknowledges (`acknowledged:`) are counted apart and
    printed only with --show-acknowledged. With --format github, every finding is also
    written as a Markdown table to $GITHUB_STEP_SUMMARY when set. The load and the checks
    each say on stderr when they end (see --quiet, --verbose): stdout is only the findings."""
    from rulepress.commands.validate import format_findings, write_step_summary
    from rulepress.git import changed_files
    from rulepress.progress import Progress, speaking
    from rulepress.validation import validate

    if changed_since is not None and fmt != "github":
        raise click.UsageError("--changed-since goes with --format github")
    changed = changed_files(compendium, changed_since) if changed_since is not None else None
    with speaking(Progress(verbosity=verbosity)):
        validation = validate(compendium, strict=strict, cache=not no_cache, settings=settings)
    click.echo(
        format_findings(
            validation,
            fmt,
            relative_to=Path.cwd(),
            show_acknowledged=show_acknowledged,
            changed=changed,
        )
    )
    if fmt == "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
        write_step_summary(Path(os.environ["GITHUB_STEP_SUMMARY"]), validation, Path.cwd(), changed)
    sys.exit(EXIT_CLEAN if validation.ok else EXIT_FINDINGS)


def complete_targets(incomplete: str) -> list[CompletionItem]:
    """The targets whose names start with what is typed, for the shell's completion of
    `--target` (the names are open: a plugin adds its own, so no click.Choice)."""
    from click.shell_completion import CompletionItem

    from rulepress.exporters import target_descriptions

    return [
        CompletionItem(name, help=description)
        for name, description in target_descriptions().items()
        if name.startswith(incomplete)
    ]


@click.command("build")
@compendium_argument
@click.option(
    "--out",
    type=FilePath(path_type=Path),
    default=Path("dist"),
    show_default=True,
    help="Output folder; each target writes into its own subfolder.",
)
@click.option(
    "--target",
    "targets",
    type=TEXT,
    multiple=True,
    metavar="NAME",
    shell_complete=lambda ctx, param, incomplete: complete_targets(incomplete),
    help="Target to build (repeatable): foundry, markdown, site, json, or an installed "
    "plugin's; default: every target.",
)
@click.option(
    "--foundry-version",
    type=click.Choice(["12", "13", "14"]),
    default="14",
    show_default=True,
    help="Foundry VTT version the module targets: its compatibility, its documents' "
    "_stats, v12's TableResult shape and dialog.",
)
@click.option(
    "--templates",
    type=FilePath(path_type=Path, file_okay=False, exists=True),
    default=None,
    help="Folder of templates (Markdown sections, Foundry HTML, site pages) that override "
    "the shipped ones by name.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Build even when nothing the last identical build read or wrote has changed.",
)
@click.option(
    "--watch",
    is_flag=True,
    help="After the build, keep the compendium in memory and update the outputs in place "
    "at each saved file (only the files that change, each replaced whole); errors are "
    "printed and the last good output kept. Not the site (rulepress serve); Ctrl-C ends.",
)
@settings_option
@no_cache_option
@verbosity_options
def build_command(
    compendium: Path,
    out: Path,
    targets: tuple[str, ...],
    foundry_version: str,
    templates: Path | None,
    force: bool,
    watch: bool,
    settings: Path | None,
    no_cache: bool,
    verbosity: int,
) -> None:
    """Validate the compendium (--compendium) and the publisher's settings, then write
    every output into OUT (the settings give the site, the Foundry modules and the guides
    their titles and addresses). Nothing is written when validation finds errors; a
    target's previous output is replaced only when its new output is complete. Run again
    with nothing changed, it only says so. With --watch it then follows the compendium:
    see that option. Each stage (load, checks, each target, mkdocs) says on stderr when
    it ends, with its counts and seconds, and a terminal gets a progress bar (see --quiet,
    --verbose); the summary, on stdout, comes last."""
    from rulepress.commands.build import stamped_build
    from rulepress.commands.validate import build_summary, format_findings
    from rulepress.exporters import ExportOptions
    from rulepress.progress import Progress, speaking

    options = ExportOptions(foundry_version=int(foundry_version), templates=templates)
    if click.get_current_context().get_parameter_source("out") is ParameterSource.DEFAULT:
        from rulepress.exporters.output_folder import refuse_default_leading_away

        refuse_default_leading_away(out)  # a committed `dist` link; a typed --out goes anywhere
    with speaking(Progress(verbosity=verbosity)):
        if watch:
            from rulepress.commands.watch import run_watch

            sys.exit(run_watch(compendium, out, targets, options, settings=settings))
        validation, written = stamped_build(
            compendium,
            out,
            targets,
            options,
            sys.argv[1:],
            force=force,
            cache=not no_cache,
            settings=settings,
        )
    if not validation.ok:
        click.echo(format_findings(validation, "text", relative_to=Path.cwd()), err=True)
        click.echo("build stopped: fix the errors above; nothing was written", err=True)
        sys.exit(EXIT_FINDINGS)
    click.echo(build_summary(validation, compendium))
    for path in written:
        click.echo(f"wrote {path}")


@click.command("serve")
@compendium_argument
@click.option(
    "-a",
    "--address",
    type=Text("'' is not HOST:PORT with a port from 1 to 65535"),
    default="127.0.0.1:8000",
    show_default=True,
    help="Address to serve the preview on.",
)
@settings_option
def serve_command(compendium: Path, address: str, settings: Path | None) -> None:
    """Preview the rules site with live reload: edit the compendium (--compendium) or the
    settings and the browser updates. The site in each language the rulesets declare is
    served in its folder (/de/)."""
    from rulepress.commands.serve import serve

    if not compendium.is_dir():
        raise RulepressError(f"compendium folder not found: {compendium}")
    sys.exit(serve(compendium, address, settings))
