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
    """`load`, `validate` and `InvalidCompendium` from `rulepress.api`, imported on first
    use, so `import rulepress` stays cheap (pydantic and ruamel load only when needed)."""
    if name in ("load", "validate", "InvalidCompendium"):
        from rulepress import api

        return getattr(api, name)
    raise AttributeError(name)
