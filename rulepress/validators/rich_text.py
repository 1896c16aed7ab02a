"""What a RichText field writes outside its Markdown subset (rulepress.models.rich_text),
which every output shows as typed: said once per construct and text, so an author who
meant a heading or a web link knows it will not be one. A `doc:` link to no document is
RP203 (the references check follows RichText links)."""

from __future__ import annotations

from rulepress.compendium.model import Ruleset
from rulepress.errors import Level
from rulepress.models import iter_rich_texts
from rulepress.models.rich_text import LINK_TITLE, outside_subset
from rulepress.validators.registry import Report, check


@check("RP233", "rich-text-literal", Level.WARNING, reads="document")
def rich_text_literal(ruleset: Ruleset):
    """A rich text (a rule's `text`, a plugin's RichText field) writes Markdown or HTML
    that its subset does not have: raw HTML, an image, a heading, a quote, code, a table,
    an entity, a link anywhere but `doc:<document id>` (`https:`, `javascript:`), or a
    Foundry enricher (`@UUID[...]`, `[[/r 1d6]]`). Every output shows it as the
    characters typed; a link's title is left out. The subset is paragraphs, lists,
    `*emphasis*`, `**strong**` and `[label](doc:<id>)`.

    Example: `text: "See <b>Combat</b> and [the wiki](https://example.org)."`"""
    for entry in ruleset.entries:
        for path, text in iter_rich_texts(entry.document):
            for what, line in outside_subset(text).items():
                shown = "every output leaves it out" if what == LINK_TITLE else "it shows as typed"
                yield Report(
                    entry,
                    f"{what} on line {line} of the text is not in rich text's Markdown "
                    f"(paragraphs, lists, emphasis, doc: links): {shown}",
                    path,
                )
