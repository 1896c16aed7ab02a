"""Twilight: 2000 4th edition: step dice, pushing, modifiers, group and opposed rolls,
odds, time.

The game's record is `GAME` (in `game.py`), loaded when the entry point asks for it, so
that importing the game's models does not import the registry.
"""


def __getattr__(name: str):
    if name == "GAME":
        from rulepress.games.t2k4e.game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
