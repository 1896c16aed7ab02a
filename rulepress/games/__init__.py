"""rulepress's own games, each a package that registers one `Game` through the
`rulepress.games` entry point of rulepress's pyproject.toml, as any publisher's game does.
The core never imports this package: it finds the games through their entry points.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulepress.plugin import Kind

HERE = Path(__file__).resolve().parent


def bundled_kinds(game: str, *names: str) -> tuple[Kind, ...]:
    """rulepress's own Kind entries of these names, in this order, with the templates of
    the game's package (`<game>/templates`). Their entries are still in
    rulepress.kinds.builtin, from where they move into each game's package."""
    from rulepress.kinds.builtin import KINDS

    by_name = {kind.name: kind for kind in KINDS}
    templates = HERE / game / "templates"
    return tuple(dataclasses.replace(by_name[name], templates=templates) for name in names)


def bundled_scripts(game: str) -> tuple[Path, ...]:
    """The calculator script of one of rulepress's own games (`<game>/calculator.js`)."""
    return (HERE / game / "calculator.js",)
