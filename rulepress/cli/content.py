"""The commands that write the content repository's files: `fmt`, `init`, `schema`,
`import` (whose subcommands the games add, `Game.commands`), `translate`, which writes
the translators' files, and `diff`, which compares two versions of them."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from rulepress.cli.game_commands import GameGroup
from rulepress.cli.options import EXIT_CLEAN, EXIT_FINDINGS
from rulepress.commands.options import (
    DEFAULT_COMPENDIUM,
    TEXT,
    FilePath,
    Text,
    compendium_option,
    format_options,
)
from rulepress.errors import Level, printable


@click.command("fmt")
@click.argument("path", default=DEFAULT_COMPENDIUM, type=FilePath(path_type=Path))
@click.option("--check", is_flag=True, help="Change nothing; exit 1 if a file is not canonical.")
def fmt_command(path: Path, check: bool) -> None:
    """Rewrite the YAML under PATH (default ./compendium) in canonical form, keeping
    comments. With --check, list the files that would change and exit 1 if any would.
    Never writes through a symbolic link: a link to a file inside PATH is skipped, one
    leading out of it is refused."""
    from rulepress.commands.fmt import format_paths
    from rulepress.commands.validate import finding_line

    result = format_paths(path, check=check)
    for finding in result.refused:
        click.echo(finding_line(finding, relative_to=Path.cwd()), err=True)
    for file, reason in result.failed:
        click.echo(f"{printable(str(file))}: cannot format: {printable(reason)}", err=True)
    for file in result.changed:
        click.echo(f"{'would reformat' if check else 'reformatted'} {printable(str(file))}")
    for file, reason in result.skipped:
        click.echo(f"{printable(str(file))}: skipped: {printable(reason)}")
    click.echo(
        f"{len(result.changed)} {'to reformat' if check else 'reformatted'}, "
        f"{len(result.unchanged)} already canonical, "
        f"{len(result.failed) + len(result.refused)} failed"
    )
    failed = result.failed or result.refused
    sys.exit(EXIT_FINDINGS if failed or (check and result.changed) else EXIT_CLEAN)


@click.command("init")
@click.argument("directory", type=FilePath(path_type=Path))
@click.option(
    "--title",
    type=TEXT,
    help="The rules' title: the site's, the ruleset's. Default: from DIRECTORY's name.",
)
@click.option(
    "--ruleset",
    "ruleset_id",
    type=TEXT,
    default=None,
    help="The ruleset's id (a slug): its folder under compendium/. Default: DIRECTORY's "
    "name as a slug (Iron Oath gives iron-oath; a name with no ASCII letter or digit "
    "needs --ruleset).",
)
@click.option(
    "--samples",
    "samples",
    type=TEXT,
    default=None,
    metavar="GAME,...|all",
    help="Also write one small document of each kind of these games (the ids of the "
    "installed games that have samples; tables: a roll table), or of all of them; "
    "default: none.",
)
@click.option(
    "--github",
    type=TEXT,
    metavar="OWNER/NAME",
    help="The GitHub repository the content will live in: sets the site's address "
    "(GitHub Pages), its edit links, the Foundry modules' release URLs and their ids' "
    "prefix (OWNER as a slug: modules OWNER-<ruleset>; default: rulepress).",
)
@click.option(
    "--rulepress-from",
    "rulepress_from",
    type=TEXT,
    metavar="SPEC",
    help="Where the repository installs rulepress from (requirements.txt and the "
    "pre-commit hooks): a version on the package index (0.1.0), a requirement "
    "(rulepress>=0.1,<0.2), a git repository at a revision "
    "(git+https://github.com/OWNER/rulepress@v0.1.0), or a wheel's https URL or path. "
    "Default: where this rulepress came from (pip's direct_url.json), else its version "
    "on the package index.",
)
def init_command(
    directory: Path,
    title: str | None,
    ruleset_id: str | None,
    samples: str | None,
    github: str | None,
    rulepress_from: str | None,
) -> None:
    """Write a new content repository into DIRECTORY (new or empty): the settings
    (rulepress.yaml), a ruleset named after DIRECTORY with one rule, pre-commit hooks,
    GitHub workflows (checks on pull requests, the site on GitHub Pages, release files on
    a tag), a .gitignore, a README for its contributors, and the JSON Schemas (schemas/)
    with .vscode/settings.json mapping the files onto them for editors; with --samples,
    the bundled games' sample documents too. It validates and builds as written. Refuses a folder
    that is not empty; writes nothing on failure."""
    from rulepress.commands.init import init_repository
    from rulepress.commands.install_source import rulepress_source

    rulepress = rulepress_source(rulepress_from)
    written = init_repository(
        directory,
        title=title,
        ruleset_id=ruleset_id,
        github=github,
        samples=samples.split(",") if samples else (),
        rulepress=rulepress,
    )
    for path in written:
        click.echo(f"wrote {printable(str(path))}")
    if rulepress.warning:
        click.echo(f"warning: {printable(rulepress.warning)}", err=True)
    click.echo(
        f"next: cd {printable(str(directory))} && rulepress validate && rulepress build"
        " (then git init, and see README.md)"
    )


@click.command("schema")
@click.option(
    "--out",
    type=FilePath(path_type=Path, file_okay=False),
    default=Path("schemas"),
    show_default=True,
    help="Folder to write the schemas into.",
)
def schema_command(out: Path) -> None:
    """Write a JSON Schema per document kind (and compendium.schema.json for any kind),
    with the models' field descriptions, for editors and other tools; when the folder is
    inside the current one, map them in .vscode/settings.json (yaml.schemas)."""
    from rulepress.commands.schema import write_schemas

    written, refused = write_schemas(out)
    for path in written:
        click.echo(f"wrote {printable(str(path))}")
    if refused:
        click.echo(f"warning: {printable(refused)}", err=True)


NO_EMPTY_SIDE = Text("an empty name is neither a compendium folder nor a git revision")


@click.command("diff")
@click.argument("old", type=NO_EMPTY_SIDE)
@click.argument("new", type=NO_EMPTY_SIDE, default="compendium")
@format_options(
    ("text", "markdown", "json"),
    "text",
    "text for people, markdown for a pull-request comment, json for tools.",
)
@click.option(
    "--path",
    "compendium_path",
    type=TEXT,
    default=DEFAULT_COMPENDIUM,
    show_default=True,
    help="Where the compendium is inside the repository, for git revisions.",
)
def diff_command(old: str, new: str, fmt: str, compendium_path: str) -> None:
    """Say what changed in the rules between OLD and NEW: compendium folders or git
    revisions (HEAD~1, main). Changed cells, renames, new and removed documents, and the
    computed figures (odds) a change moves."""
    from rulepress.commands.diff import format_changes
    from rulepress.history import compare, load_side

    changes = compare(load_side(old, compendium_path), load_side(new, compendium_path))
    click.echo(format_changes(changes, fmt, old, new))


@click.group("import", cls=GameGroup)
def import_group() -> None:
    """Turn other formats into canonical compendium YAML."""


def _language_tag(_context, _parameter, value: str) -> str:
    from rulepress.models.translation import LANGUAGE_TAG  # the models load when used

    if not re.fullmatch(LANGUAGE_TAG, value):
        raise click.BadParameter(f"{printable(value)!r} is not a language tag (de, pt-BR, ar)")
    return value


@click.command("translate")
@click.argument("language", callback=_language_tag)
@compendium_option
@click.option(
    "--review",
    is_flag=True,
    help="Take the source's text now as the one each stale translation was made from "
    "(after a translator has reviewed them).",
)
def translate_command(language: str, compendium: Path, review: bool) -> None:
    """Write, for LANGUAGE, the translation files and entries still missing, each with
    the source text beside it, below each ruleset's translations/LANGUAGE/ folder. A
    translation whose source changed is left for review and listed; --review renews its
    digest. Refuses a compendium with errors (nothing written)."""
    from rulepress.commands import translate
    from rulepress.commands.validate import finding_line
    from rulepress.validation import validate

    checked = validate(compendium)
    if not checked.ok:
        for finding in checked.findings:
            if finding.level == Level.ERROR:
                click.echo(finding_line(finding, relative_to=Path.cwd()), err=True)
        click.echo("translate: the compendium has errors; nothing written", err=True)
        sys.exit(EXIT_FINDINGS)
    planned = translate.plan(checked.compendium, language, review=review)
    for path in translate.write(planned):
        click.echo(f"wrote {printable(str(path))}")
    for path, at, was, now in planned.stale:
        click.echo(
            f"{printable(str(path))}: {printable(at)} is stale: translated from "
            f"{printable(was)!r}, the source now reads {printable(now)!r}"
        )
    review_hint = f" (review them, then `rulepress translate {language} --review`)"
    click.echo(
        f"{language}: {planned.added} entries to translate added, "
        f"{len(planned.stale)} stale{review_hint if planned.stale else ''}, "
        f"{planned.reviewed} reviewed, {len(planned.files)} files written"
    )
