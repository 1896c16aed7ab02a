"""Checks that ids are unique and that every reference lands on a real document."""

from __future__ import annotations

from rulepress import kinds
from rulepress.compendium.model import Ruleset
from rulepress.errors import Level
from rulepress.models import iter_references
from rulepress.validators.registry import Report, check


def lookup_index(document) -> tuple:
    """What a reference check sees of the document a reference names."""
    return (document.id, document.kind, document.is_draft)


@check("RP201", "duplicate-id", Level.ERROR, index=lambda d: d.id)
def duplicate_id(ruleset: Ruleset):
    """Two documents of one ruleset share an `id`. Ids name documents in references and
    exports, so each must be unique across the ruleset's files, whatever their kind.

    Example: `skills/stealth.yaml` and `skills/stealth-copy.yaml` both say `id: stealth`."""
    first: dict[str, str] = {}
    for entry in ruleset.entries:
        doc_id = entry.document.id
        if doc_id in first:
            yield Report(entry, f"id '{doc_id}' is already used by {first[doc_id]}", ("id",))
        else:
            first[doc_id] = str(entry.file)


@check("RP202", "slug-reused", Level.ERROR, index=lambda d: (d.id, tuple(d.previous_ids)))
def slug_reused(ruleset: Ruleset):
    """A document's `id` (or one of its `previous_ids`) is another document's previous id.
    An old id keeps pointing at the renamed document in exports, so it cannot be reused.

    Example: `lmg` renamed to `light-machine-gun` lists `previous_ids: [lmg]`, and a new
    weapon then takes `id: lmg`."""
    owner: dict[str, str] = {}
    for entry in ruleset.entries:
        for old in entry.document.previous_ids:
            owner.setdefault(old, entry.document.id)
    for entry in ruleset.entries:
        doc = entry.document
        if doc.id in owner and owner[doc.id] != doc.id:
            yield Report(entry, f"id '{doc.id}' is a previous id of '{owner[doc.id]}'", ("id",))
        for index, old in enumerate(doc.previous_ids):
            if owner.get(old) != doc.id:
                yield Report(
                    entry,
                    f"previous id '{old}' is also claimed by '{owner[old]}'",
                    ("previous_ids", index),
                )


@check("RP203", "dangling-reference", Level.ERROR, reads="document", index=lookup_index)
def dangling_reference(ruleset: Ruleset):
    """A field that names another document (a skill's traits, a weapon's section, a
    ladder's steps) names no document of that kind in the ruleset.

    Example: `traits: [acuity, resolv]` where no trait has the id `resolv`."""
    for entry in ruleset.entries:
        for path, kind, target in iter_references(entry.document):
            found = ruleset.get(target)
            if found is None:
                yield Report(entry, f"{_label(kind)} '{target}' does not exist", path)
            elif kind != "*" and found.kind != kind:
                yield Report(entry, f"'{target}' is a {found.kind}, not a {kind}", path)


@check("RP204", "draft-referenced", Level.ERROR, reads="document", index=lookup_index)
def draft_referenced(ruleset: Ruleset):
    """A published document refers to a draft. Exports leave drafts out, so the
    reference would point at nothing.

    Example: a published weapon whose `section` is a section marked `status: draft`."""
    for entry in ruleset.entries:
        if entry.document.is_draft:
            continue
        for path, _, target in iter_references(entry.document):
            found = ruleset.get(target)
            if found is not None and found.is_draft:
                yield Report(entry, f"published document refers to draft '{target}'", path)


@check("RP205", "example-reference", Level.WARNING, reads="document", index=lookup_index)
def example_reference(ruleset: Ruleset):
    """A worked example names a document (`given: {skill: ...}`) the ruleset does not
    have. The example may illustrate a rule with something that is not in the lists.

    Example: the skill test example uses "Mech Lore", which no skill list contains."""
    for entry in ruleset.entries:
        for index, example in enumerate(getattr(entry.document, "examples", ())):
            for key, value in example.given.items():
                if (
                    key in kinds.registry()
                    and isinstance(value, str)
                    and ruleset.get(value) is None
                ):
                    yield Report(
                        entry,
                        f"example '{example.id}' uses {key} '{value}', "
                        f"which the ruleset does not have",
                        ("examples", index, "given", key),
                    )


def _label(kind: str) -> str:
    return "document" if kind == "*" else kind
