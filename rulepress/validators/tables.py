"""The core's check on a document's status: a draft is said so (RP211)."""

from __future__ import annotations

from rulepress.compendium.model import Ruleset
from rulepress.errors import Level
from rulepress.validators.registry import Report, check


@check("RP211", "draft", Level.WARNING, reads="document")
def draft(ruleset: Ruleset):
    """A document is a draft: the source printed a placeholder with no figures. Drafts
    are kept so the data stays faithful, and left out of every export.

    Example: "Weapon Profile - Tactical Railgun (Tier 1)" with an empty table."""
    for entry in ruleset.entries:
        if entry.document.is_draft:
            yield Report(
                entry,
                f"{entry.document.kind} '{entry.document.display_name}' is a "
                f"draft (placeholder in the source); exports leave it out",
                ("status",),
            )
