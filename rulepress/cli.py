"""The `rulepress` command line: parses options and calls the command modules."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from rulepress import __version__
from rulepress.errors import RulepressError

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
DEFAULT_COMPENDIUM = "compendium"

COMPENDIUM_HELP = "Compendium folder (one folder per ruleset, or a single ruleset folder)."


def compendium_argument(function):
    return click.argument("compendium", default=DEFAULT_COMPENDIUM,
                          type=click.Path(path_type=Path))(function)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulepress")
def cli() -> None:
    """Turn tabletop rules into validated data and publish it.

    Reads the canonical YAML compendium, checks it, and renders it to every output.
    Exit codes: 0 clean (or warnings only), 1 findings that are errors, 2 usage or
    environment problems.
    """


@cli.command("validate")
@compendium_argument
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text",
              show_default=True, help="text for people, json for tools, github for annotations.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def validate_command(compendium: Path, fmt: str, strict: bool) -> None:
    """Check COMPENDIUM (default ./compendium) and print `path:line:col: level CODE: message`
    for each finding, errors first."""
    from rulepress.commands.validate import format_findings, validate

    validation = validate(compendium, strict=strict)
    click.echo(format_findings(validation, fmt, relative_to=Path.cwd()))
    sys.exit(EXIT_CLEAN if validation.ok else EXIT_FINDINGS)


@cli.command("build")
@compendium_argument
@click.option("--out", type=click.Path(path_type=Path), default=Path("dist"), show_default=True,
              help="Output folder; each target writes into its own subfolder.")
@click.option("--target", "targets", multiple=True, metavar="NAME",
              help="Target to build (repeatable); default: every target.")
def build_command(compendium: Path, out: Path, targets: tuple[str, ...]) -> None:
    """Validate COMPENDIUM, then write every output into OUT. Nothing is written when
    validation finds errors; a target's previous output is replaced only when its new
    output is complete."""
    from rulepress.commands.build import build
    from rulepress.commands.validate import format_findings, summary

    validation, written = build(compendium, out, targets)
    if not validation.ok:
        click.echo(format_findings(validation, "text", relative_to=Path.cwd()), err=True)
        click.echo("build stopped: fix the errors above; nothing was written", err=True)
        sys.exit(EXIT_FINDINGS)
    click.echo(f"validated: {summary(validation)}")
    for path in written:
        click.echo(f"wrote {path}")


@cli.group("import")
def import_group() -> None:
    """Turn other formats into canonical compendium YAML."""


@import_group.command("wiki")
@click.argument("page", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--ruleset", "ruleset_folder", type=click.Path(path_type=Path, file_okay=False),
              default=Path(DEFAULT_COMPENDIUM) / "iris", show_default=True,
              help="Ruleset folder to write the weapon files into.")
def import_wiki_command(page: Path, ruleset_folder: Path) -> None:
    """Import weapon profiles from a quick-reference wiki PAGE (the IRIS text format:
    section headings, "Weapon Profile - NAME (Tier N)" headers, a stats line and an AP
    table) as one canonical YAML file per weapon, plus one per section."""
    from rulepress.commands.import_wiki import import_wiki

    for path in import_wiki(page, ruleset_folder):
        click.echo(f"wrote {path}")


def main() -> None:
    try:
        cli(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("aborted", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_USAGE)
    except RulepressError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except Exception as exc:  # a bug in rulepress: say so in one line, keep the trace opt-in
        if os.environ.get("RULEPRESS_DEBUG"):
            raise
        click.echo(f"internal error: {exc!r} (set RULEPRESS_DEBUG=1 for the traceback, "
                   "and please report it)", err=True)
        sys.exit(EXIT_INTERNAL)
