"""rulepress's own games, each a package that registers one `Game` through the
`rulepress.games` entry point of rulepress's pyproject.toml, as any publisher's game does.
The core never imports this package: it finds the games through their entry points.
"""

from __future__ import annotations

from rulepress.plugin import Kind


def bundled_kinds(*names: str) -> tuple[Kind, ...]:
    """rulepress's own Kind entries of these names, in this order (their code is still in
    rulepress.kinds.builtin, from where it moves into each game's package)."""
    from rulepress.kinds.builtin import KINDS

    by_name = {kind.name: kind for kind in KINDS}
    return tuple(by_name[name] for name in names)
