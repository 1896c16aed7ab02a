"""The `rulepress` command line: parses options and calls the command modules.

Each command is defined in the module of its concern (publish: validate, build, serve;
content: fmt, init, schema, diff, translate, import; kind_groups: roll, odds, new) and added to the
`cli` group here, beside the commands the installed games add (game_commands);
`main` and `run` turn its outcome into an exit code.
"""

from __future__ import annotations

import gc
import os
import sys

import click

from rulepress import __version__
from rulepress.cli import content, kind_groups, publish
from rulepress.cli.game_commands import RulepressGroup
from rulepress.cli.options import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INTERNAL, EXIT_USAGE
from rulepress.errors import RulepressError, printable

__all__ = ["EXIT_CLEAN", "EXIT_FINDINGS", "EXIT_INTERNAL", "EXIT_USAGE", "cli", "main", "run"]


@click.group(cls=RulepressGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulepress")
def cli() -> None:
    """Turn tabletop rules into validated data and publish it.

    Reads the canonical YAML compendium, checks it, and renders it to every output.
    Exit codes: 0 clean (or warnings only), 1 findings that are errors, 2 usage or
    environment problems, 3 an internal error (a bug in rulepress: please report it).
    """


for command in (
    publish.validate_command,
    publish.build_command,
    publish.serve_command,
    content.fmt_command,
    content.init_command,
    content.schema_command,
    content.diff_command,
    content.translate_command,
    content.import_group,
    kind_groups.roll_group,
    kind_groups.odds_group,
    kind_groups.new_group,
):
    cli.add_command(command)


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
