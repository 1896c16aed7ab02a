"""`roll`, `odds` and `new`: groups of the subcommands the installed kinds name."""

from __future__ import annotations

from pathlib import Path

import click

from rulepress.commands.options import DEFAULT_COMPENDIUM
from rulepress.errors import PluginError, RulepressError, raised_text


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
        every = self._kind_commands()  # once, not once per listed name
        commands = [(name, every[name][0]) for name in self.list_commands(ctx)]
        width = formatter.width - 6 - max((len(name) for name, _ in commands), default=0)
        with formatter.section("Commands"):
            if commands:
                formatter.write_dl([(n, c.get_short_help_str(width)) for n, c in commands])
            else:
                formatter.write_text("none for the kinds of ./compendium")


@click.group("roll", cls=KindCommands, hook="roll")
def roll_group() -> None:
    """Resolve a test: give the faces rolled, or a --seed to roll them.

    Lists the games of ./compendium (every registered one when there is no compendium
    there to read); each runs with its own --compendium."""


@click.group("odds", cls=KindCommands, hook="odds")
def odds_group() -> None:
    """Exact odds computed from the rules.

    Lists the games of ./compendium (every registered one when there is no compendium
    there to read); each runs with its own --compendium."""


@click.group("new", cls=KindCommands, hook="new")
def new_group() -> None:
    """Write a valid skeleton document in the right folder.

    Lists the kinds ./compendium can take (every registered one when there is no
    compendium there to read); each runs with its own --compendium."""
