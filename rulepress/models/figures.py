"""Figures that documents state about the same thing, so a check can compare them."""

from __future__ import annotations

from typing import NamedTuple


class StatedFigure(NamedTuple):
    """`subject` names what the figure is about in the game's words; `path` is where it stands."""

    subject: str
    value: object
    path: tuple
