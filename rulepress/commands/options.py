"""The command line's shared option types and decorators, for `rulepress.cli` and for
the kinds' own `roll` and `odds` commands (which the registry names and `rulepress.cli`
loads only when they are used). Nothing heavy is imported here: `--help` stays quick."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import click

from rulepress.errors import RulepressError

DEFAULT_COMPENDIUM = "compendium"
COMPENDIUM_HELP = "Compendium folder (one folder per ruleset, or a single ruleset folder)."
RULESET_HELP = "Ruleset id in the compendium."


class FilePath(click.Path):
    """A path that may not be empty: `Path("")` is the working folder, so an unset shell
    variable (`rulepress validate "$DIR"`) would check, or build into, whatever folder the
    command runs in."""

    def convert(self, value, param, ctx):
        """Refuse an empty path before click takes it for the working folder."""
        if isinstance(value, str) and not value.strip():
            self.fail("an empty path", param, ctx)
        return super().convert(value, param, ctx)


class Text(click.types.StringParamType):
    """Text that may not be empty or blank: an unset shell variable is a usage error naming
    its option, not a name, a section or an address made of nothing."""

    def __init__(self, empty: str = "an empty value") -> None:
        """`empty` is what the usage error calls a blank value ("an empty name")."""
        self.empty = empty

    def convert(self, value, param, ctx):
        """Refuse blank text; keep the rest as it is."""
        if isinstance(value, str) and not value.strip():
            self.fail(self.empty, param, ctx)
        return super().convert(value, param, ctx)


TEXT = Text()

SEED = click.IntRange(0, 2**63 - 1)
"""A seed for `random.Random`: any whole number would do, but one of 30 digits is a typo."""


class IntList(click.ParamType):
    """A comma-separated list of whole numbers: `1,2,6`."""

    name = "N,N,..."

    def convert(self, value, param, ctx):
        """`1,2,6` as a list of whole numbers; anything else is a usage error, not a traceback."""
        if isinstance(value, list):
            return value
        parts = [part.strip() for part in str(value).split(",") if part.strip()]
        # ASCII digits only (int() would also read '٣' and '1_000'), and not a thousand of them
        if not all(re.fullmatch(r"[+-]?[0-9]{1,9}", part) for part in parts):
            self.fail(
                f"{value!r} is not a comma-separated list of whole numbers (of at most 9 digits)",
                param,
                ctx,
            )
        return [int(part) for part in parts]


def compendium_option(function):
    """`--compendium`, for the kinds' own subcommands (which have no COMPENDIUM argument)."""
    return click.option(
        "--compendium",
        type=FilePath(path_type=Path, file_okay=False),
        default=Path(DEFAULT_COMPENDIUM),
        show_default=True,
        help=COMPENDIUM_HELP,
    )(function)


def ruleset_options(model: type):
    """--compendium, --ruleset (by default the one `choose_ruleset` finds for documents of
    `model`), and --format text|json (or --json), given to the command as `as_json`."""

    def decorate(function):
        function = format_options(("text", "json"), "text", "text for people, json for tools.")(
            as_json_argument(function)
        )
        function = ruleset_option(model)(function)
        return compendium_option(function)

    return decorate


def ruleset_option(model: type):
    """`--ruleset`, unset by default: `choose_ruleset` then picks one for `model`."""
    return click.option(
        "--ruleset",
        "ruleset_id",
        type=TEXT,
        default=None,
        help=f"{RULESET_HELP} Default: the compendium's only ruleset, or the only one with "
        f"{model.KIND} documents (or what they refer to).",
    )


def command_kinds(model: type) -> frozenset[str]:
    """The kinds whose documents a kind's subcommand needs: its own, and those its
    documents refer to (a weapon's section), so `new weapon` is offered, and finds its
    ruleset, once a weapon section exists."""
    from rulepress.models.base import referenced_kinds

    return frozenset({model.KIND, *referenced_kinds(model)} - {"*"})


def held_kinds(compendium: Path) -> frozenset[str] | None:
    """The kinds of the documents under `compendium`, or None when it cannot be read
    (no such folder): then every registered kind's subcommand is offered."""
    from rulepress.compendium.loader import load_compendium

    try:
        loaded = load_compendium(compendium).compendium
    except (RulepressError, OSError):
        return None
    return frozenset(
        entry.document.kind for ruleset in loaded.rulesets.values() for entry in ruleset.entries
    )


def choose_ruleset(compendium, ruleset_id: str | None, model: type):
    """The ruleset of `compendium` a kind's subcommand works on: `ruleset_id` when given,
    else the only ruleset, else the only one holding documents `command_kinds(model)`
    names; otherwise a usage error that lists them."""
    if ruleset_id is not None:
        try:
            return compendium.ruleset(ruleset_id)
        except KeyError as exc:
            raise RulepressError(f"--ruleset: {exc.args[0]}") from None
    rulesets = list(compendium.rulesets.values())
    if len(rulesets) == 1:
        return rulesets[0]
    wanted = command_kinds(model)
    holding = [r for r in rulesets if any(e.document.kind in wanted for e in r.entries)]
    if len(holding) == 1:
        return holding[0]
    if not rulesets:
        raise click.UsageError(f"--ruleset: the compendium {compendium.root} has no ruleset")
    if holding:
        found = f"{len(holding)} rulesets with {model.KIND} documents"
    else:
        found = f"no ruleset with {model.KIND} documents, and {len(rulesets)} rulesets"
    names = ", ".join(ruleset.id for ruleset in holding or rulesets)
    raise click.UsageError(f"--ruleset: give one; the compendium has {found} ({names})")


def as_json_argument(function):
    """A command that takes `as_json` called with `fmt` instead."""

    @functools.wraps(function)
    def wrapper(*args, fmt: str, **kwargs):
        return function(*args, as_json=fmt == "json", **kwargs)

    return wrapper


def format_options(choices: tuple[str, ...], default: str, help: str):
    """`--format CHOICE` and its shorthand `--json` (`--format json`), one name for the output
    format in every command that prints data; the command gets `fmt`."""

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, fmt: str | None, json_flag: bool, **kwargs):
            if json_flag and fmt not in (None, "json"):
                raise click.BadOptionUsage(
                    "--json", f"--json is --format json; it cannot go with --format {fmt}"
                )
            return function(*args, fmt="json" if json_flag else fmt or default, **kwargs)

        wrapper = click.option(
            "--json", "json_flag", is_flag=True, help="The same as --format json."
        )(wrapper)
        return click.option(
            "--format",
            "fmt",
            type=click.Choice(list(choices)),
            default=None,
            help=f"{help} Default: {default}.",
        )(wrapper)

    return decorate


def load_ruleset(compendium: Path, ruleset_id: str | None, model: type):
    """The ruleset a kind's subcommand works on (`choose_ruleset`); an invalid compendium or
    an unknown id is a one-line error."""
    from rulepress.api import InvalidCompendium, load

    try:
        loaded = load(compendium)
    except InvalidCompendium as exc:
        raise RulepressError(f"{exc}; run `rulepress validate` for every finding") from None
    return choose_ruleset(loaded, ruleset_id, model)


def emit(data: dict, as_json: bool, text: str | None = None, summary: str = "") -> None:
    """Print `data` as JSON, or as `text` (default: `summary`, a sentence saying the result
    in words, over `plain_lines` of it)."""
    import json

    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    elif text is not None:
        click.echo(text)
    else:
        click.echo("\n".join([*([summary, ""] if summary else []), *plain_lines(data)]))


def plain_lines(data: dict, indent: str = "") -> list[str]:
    """A result as people read it: `label: value` lines, the values of a level aligned, a
    nested result indented under its label, lists joined with commas, yes and no for flags,
    never a Python repr."""
    shown = {
        key.replace("_", " "): value
        for key, value in data.items()
        if not (key == "ruleset" and not indent)  # the command named it
    }
    width = max(
        (len(label) for label, value in shown.items() if not isinstance(value, dict)), default=0
    )
    lines = []
    for label, value in shown.items():
        if isinstance(value, dict):
            lines += [f"{indent}{label}:", *plain_lines(value, indent + "  ")]
        else:
            lines.append(f"{indent}{label + ':':<{width + 1}} {plain_value(value)}")
    return lines


def table_lines(header: list[str], rows: list[list[str]], ragged_last: bool = False) -> list[str]:
    """A table as aligned text: the first column to the left, the others to the right, each
    as wide as its widest cell or heading, two spaces apart. With `ragged_last`, the last
    column is to the left and unpadded: an exact fraction may have thousands of digits,
    and padding every line to it would print megabytes of spaces."""
    aligned = len(header) - 1 if ragged_last else len(header)
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(aligned)]

    def line(cells: list[str]) -> str:
        first, *rest = cells[:aligned]
        padded = [
            first.ljust(widths[0]),
            *(c.rjust(w) for c, w in zip(rest, widths[1:], strict=True)),
        ]
        return "  ".join(padded + cells[aligned:]).rstrip()

    return [line(header), *(line(row) for row in rows)]


TERMINAL_WIDTH = 100
"""The columns a table prints in by default (`fitted_table_lines`): whatever the
terminal, so the output stays the same everywhere."""


def fitted_table_lines(
    header: list[str], rows: list[list[str]], width: int = TERMINAL_WIDTH
) -> list[str]:
    """A table as aligned text in at most `width` columns: the columns after the first
    in as few blocks as fit, one under the other (a blank line between), each block
    starting with the first column again. A column wider than `width` by itself gets a
    block of its own."""
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]
    blocks: list[list[int]] = []
    used = width  # no block open yet
    for column in range(1, len(header)):
        needed = 2 + widths[column]
        if used + needed > width:
            blocks.append([])
            used = widths[0]
        blocks[-1].append(column)
        used += needed
    lines: list[str] = []
    for block in blocks or [[]]:
        pick = [0, *block]
        lines += [
            *([""] if lines else []),
            *table_lines([header[i] for i in pick], [[row[i] for i in pick] for row in rows]),
        ]
    return lines


def plain_value(value: object) -> str:
    """One value of a result, as a word or a list of words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return ", ".join(plain_value(item) for item in value) or "none"
    return str(value)
