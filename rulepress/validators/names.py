"""Checks that the data's names leave the outputs' own names alone."""

from __future__ import annotations

from rulepress import kinds
from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.models import RuleText
from rulepress.outline import Anchor, anchor_clashes
from rulepress.output_names import GENERATED_NAMES, slug
from rulepress.validators.registry import Report, check


@check("RP223", "generated-name", Level.ERROR, reads="document")
def generated_name(ruleset: Ruleset):
    """A chapter's name, or a document's id, is a name the exports give a page of their
    own (`index`, `rulings`, `errata`, `sources`, `calculator`, `about-these-rules`). A
    chapter's page is named after its name's slug, whatever its case and punctuation, and
    a document's id is an anchor: either would replace the generated page, or break the
    Foundry export.

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


@check("RP226", "anchor-clash", Level.WARNING)
def anchor_clash(ruleset: Ruleset):
    """Two places of the guide would have one anchor: a chapter's title, a section's id
    and a document's own anchor (a weapon's id or previous id) slug to the same name. The
    Markdown guide is one page, so a link would land on the first of them; the chapter or
    section that comes later is renamed (`-2`), and its site page and Foundry id with it.
    A section whose id is its chapter's shares the chapter's anchor only when it begins the
    chapter. The finding is at the later name, or at the one the data holds when only one
    does (a kind names its own chapter, `Weapons`).

    Example: a rule `id: combat` in the chapter `Rules`, and a chapter titled `Combat`
    after it, which would become `combat-2`."""
    info = Entry(ruleset.info, ruleset.info_source)
    for clash in anchor_clashes(ruleset):
        later, earlier = clash.later, clash.earlier
        if _document_id(later) and _document_id(earlier):
            continue  # two documents' ids: RP201 and RP202 report those
        at = later if later.held or not earlier.held else earlier
        other = earlier if at is later else later
        if clash.given != later.name:
            outcome = f"{later.what} would become '{clash.given}'"
        else:
            outcome = f"links to {later.what} would land on {earlier.what}"
        yield Report(
            _entry(ruleset, at) or info,
            f"{at.what} and {_place(other)} would both have the anchor '{later.name}' in "
            f"the guide: {outcome}; choose another name",
            at.path,
        )


def _document_id(anchor: Anchor) -> bool:
    """The anchor is a document's id or previous id, which are unique in a ruleset."""
    return anchor.document is not None and anchor.path[:1] in (("id",), ("previous_ids",))


def _entry(ruleset: Ruleset, anchor: Anchor) -> Entry | None:
    """The entry of the document that holds an anchor's name; None: `ruleset.yaml`."""
    return ruleset.entry(anchor.document.id) if anchor.document is not None else None


def _place(anchor: Anchor) -> str:
    """What has an anchor, and what names it when that is not the thing itself."""
    if anchor.document is not None and anchor.path == ("chapter",):
        return f"{anchor.what} (the chapter of {anchor.document.kind} '{anchor.document.id}')"
    return (
        f"{anchor.what} (in ruleset.yaml's chapters)"
        if anchor.path[:1] == ("chapters",)
        else anchor.what
    )
