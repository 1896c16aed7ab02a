"""Coolness Under Fire for Twilight: 2000 v2.2: the CUF rating, threat thresholds and
conditions.

The game's record is `GAME` (in `game.py`), loaded when the entry point asks for it, so
that importing the game's models does not import the registry.
"""


def __getattr__(name: str):
    if name == "GAME":
        from rulepress.games.cuf.game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
