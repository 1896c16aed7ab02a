"""IRIS: traits, skills and the skill test, weapons, corruption, character points.

The game's record is `GAME` (in `game.py`), loaded when the entry point asks for it, so
that importing the game's models does not import the registry.
"""


def __getattr__(name: str):
    if name == "GAME":
        from rulepress.games.iris.game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
