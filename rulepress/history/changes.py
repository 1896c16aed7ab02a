"""What changed in the rules between two compendiums, in words.

Documents are matched by id (a document whose `previous_ids` name a vanished id is a
rename, not a removal and an addition); rows of a document's lists are matched by the
fields its kind names (`DiffWording.row_keys`: AP, level or id), so a changed cell reads
"Light Combat Pistol: damage at AP 12 from 13 to 14". Then the figures the rules compute
from the data (each kind's `figures`) are compared, to show what a change does in play.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from rulepress import kinds
from rulepress.compendium.model import Compendium, Ruleset
from rulepress.history.translation_changes import translation_changes
from rulepress.models import Document

MAX_COMPUTED = 12
"""The most computed figures one ruleset's changes list; the rest are counted."""


@dataclass(frozen=True)
class Change:
    """One change to the rules, as a line a reader understands."""

    ruleset: str
    kind: str
    document: str
    change: str
    """added, removed, renamed, changed or computed."""
    text: str
    before: str | None = None
    """For a computed figure, its exact chance before the change ("5/36"); else None."""
    after: str | None = None
    """For a computed figure, its exact chance after the change; else None."""


def _changes(kind: str) -> kinds.DiffWording:
    """How `diff` words the changes to a kind's documents (the default for an unknown one)."""
    registered = kinds.registry().get(kind)
    return registered.changes if registered is not None else kinds.DiffWording()


def kind_label(kind: str) -> str:
    """A kind as a reader says it: `weapon`, `skill test`, `TC source`."""
    return _changes(kind).label or kind.replace("-", " ")


def compare(old: Compendium, new: Compendium) -> list[Change]:
    """What changed to the rules from `old` to `new`, ruleset by ruleset, in words."""
    changes: list[Change] = []
    for ruleset_id in sorted(set(old.rulesets) | set(new.rulesets)):
        before, after = old.rulesets.get(ruleset_id), new.rulesets.get(ruleset_id)
        if before is None or after is None:
            label = "new" if before is None else "removed"
            changes.append(
                Change(
                    ruleset_id,
                    "ruleset",
                    ruleset_id,
                    "added" if before is None else "removed",
                    f"{label} ruleset: {ruleset_id}",
                )
            )
            continue
        changes.extend(_compare_ruleset(before, after))
        changes.extend(_compare_computed(before, after))
        changes.extend(
            Change(ruleset_id, "translation", document_id, change, text)
            for document_id, change, text in translation_changes(before, after)
        )
    return changes


def _documents(ruleset: Ruleset) -> dict[str, Document]:
    return {entry.document.id: entry.document for entry in ruleset.entries}


def _compare_ruleset(before: Ruleset, after: Ruleset) -> Iterator[Change]:
    yield from _compare_document(after.id, before.info, after.info, {})
    old, new = _documents(before), _documents(after)
    names = {doc_id: doc.display_name for doc_id, doc in {**old, **new}.items()}
    renamed = {
        previous: doc.id
        for doc in new.values()
        for previous in doc.previous_ids
        if previous in old and previous not in new
    }
    rid = after.id
    for doc_id, document in old.items():
        if doc_id not in new and doc_id not in renamed:
            yield Change(
                rid,
                document.kind,
                doc_id,
                "removed",
                f"removed {kind_label(document.kind)}: {document.display_name}",
            )
    for doc_id, document in new.items():
        previous = next((p for p, n in renamed.items() if n == doc_id), None)
        if previous is not None:
            yield Change(
                rid,
                document.kind,
                doc_id,
                "renamed",
                f"renamed {kind_label(document.kind)}: {old[previous].display_name} "
                f"({previous}) to {document.display_name} ({doc_id})",
            )
            yield from _compare_document(rid, old[previous], document, names)
        elif doc_id not in old:
            yield Change(
                rid,
                document.kind,
                doc_id,
                "added",
                f"new {kind_label(document.kind)}: {_summary(document)}",
            )
        else:
            yield from _compare_document(rid, old[doc_id], document, names)


def _summary(document: Document) -> str:
    registered = kinds.registry().get(document.kind)
    summary = registered.changes.summary if registered is not None else None
    if summary is None:
        return document.display_name
    if registered.package != "rulepress":  # a plugin's fault names the plugin
        summary = kinds.plugin_call(
            summary, f"diff summary of kind {document.kind!r}", registered.package
        )
    return summary(document)


def _compare_document(
    ruleset_id: str, old: Document, new: Document, names: dict[str, str]
) -> Iterator[Change]:
    wording = _changes(new.kind)
    keys = wording.row_keys
    before, after = _leaves(_comparable(old), keys), _leaves(_comparable(new), keys)
    name = new.display_name
    prefix = name if wording.name_alone else f"{kind_label(new.kind)} {name}"
    for path in sorted(set(before) | set(after), key=str):
        if path[:1] in TOOL_FIELDS:
            continue
        a, b = before.get(path, NOTHING), after.get(path, NOTHING)
        if a != b and not (_is_nothing(a) and _is_nothing(b)):
            yield Change(
                ruleset_id,
                new.kind,
                new.id,
                "changed",
                _changed_words(prefix, dict(wording.field_words), path, a, b, names),
            )


NOTHING: list = []
"""A value a document did not have: shown as an empty list is, "(none)"."""
TOOL_FIELDS = {("previous_ids",), ("acknowledged",)}
"""Fields that are the tool's records (old ids, findings acknowledged), not rules."""


def _is_nothing(value: object) -> bool:
    return value in (NOTHING, None, "")


def _changed_words(
    prefix: str, words: dict[str, str], path: tuple, old: object, new: object, names: dict
) -> str:
    """One changed value in words: "Light Combat Pistol: damage at AP 5 from 4 to 5";
    a value given for the first time is "now ...", one taken away "no longer ..."."""
    where = _path_words(path, words)
    subject = f"{prefix}: {where}" if where else prefix
    if _is_nothing(old):
        return f"{subject} now {_show(new, names)}"
    if _is_nothing(new):
        return f"{subject} no longer {_show(old, names)}"
    shown_old, shown_new = _show(old, names), _show(new, names)
    if shown_old == shown_new:  # a long text changed past what is shown
        return f"{subject} reworded"
    return f"{subject} from {shown_old} to {shown_new}"


def _comparable(document: Document) -> object:
    data = document.model_dump(mode="json", exclude_defaults=False)
    data.pop("id", None)
    return data


def _leaves(value: object, keys: tuple[str, ...], path: tuple = ()) -> dict[tuple, object]:
    """Flatten to {path: scalar}; list items with an identity key (of `keys`) are keyed by it."""
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            result.update(_leaves(item, keys, (*path, key)))
        return result
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            key = next((k for k in keys if all(k in v for v in value)), None)
            if key is not None and len({json.dumps(v[key]) for v in value}) == len(value):
                result = {}
                for item in value:
                    rest = {k: v for k, v in item.items() if k != key}
                    result.update(_leaves(rest, keys, (*path, f"{key}={item[key]}")))
                return result
        if all(not isinstance(v, dict | list) for v in value):
            return {path: value}
        result = {}
        for index, item in enumerate(value):
            result.update(_leaves(item, keys, (*path, index)))
        return result
    return {path: value}


def _path_words(path: tuple, named: dict[str, str]) -> str:
    """('table', 'ap=12', 'damage') -> 'damage at AP 12', with `named` {"ap": "AP",
    "table": ""} (the kind's `DiffWording.field_words`)."""
    words, where = [], []
    for part in path:
        text = str(part)
        if "=" in text:
            key, value = text.split("=", 1)
            where.append(f"{named.get(key, key)} {value}")
        elif isinstance(part, int):
            where.append(f"#{part + 1}")
        elif named.get(text, text):
            words.append(named.get(text, text).replace("_", " "))
    return " ".join(words + (["at", ", ".join(where)] if where else []))


def _show(value: object, names: dict[str, str]) -> str:
    """A value as a reader knows it: ids of documents by their names, lists joined by /."""
    if isinstance(value, list):
        return "/".join(_show(item, names) for item in value) if value else "(none)"
    text = names.get(value, str(value)) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def computed_figures(ruleset: Ruleset) -> dict[str, Fraction]:
    """Chances the rules compute from the data, exact, by a label in words: each kind's
    `figures` for the ruleset's one published document of it, in the registry's order."""
    figures: dict[str, Fraction] = {}
    for kind in kinds.registry().values():
        figured = kinds.hook(kind, "figures")
        document = ruleset.one(kind.model) if figured is not None else None
        if document is not None:
            figures.update(figured(document, ruleset))
    return figures


def percent(chance: Fraction) -> str:
    """A chance as the reader reads it, to a tenth of a percent: "30.6%"."""
    return f"{round(float(chance) * 100, 1)}%"


def _compare_computed(before: Ruleset, after: Ruleset) -> Iterator[Change]:
    old, new = computed_figures(before), computed_figures(after)
    # a move too small to show as a tenth of a percent is not one a reader sees
    differing = [
        label for label in new if label in old and percent(old[label]) != percent(new[label])
    ]
    for label in differing[:MAX_COMPUTED]:
        yield Change(
            after.id,
            "computed",
            label,
            "computed",
            f"{label}: from {percent(old[label])} to {percent(new[label])}",
            before=str(old[label]),
            after=str(new[label]),
        )
    if len(differing) > MAX_COMPUTED:
        yield Change(
            after.id,
            "computed",
            "more",
            "computed",
            f"... and {len(differing) - MAX_COMPUTED} more chances moved",
        )
