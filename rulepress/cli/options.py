"""What the commands of the command line share: their exit codes and options."""

from __future__ import annotations

import functools
from pathlib import Path

import click

from rulepress.commands.options import COMPENDIUM_HELP, DEFAULT_COMPENDIUM, FilePath

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


def verbosity_options(function):
    """`--quiet` and `--verbose`, for the commands whose stages say when they end
    (rulepress.progress, on stderr); the command gets `verbosity`."""

    @functools.wraps(function)
    def wrapper(*args, quiet: bool, verbose: bool, **kwargs):
        from rulepress.progress import Verbosity

        if quiet and verbose:
            raise click.BadOptionUsage("--quiet", "--quiet and --verbose contradict; give one")
        chosen = Verbosity.QUIET if quiet else Verbosity.VERBOSE if verbose else Verbosity.NORMAL
        return function(*args, verbosity=chosen, **kwargs)

    wrapper = click.option(
        "-v",
        "--verbose",
        is_flag=True,
        help="Under each stage's line, its detail: each ruleset's files, each finding "
        "code's count, each output folder's files and bytes.",
    )(wrapper)
    return click.option(
        "-q",
        "--quiet",
        is_flag=True,
        help="No stage lines and no progress bar: only the answer (the findings, or the "
        "build's summary) and the errors. The stages otherwise say on stderr when each "
        "ends, with its counts and seconds.",
    )(wrapper)
