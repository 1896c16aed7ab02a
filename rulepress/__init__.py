"""rulepress: tabletop rules as validated data, published to Foundry VTT, Markdown and the web.

The public API::

    from rulepress import load
    compendium = load("compendium")          # raises InvalidCompendium on errors
    iris = compendium.ruleset("iris")
    pistol = iris.get("light-combat-pistol")
    pistol.row_at(12).damage
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["InvalidCompendium", "__version__", "load", "validate"]


def __getattr__(name: str):
    # Keep `import rulepress` cheap: pydantic and ruamel load on first use.
    if name in ("load", "validate", "InvalidCompendium"):
        from rulepress import api

        return getattr(api, name)
    raise AttributeError(name)
