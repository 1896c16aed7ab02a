"""IRIS's `rulepress import wiki`, added to rulepress's `import` group through `Game.commands`:
a click Group named like one of rulepress's groups adds its subcommands to it. The import
itself (import_command.py) is imported only when the command runs."""

from __future__ import annotations

from pathlib import Path

import click

from rulepress.plugin.cli import DEFAULT_COMPENDIUM, FilePath


@click.group("import")
def import_group() -> None:
    """Turn other formats into canonical compendium YAML."""


@import_group.command("wiki")
@click.argument("page", type=FilePath(path_type=Path, dir_okay=False))
@click.option(
    "--into",
    "ruleset_folder",
    type=FilePath(path_type=Path, file_okay=False),
    default=None,
    help=f"The ruleset's folder to write the weapon files into. Default: "
    f"{Path(DEFAULT_COMPENDIUM) / 'iris'}.",
)
@click.option(
    "--ruleset",
    "old_ruleset_folder",
    type=FilePath(path_type=Path, file_okay=False),
    default=None,
    hidden=True,
    help="The same as --into (its first name; --ruleset is a ruleset's id elsewhere).",
)
def import_wiki_command(
    page: Path, ruleset_folder: Path | None, old_ruleset_folder: Path | None
) -> None:
    """Import weapon profiles from a quick-reference wiki PAGE (the IRIS text format:
    section headings, "Weapon Profile - NAME (Tier N)" headers, a stats line and an AP
    table) as one canonical YAML file per weapon, plus one per section."""
    from rulepress.games.iris.import_command import import_wiki

    if None not in (ruleset_folder, old_ruleset_folder) and ruleset_folder != old_ruleset_folder:
        raise click.BadOptionUsage("--into", "--into and --ruleset name two folders; give one")
    ruleset_folder = ruleset_folder or old_ruleset_folder or Path(DEFAULT_COMPENDIUM) / "iris"
    for path in import_wiki(page, ruleset_folder):
        click.echo(f"wrote {path}")
