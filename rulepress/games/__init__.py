"""rulepress's own games, each a package that registers one `Game` through the
`rulepress.games` entry point of rulepress's pyproject.toml, as any publisher's game does.
The core never imports this package: it finds the games through their entry points.
"""

from __future__ import annotations

from pathlib import Path

from rulepress.plugin import Kind

SCRIPTS = Path(__file__).resolve().parent.parent / "exporters/site/assets/javascripts/games"
"""The bundled games' calculator scripts, one per game (they move into each game's package)."""


def bundled_kinds(*names: str) -> tuple[Kind, ...]:
    """rulepress's own Kind entries of these names, in this order (their code is still in
    rulepress.kinds.builtin, from where it moves into each game's package)."""
    from rulepress.kinds.builtin import KINDS

    by_name = {kind.name: kind for kind in KINDS}
    return tuple(by_name[name] for name in names)


def bundled_scripts(game: str) -> tuple[Path, ...]:
    """The calculator script of one of rulepress's own games (`SCRIPTS/<game>.js`)."""
    return (SCRIPTS / f"{game}.js",)
