"""Checks that the data's names leave the outputs' own names alone."""

from __future__ import annotations

from rulepress import kinds
from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.models import RuleText
from rulepress.output_names import GENERATED_NAMES, slug
from rulepress.validators.registry import Report, check


@check("RP223", "generated-name", Level.ERROR, reads="document")
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


@check("RP224", "chapter-plan", Level.ERROR, index=lambda document: None)
def chapter_plan(ruleset: Ruleset):
    """A chapter of `ruleset.yaml`'s `chapters` names a kind that is not installed, or
    one that has no section in the guide; places a kind in two chapters; repeats a
    chapter's title; or has a title that is the name of a page the exports generate.

    Example: `kinds: [weapon]` (weapons are shown in their `weapon-section`), or
    `title: Rulings`, which would replace the site's rulings page."""
    info = Entry(ruleset.info, ruleset.info_source)
    placed: dict[str, int] = {}
    titles: set[str] = set()
    for number, plan in enumerate(ruleset.info.chapters):
        path = ("chapters", number)
        page = slug(plan.title)
        if page in GENERATED_NAMES:
            yield Report(
                info,
                f"chapter {plan.title!r} would have the page '{page}', which is "
                f"{GENERATED_NAMES[page]}; choose another name",
                (*path, "title"),
            )
        if plan.title in titles:
            yield Report(info, f"chapter {plan.title!r} is listed twice", (*path, "title"))
        titles.add(plan.title)
        for index, name in enumerate(plan.kinds):
            kind = kinds.registry().get(name)
            if kind is None or kind.guide is None:
                known = sorted(k.name for k in kinds.registry().values() if k.guide)
                why = "is not a kind" if kind is None else "has no section of its own"
                yield Report(
                    info,
                    f"kind {name!r} {why}; kinds a chapter can hold: {', '.join(known)}",
                    (*path, "kinds", index),
                )
            elif name in placed:
                yield Report(
                    info,
                    f"kind {name!r} is already in chapter "
                    f"{ruleset.info.chapters[placed[name]].title!r}",
                    (*path, "kinds", index),
                )
            placed.setdefault(name, number)
