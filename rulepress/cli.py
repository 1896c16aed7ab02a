"""The `rulepress` command line: parses options and calls the command modules."""

from __future__ import annotations

import functools
import gc
import os
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from rulepress import __version__
from rulepress.commands.options import (
    COMPENDIUM_HELP,
    DEFAULT_COMPENDIUM,
    TEXT,
    FilePath,
    Text,
    format_options,
)
from rulepress.errors import PluginError, RulepressError, printable, raised_text

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def compendium_argument(function):
    """`--compendium FOLDER`, the name every command gives the compendium, and the COMPENDIUM
    argument that `validate`, `build` and `serve` took first, still accepted; the command
    gets `compendium` (`compendium` unless given)."""

    @functools.wraps(function)
    def wrapper(*args, compendium: Path | None, compendium_option: Path | None, **kwargs):
        if None not in (compendium, compendium_option) and compendium != compendium_option:
            raise click.BadOptionUsage(
                "--compendium", "--compendium and COMPENDIUM name two folders; give one"
            )
        chosen = compendium or compendium_option or Path(DEFAULT_COMPENDIUM)
        return function(*args, compendium=chosen, **kwargs)

    wrapper = click.option(
        "--compendium",
        "compendium_option",
        type=FilePath(path_type=Path),
        default=None,
        help=f"{COMPENDIUM_HELP} Default: {DEFAULT_COMPENDIUM}; also accepted as the argument.",
    )(wrapper)
    return click.argument(
        "compendium", required=False, default=None, type=FilePath(path_type=Path)
    )(wrapper)


def no_cache_option(function):
    """`--no-cache`, for the commands that reuse what earlier runs parsed and rendered."""
    return click.option(
        "--no-cache",
        is_flag=True,
        help="Reuse nothing from earlier runs: parse every file again and render every "
        "output afresh (the caches are in .rulepress-cache/, or $RULEPRESS_CACHE_DIR).",
    )(function)


def settings_option(function):
    """`--settings FILE`, for the commands that read the publisher's settings."""
    return click.option(
        "--settings",
        type=FilePath(path_type=Path, dir_okay=False),
        default=None,
        help="The publisher's settings file (site, Foundry modules, guides); default: "
        "rulepress.yaml beside the compendium, if there is one.",
    )(function)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulepress")
def cli() -> None:
    """Turn tabletop rules into validated data and publish it.

    Reads the canonical YAML compendium, checks it, and renders it to every output.
    Exit codes: 0 clean (or warnings only), 1 findings that are errors, 2 usage or
    environment problems, 3 an internal error (a bug in rulepress: please report it).
    """


@cli.command("validate")
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
def validate_command(
    compendium: Path,
    fmt: str,
    strict: bool,
    show_acknowledged: bool,
    changed_since: str | None,
    settings: Path | None,
    no_cache: bool,
) -> None:
    """Check the compendium (--compendium, default ./compendium) and the publisher's
    settings, and print `path:line:col: level CODE: message` for each finding, errors
    first. Findings a document acknowledges (`acknowledged:`) are counted apart and
    printed only with --show-acknowledged. With --format github, every finding is also
    written as a Markdown table to $GITHUB_STEP_SUMMARY when set."""
    from rulepress.commands.validate import format_findings, write_step_summary
    from rulepress.git import changed_files
    from rulepress.validation import validate

    if changed_since is not None and fmt != "github":
        raise click.UsageError("--changed-since goes with --format github")
    changed = changed_files(compendium, changed_since) if changed_since is not None else None
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


@cli.command("build")
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
    help="Target to build (repeatable): foundry, markdown, site, json; default: every target.",
)
@click.option(
    "--foundry-version",
    type=click.Choice(["12", "13"]),
    default="13",
    show_default=True,
    help="Foundry VTT version the module targets (picks the TableResult shape).",
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
) -> None:
    """Validate the compendium (--compendium) and the publisher's settings, then write
    every output into OUT (the settings give the site, the Foundry modules and the guides
    their titles and addresses). Nothing is written when validation finds errors; a
    target's previous output is replaced only when its new output is complete. Run again
    with nothing changed, it only says so. With --watch it then follows the compendium:
    see that option."""
    from rulepress.commands.build import stamped_build
    from rulepress.commands.validate import build_summary, format_findings
    from rulepress.exporters import ExportOptions

    options = ExportOptions(foundry_version=int(foundry_version), templates=templates)
    if click.get_current_context().get_parameter_source("out") is ParameterSource.DEFAULT:
        from rulepress.exporters.output_folder import refuse_default_leading_away

        refuse_default_leading_away(out)  # a committed `dist` link; a typed --out goes anywhere
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


@cli.command("fmt")
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


@cli.command("init")
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
    help="Also write one small document of each kind of these bundled games "
    "(iris, t2k4e, cuf, cool; tables: a roll table), or of all of them; default: none.",
)
@click.option(
    "--github",
    type=TEXT,
    metavar="OWNER/NAME",
    help="The GitHub repository the content will live in: sets the site's address "
    "(GitHub Pages), its edit links and the Foundry modules' release URLs.",
)
def init_command(
    directory: Path,
    title: str | None,
    ruleset_id: str | None,
    samples: str | None,
    github: str | None,
) -> None:
    """Write a new content repository into DIRECTORY (new or empty): the settings
    (rulepress.yaml), a ruleset named after DIRECTORY with one rule, pre-commit hooks,
    GitHub workflows (checks on pull requests, the site on GitHub Pages, release files on
    a tag), a .gitignore and a README for its contributors; with --samples, the bundled
    games' sample documents too. It validates and builds as written. Refuses a folder
    that is not empty; writes nothing on failure."""
    from rulepress.commands.init import init_repository

    written = init_repository(
        directory,
        title=title,
        ruleset_id=ruleset_id,
        github=github,
        samples=samples.split(",") if samples else (),
    )
    for path in written:
        click.echo(f"wrote {printable(str(path))}")
    click.echo(
        f"next: cd {printable(str(directory))} && rulepress validate && rulepress build"
        " (then git init, and see README.md)"
    )


@cli.command("schema")
@click.option(
    "--out",
    type=FilePath(path_type=Path, file_okay=False),
    default=Path("schemas"),
    show_default=True,
    help="Folder to write the schemas into.",
)
def schema_command(out: Path) -> None:
    """Write a JSON Schema per document kind (and compendium.schema.json for any kind),
    with the models' field descriptions, for editors and other tools."""
    from rulepress.commands.schema import write_schemas

    for path in write_schemas(out):
        click.echo(f"wrote {path}")


NO_EMPTY_SIDE = Text("an empty name is neither a compendium folder nor a git revision")


@cli.command("diff")
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


@cli.command("serve")
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
    settings and the browser updates."""
    from rulepress.commands.serve import serve

    if not compendium.is_dir():
        raise RulepressError(f"compendium folder not found: {compendium}")
    sys.exit(serve(compendium, address, settings))


@cli.group("import")
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
    from rulepress.commands.import_wiki import import_wiki

    if None not in (ruleset_folder, old_ruleset_folder) and ruleset_folder != old_ruleset_folder:
        raise click.BadOptionUsage("--into", "--into and --ruleset name two folders; give one")
    ruleset_folder = ruleset_folder or old_ruleset_folder or Path(DEFAULT_COMPENDIUM) / "iris"
    for path in import_wiki(page, ruleset_folder):
        click.echo(f"wrote {path}")


class KindCommands(click.Group):
    """`roll`, `odds` and `new`: a subcommand per kind whose registry entry names one
    (rulepress.kinds), loaded only when this group is used, so `rulepress --help`
    imports no model. Its help lists the subcommands of the kinds ./compendium holds
    (`options.command_kinds`); any registered one still runs by its name."""

    def __init__(self, *args, hook: str, **kwargs) -> None:
        """`hook` names the registry hook (`roll`, `odds`, `new`) whose kinds become the
        subcommands."""
        super().__init__(*args, **kwargs)
        self.hook = hook

    def _kind_commands(
        self, held: frozenset[str] | None = None
    ) -> dict[str, tuple[click.Command, str]]:
        """Each subcommand by name, with the package of the kind that names it; with
        `held`, only those of kinds whose documents (or the documents they refer to) are
        among the `held` kinds."""
        from rulepress import kinds
        from rulepress.commands.options import command_kinds

        found = {}
        for kind in kinds.registry().values():
            reference = getattr(kind, self.hook)
            if reference and (held is None or command_kinds(kind.model) & held):
                command = kinds.load_hook(reference)
                if not isinstance(command, click.Command):
                    if kind.package == "rulepress":
                        raise TypeError(f"{reference} is not a click command")
                    raise PluginError(
                        f"hook {reference!r} of kind {kind.name!r} from plugin "
                        f"{kind.package} is not a click command"
                    )
                found.setdefault(command.name, (command, kind.package))
        return found

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The subcommands of the games ./compendium holds, for `--help`; every registered
        one when there is no compendium to read."""
        from rulepress.commands.options import held_kinds

        return sorted(self._kind_commands(held_kinds(Path(DEFAULT_COMPENDIUM))))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The kind's subcommand called `name`, imported only now."""
        command, _ = self._kind_commands().get(name, (None, ""))
        return command

    def invoke(self, ctx: click.Context) -> object:
        """Run the subcommand; what a plugin's command raises (other than click's own
        and rulepress's errors) is an error naming the plugin, exit 2, not an internal
        error. Ctrl-C and sys.exit are no Exception, so they still stop the command."""
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, RulepressError):
            raise
        except Exception as exc:
            name = ctx.invoked_subcommand or ""
            _, package = self._kind_commands().get(name, (None, "rulepress"))
            if package == "rulepress":
                raise  # rulepress's own command failing is a bug to report
            raise PluginError(
                f"rulepress {self.name} {name} (from {package}) failed: {raised_text(exc)}"
            ) from exc

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The listed subcommands with their short help, or a line saying there is none."""
        commands = [(name, self._kind_commands()[name][0]) for name in self.list_commands(ctx)]
        width = formatter.width - 6 - max((len(name) for name, _ in commands), default=0)
        with formatter.section("Commands"):
            if commands:
                formatter.write_dl([(n, c.get_short_help_str(width)) for n, c in commands])
            else:
                formatter.write_text("none for the kinds of ./compendium")


@cli.group("roll", cls=KindCommands, hook="roll")
def roll_group() -> None:
    """Resolve a test: give the faces rolled, or a --seed to roll them.

    Lists the games of ./compendium (every registered one when there is no compendium
    there to read); each runs with its own --compendium."""


@cli.group("odds", cls=KindCommands, hook="odds")
def odds_group() -> None:
    """Exact odds computed from the rules.

    Lists the games of ./compendium (every registered one when there is no compendium
    there to read); each runs with its own --compendium."""


@cli.group("new", cls=KindCommands, hook="new")
def new_group() -> None:
    """Write a valid skeleton document in the right folder.

    Lists the kinds ./compendium can take (every registered one when there is no
    compendium there to read); each runs with its own --compendium."""


def pause_the_collector() -> None:
    """Switch Python's cycle collector off for the rest of this process. A command is one
    pass over the data and then the process ends; loading makes millions of objects and
    no reference cycles, which the collector would scan again and again (a fifth of
    loading 10,000 weapons). Process-wide, so only the command's own process does it,
    never a library call; `serve`'s rebuilds run in mkdocs's process, which collects."""
    gc.disable()


def main() -> None:
    """The `rulepress` program: run the CLI on the process's arguments and exit with its code."""
    pause_the_collector()
    sys.exit(run())


def run(args: list[str] | None = None) -> int:
    """Run the CLI and turn its outcome into an exit code: a usage or data problem a one-line
    message, a bug an "internal error" line. Tests call it in-process."""
    try:
        cli(args, standalone_mode=False)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_INTERNAL
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.Abort:
        click.echo("aborted", err=True)
        return EXIT_USAGE
    except click.UsageError as exc:
        click.echo(f"error: {one_line_usage(exc)}", err=True)
        return EXIT_USAGE
    except click.ClickException as exc:
        exc.show()
        return EXIT_USAGE
    except RulepressError as exc:
        click.echo(f"error: {printable(str(exc))}", err=True)  # it may name a file of the data
        return EXIT_USAGE
    except Exception as exc:  # a bug in rulepress: say so in one line, keep the trace opt-in
        if os.environ.get("RULEPRESS_DEBUG"):
            raise
        click.echo(
            f"internal error: {exc!r} (set RULEPRESS_DEBUG=1 for the traceback, "
            "and please report it)",
            err=True,
        )
        return EXIT_INTERNAL
    return EXIT_CLEAN


def one_line_usage(exc: click.UsageError) -> str:
    """A usage error in one line, naming the option and where its help is: click's own
    message, without the usage block it prints around it."""
    message = " ".join(printable(exc.format_message()).split())
    if exc.ctx is None:
        return message
    return f"{message} (see `{exc.ctx.command_path} --help`)"
