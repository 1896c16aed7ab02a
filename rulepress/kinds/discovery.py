"""The installed games, read from the entry points: each checked, none registered twice.

rulepress's own four games are entry points of the `rulepress.games` group in its own
pyproject.toml, as a publisher's are in theirs: the core names no game. The only game
the core holds itself is `CORE` (rulepress.kinds.core), which is never missing.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from importlib.metadata import EntryPoint

from rulepress.environment import entry_points
from rulepress.errors import CODE_PREFIX, OWN_PREFIX, RulepressError, code_prefix
from rulepress.kinds import GAMES_GROUP, GROUP, Game, Kind
from rulepress.models.base import Document

OWN_DISTRIBUTION = "rulepress"
"""The distribution whose entry points must register games: without, its install is stale."""
GAME_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""What a game's id may be: it is also its entry point's name."""
LEGACY_ORDER = 1000
"""Where a `rulepress.kinds` entry point's kinds sit: after every game that says otherwise."""

STALE_INSTALL = (
    "rulepress's own games are not registered: its installed metadata (a rulepress.egg-info "
    "or .dist-info folder) predates the `rulepress.games` entry points, or rulepress runs "
    "from a source folder it was never installed from. Reinstall it: `pip install -e .` "
    "in its source folder (or `pip install --force-reinstall rulepress`)."
)
"""The error when rulepress's own games are missing: never run with no games."""


@functools.cache
def installed_games() -> tuple[Game, ...]:
    """The core's game, then every installed game by `order` then id; a game id registered
    twice is refused, naming both packages."""
    from rulepress.kinds.core import CORE

    points = list(entry_points(group=GAMES_GROUP))
    if not any(_normalized(_package(point)) == OWN_DISTRIBUTION for point in points):
        raise RulepressError(STALE_INSTALL)
    found = [_game(point) for point in points]
    found += [_legacy_game(point) for point in entry_points(group=GROUP)]
    # sorted before the clashes are looked for: which package is named first never
    # depends on the order of sys.path
    found.sort(key=lambda game: (game.order, game.id, game.package))
    by_id: dict[str, Game] = {CORE.id: CORE}
    for game in found:
        if game.id in by_id:
            raise RulepressError(
                f"game {game.id!r} is registered twice: by {by_id[game.id].package} "
                f"and by {game.package}"
            )
        by_id[game.id] = game
    _refuse_shared_codes(found)
    return (CORE, *found)


def _refuse_shared_codes(found: list[Game]) -> None:
    """A code prefix is one package's (its games may share it), and a code one check's."""
    prefixes: dict[str, Game] = {}
    codes: dict[str, Game] = {}
    for game in found:
        first = prefixes.setdefault(game.code_prefix, game) if game.code_prefix else game
        if _normalized(first.package) != _normalized(game.package):
            raise RulepressError(
                f"code prefix {game.code_prefix!r} is declared twice: by {first.package} "
                f"(game {first.id!r}) and by {game.package} (game {game.id!r})"
            )
        for declared in game.checks:
            if declared.code in codes:
                raise RulepressError(
                    f"check code {declared.code} is registered twice: by game "
                    f"{codes[declared.code].id!r} and by game {game.id!r} of {game.package}"
                )
            codes[declared.code] = game


def _package(point: EntryPoint) -> str:
    """The distribution an entry point is from, as it spells its name."""
    return point.dist.name if point.dist else point.name


def _normalized(name: str) -> str:
    """A distribution's name as pip compares it (`Rulepress_X` is `rulepress-x`)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _loaded(point: EntryPoint, group: str) -> object:
    try:
        return point.load()
    except Exception as error:  # a broken plugin is the user's to fix: say which
        raise RulepressError(f"{_source(point)} of group {group} failed to load: {error}") from None


def _source(point: EntryPoint) -> str:
    return f"entry point {point.name!r} ({point.value}) of {_package(point)}"


def _game(point: EntryPoint) -> Game:
    """The Game a `rulepress.games` entry point names, checked."""
    game = _loaded(point, GAMES_GROUP)
    source = _source(point)
    if not isinstance(game, Game):
        raise RulepressError(f"{source} must name a rulepress.plugin.Game, not {type(game)}")
    if not GAME_ID.fullmatch(game.id) or game.id != point.name:
        raise RulepressError(
            f"{source}: the game's id {game.id!r} must be the entry point's name, in "
            "lowercase letters, digits and `-`"
        )
    if not isinstance(game.order, int) or isinstance(game.order, bool):
        raise RulepressError(f"{source}: the game's order must be a whole number")
    kinds = _kinds(game.kinds, f"{source}: the game's kinds")
    _codes(game, _package(point), source)
    _samples_and_commands(game, source)
    return dataclasses.replace(
        game, kinds=kinds, checks=tuple(game.checks), package=_package(point)
    )


def _codes(game: Game, package: str, source: str) -> None:
    """The game's code prefix and its checks' codes, checked: each check coded with it."""
    prefix = game.code_prefix
    if not isinstance(prefix, str) or (
        (prefix or game.checks) and not CODE_PREFIX.fullmatch(prefix)
    ):
        raise RulepressError(
            f"{source}: the game's code_prefix {prefix!r} must be 2 to 5 capitals (`ORC`); "
            "a game with checks needs one"
        )
    if prefix == OWN_PREFIX and _normalized(package) != OWN_DISTRIBUTION:
        raise RulepressError(f"{source}: the code prefix {OWN_PREFIX!r} is rulepress's own")
    if not isinstance(game.checks, list | tuple):
        raise RulepressError(f"{source}: the game's checks must be a tuple of checks")
    for declared in game.checks:
        code = getattr(declared, "code", None)  # what `check` made of a function
        if not callable(getattr(declared, "reports", None)) or not isinstance(code, str):
            raise RulepressError(
                f"{source}: the game's checks must be functions decorated with "
                f"rulepress.plugin.check, not {declared!r}"
            )
        if code_prefix(code) != prefix:
            raise RulepressError(
                f"{source}: check {code} ({declared.name}) must have a code of the game's "
                f"prefix {prefix!r} and three digits ({prefix}001)"
            )


def _samples_and_commands(game: Game, source: str) -> None:
    """The game's samples folder is a path, its commands `"module:command"` names."""
    if game.samples is not None and not isinstance(game.samples, os.PathLike):
        raise RulepressError(f"{source}: the game's samples must be a folder's Path, or None")
    if not isinstance(game.commands, list | tuple) or not all(
        isinstance(command, str) and ":" in command for command in game.commands
    ):
        raise RulepressError(
            f"{source}: the game's commands must be a tuple of `module:command` names"
        )


def _legacy_game(point: EntryPoint) -> Game:
    """A `rulepress.kinds` entry point's kinds as a game of their own, named after it."""
    kinds = _kinds(_loaded(point, GROUP), _source(point))
    return Game(point.name, point.name, LEGACY_ORDER, kinds, package=_package(point))


def _kinds(declared: object, source: str) -> tuple[Kind, ...]:
    if not isinstance(declared, list | tuple) or not all(isinstance(k, Kind) for k in declared):
        raise RulepressError(f"{source} must name a list of rulepress.kinds.Kind")
    for kind in declared:
        if not (isinstance(kind.model, type) and issubclass(kind.model, Document)):
            raise RulepressError(f"{source}: {kind.model!r} is not a rulepress Document model")
        if not isinstance(getattr(kind.model, "KIND", None), str):
            raise RulepressError(f"{source}: {kind.model.__name__} has no KIND (its `kind:`)")
    return tuple(declared)
