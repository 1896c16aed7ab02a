"""The commands the installed games add to the CLI (`Game.commands`, `"module:command"`).

A game's click command of a new name is a command of its own (`rulepress NAME`); a click
Group named like one of rulepress's groups that games extend (`import`) adds its
subcommands to it. They are imported only when used: `rulepress --help` lists rulepress's
own commands and imports no game, `rulepress import --help` lists the games' too. A name
that two packages give, or that is one of rulepress's own, is a PluginError naming them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

import click

from rulepress.errors import PluginError, RulepressError, raised_text

OWN = "rulepress"
"""The distribution whose commands failing is a bug to report, not a plugin's to fix."""


@dataclass
class AddedCommands:
    """What the games add: new commands, and subcommands of rulepress's groups."""

    top: dict[str, tuple[click.Command, str]] = field(default_factory=dict)
    """Each new command by name, with the package that adds it."""
    into: dict[str, dict[str, tuple[click.Command, str]]] = field(default_factory=dict)
    """By the name of one of rulepress's groups, each subcommand a game adds to it."""


def added_commands(core: click.Group) -> AddedCommands:
    """Every installed game's commands, loaded and placed: beside or inside `core`'s."""
    from rulepress import kinds

    added = AddedCommands()
    for game in kinds.games():
        for reference in game.commands:
            command = _loaded(reference, game.package, game.id)
            _place(added, core, command, game.package)
    return added


def _loaded(reference: object, package: str, game: str) -> click.Command:
    """The click command `reference` names; a plugin's that cannot be had is a PluginError."""
    what = f"command {reference!r} of game {game!r} from plugin {package}"
    if not isinstance(reference, str) or ":" not in reference:
        raise PluginError(f"{what}: a game's commands are `module:command` names")
    module, _, attribute = reference.partition(":")
    try:
        command = getattr(importlib.import_module(module), attribute)
    except Exception as exc:
        if package == OWN:
            raise  # rulepress's own command failing to import is a bug to report
        raise PluginError(f"{what} cannot be imported: {raised_text(exc)}") from None
    if not isinstance(command, click.Command):
        raise PluginError(f"{what} is not a click command")
    return command


def _place(added: AddedCommands, core: click.Group, command: click.Command, package: str) -> None:
    """`command` as a new command, or its subcommands into rulepress's group of its name."""
    name = command.name or ""
    own = core.commands.get(name)
    if own is None:
        if name in added.top:
            raise _clash(f"command {name!r}", package, added.top[name][1])
        added.top[name] = (command, package)
        return
    if not (isinstance(own, GameGroup) and isinstance(command, click.Group)):
        raise PluginError(
            f"{package} adds a command {name!r}, which is rulepress's own: only a click "
            "Group of one of rulepress's extensible groups (import) adds to it"
        )
    into = added.into.setdefault(name, {})
    for sub_name, sub in command.commands.items():
        if sub_name in own.commands:
            raise _clash(f"command {name} {sub_name!r}", package, OWN)
        if sub_name in into:
            raise _clash(f"command {name} {sub_name!r}", package, into[sub_name][1])
        into[sub_name] = (sub, package)


def _clash(what: str, package: str, first: str) -> PluginError:
    return PluginError(f"{package} adds a {what}, which {first} adds too: rename one")


def invoke_naming_the_plugin(group: click.Group, ctx: click.Context, package_of) -> object:
    """Run `group`'s subcommand; what a plugin's command raises (other than click's own and
    rulepress's errors) is a PluginError naming the plugin (exit 2), not an internal error.
    Ctrl-C and sys.exit are no Exception, so they still stop the command."""
    try:
        return click.Group.invoke(group, ctx)
    except (click.ClickException, click.exceptions.Exit, click.Abort, RulepressError):
        raise
    except Exception as exc:
        name = ctx.invoked_subcommand or ""
        package = package_of(name)
        if package == OWN:
            raise  # rulepress's own command failing is a bug to report
        raise PluginError(
            f"{_path(ctx)} {name} (from {package}) failed: {raised_text(exc)}"
        ) from exc


def _path(ctx: click.Context) -> str:
    """The command's words as typed after `rulepress` (whatever the program's name)."""
    words = []
    while ctx.parent is not None:
        words.insert(0, ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["rulepress", *words])


class GameGroup(click.Group):
    """One of rulepress's groups that games extend (`import`): its own subcommands, and
    those the games' Groups of its name add, loaded only when the group is used."""

    def _added(self, ctx: click.Context) -> dict[str, tuple[click.Command, str]]:
        from rulepress.cli import cli  # the whole command line: what a game's names clash with

        return added_commands(cli).into.get(self.name or "", {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Its own subcommands and the games', by name."""
        return sorted({*self.commands, *self._added(ctx)})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """Its own subcommand `name`, else a game's, imported only now."""
        if name in self.commands:
            return self.commands[name]
        return self._added(ctx).get(name, (None, ""))[0]

    def invoke(self, ctx: click.Context) -> object:
        """Run the subcommand; a plugin's that fails is an error naming the plugin."""
        return invoke_naming_the_plugin(
            self, ctx, lambda name: self._added(ctx).get(name, (None, OWN))[1]
        )


class RulepressGroup(click.Group):
    """The `rulepress` command: its own commands, listed by `--help` without importing any
    game, and the games' new commands, found by name when one is asked for."""

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """rulepress's own command `name`, else a game's, imported only now."""
        if name in self.commands:
            return self.commands[name]
        return added_commands(self).top.get(name, (None, ""))[0]

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; a plugin's that fails is an error naming the plugin."""

        def package_of(name: str) -> str:
            if name in self.commands:
                return OWN
            return added_commands(self).top.get(name, (None, OWN))[1]

        return invoke_naming_the_plugin(self, ctx, package_of)
