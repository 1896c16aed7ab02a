"""Checks that the data's names leave the outputs' own names alone."""

from __future__ import annotations

from rulepress.compendium.model import Ruleset
from rulepress.errors import Level
from rulepress.models import RuleText
from rulepress.output_names import GENERATED_NAMES, slug
from rulepress.validators.registry import Report, check


@check("RP223", "generated-name", Level.ERROR)
def generated_name(ruleset: Ruleset):
    """A chapter's name, or a document's id, is a name the exports give a page of their
    own (`index`, `rulings`, `sources`, `about-these-rules`). A chapter's page is named
    after its name's slug, whatever its case and punctuation, and a document's id is an
    anchor: either would replace the generated page, or break the Foundry export.

    Example: `chapter: Rulings` in a rule, which would replace the site's rulings page."""
    for entry in ruleset.entries:
        document = entry.document
        if isinstance(document, RuleText) and slug(document.chapter) in GENERATED_NAMES:
            page = slug(document.chapter)
            yield Report(
                entry,
                f"chapter {document.chapter!r} would have the page '{page}', which is "
                f"{GENERATED_NAMES[page]}; choose another name",
                ("chapter",),
            )
        ids = [(("id",), document.id)]
        ids += [(("previous_ids", n), old) for n, old in enumerate(document.previous_ids)]
        for path, doc_id in ids:
            if doc_id in GENERATED_NAMES:
                yield Report(
                    entry,
                    f"id '{doc_id}' is the name of {GENERATED_NAMES[doc_id]}; choose another id",
                    path,
                )
