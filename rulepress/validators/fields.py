"""The check that a field most documents of a kind carry is not missing on a few (RP227)."""

from __future__ import annotations

import functools
import typing
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from pydantic import BaseModel

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level, data_path_text
from rulepress.models import Document
from rulepress.validators.registry import Report, check

FEWEST_SIBLINGS = 3
"""A field is compared only among at least this many siblings."""
MOST_CARRY = Fraction(2, 3)
"""The share of siblings that must carry a field for its absence to be reported."""
NOT_COMPARED = frozenset(Document.model_fields) | {"examples", "boundaries"}
"""The fields every document may or may not have whatever its siblings do: its status,
previous ids, rulings and acknowledgements, worked examples and boundaries as data."""


@dataclass(frozen=True)
class _Place:
    """One sibling: a model (a document, a part of one, a row of a list) and its path."""

    entry: Entry
    path: tuple
    model: BaseModel


def _optional_fields(model: BaseModel) -> tuple[str, ...]:
    """The figures of `model`'s class a document may leave out (those with a default of
    nothing): a field that must be given, even as null, says something when it is null,
    and words (a name, a note, a heading's group, a reference) are not figures."""
    return _optional_fields_of(type(model))


@functools.cache
def _optional_fields_of(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(
        name
        for name, info in model.model_fields.items()
        if name not in NOT_COMPARED
        and not info.is_required()
        and _empty(info.get_default(call_default_factory=True))
        and not _words(info.annotation)
    )


def _words(annotation: object) -> bool:
    """Whether a field of this type holds words (str of any kind, not one of a Literal's
    values), or lists or optional ones of them."""
    if annotation is str:
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return False
    if origin is typing.Annotated:
        return _words(typing.get_args(annotation)[0])
    arguments = [a for a in typing.get_args(annotation) if a is not type(None)]
    return bool(arguments) and origin is not dict and all(_words(a) for a in arguments)


def _empty(value: object) -> bool:
    """No figure: nothing, an empty list, mapping or text, or a flag left off (False)."""
    return value is None or value is False or (isinstance(value, (list, dict, str)) and not value)


def _siblings(ruleset: Ruleset) -> dict[tuple, list[_Place]]:
    """Every set of siblings: the published documents of each kind; the parts at one
    field of those documents (each threshold's `on_success`); the rows of one list of
    one document (a table's rows)."""
    groups: dict[tuple, list[_Place]] = defaultdict(list)
    for entry in ruleset.entries:
        if not entry.document.is_draft:
            _walk(_Place(entry, (), entry.document), (entry.document.kind,), groups)
    return groups


def _walk(place: _Place, key: tuple, groups: dict[tuple, list[_Place]]) -> None:
    groups[key].append(place)
    for name in type(place.model).model_fields:
        if name in NOT_COMPARED:
            continue
        value = getattr(place.model, name)
        path = (*place.path, name)
        if isinstance(value, BaseModel):
            _walk(_Place(place.entry, path, value), (*key, name), groups)
        elif isinstance(value, list):
            rows = (id(place.entry), *path)  # the rows of one list are siblings
            for index, item in enumerate(value):
                if isinstance(item, BaseModel):
                    _walk(_Place(place.entry, (*path, index), item), rows, groups)


def _carries(place: _Place, field: str) -> bool:
    return not _empty(getattr(place.model, field, None))


def _missing(places: list[_Place]) -> Iterator[tuple[_Place, str, int]]:
    """Each place lacking a field most of its siblings carry, with the number that do."""
    if len(places) < FEWEST_SIBLINGS or len({type(p.model) for p in places}) > 1:
        return
    fields = _optional_fields(places[0].model)
    carried = {field: [p for p in places if _carries(p, field)] for field in fields}
    for field, carriers in carried.items():
        if Fraction(len(carriers), len(places)) < MOST_CARRY or len(carriers) == len(places):
            continue
        beside = {other for other in fields if any(_carries(c, other) for c in carriers)}
        for place in places:
            if not _carries(place, field) and not _alternative(place, fields, beside):
                yield place, field, len(carriers)


def _alternative(place: _Place, fields: list[str], beside: set[str]) -> bool:
    """Whether `place` carries, instead of the field, another that no sibling carrying
    the field has (`beside` holds theirs): a weapon's Attacks where the others print a
    Magazine. The two are alternatives, and their names, if two for one figure, are
    another check's."""
    return any(_carries(place, other) for other in fields if other not in beside)


def _fields_index(document) -> object:
    """What usual-field-missing reads of a document: its kind, id, status and name, and
    the shape of its data as `_walk` meets it: each part's place and type, and which of
    its optional figures it carries (not their values: a dearer cost is no field missing)."""
    groups: dict[tuple, list[_Place]] = defaultdict(list)
    _walk(_Place(None, (), document), (), groups)  # type: ignore[arg-type]  # (no report)
    shape = [
        (place.path, type(place.model), [_carries(place, f) for f in _optional_fields(place.model)])
        for places in groups.values()
        for place in places
    ]
    return (document.kind, document.id, document.is_draft, document.display_name, shape)


@check("RP227", "usual-field-missing", Level.WARNING, index=_fields_index)
def usual_field_missing(ruleset: Ruleset):
    """A field most of its siblings carry is missing: siblings are the published documents
    of one kind, the parts at one field of those documents (each threshold's
    `on_success`), and the rows of one list of one document (a table's rows). A field is
    reported when at least 3 siblings are compared and at least 2/3 of them carry it
    (a field that must be given, even as null, is never missing). A sibling that carries
    instead another field none of the carriers has is not reported: the two are
    alternatives (a Magazine or an Attacks figure).

    Example: three threat thresholds of which two state when their penalties end
    (`penalties_end`) and the third does not; or a table of six rows, five of which give
    a `corruption` figure."""
    for places in _siblings(ruleset).values():
        for place, field, count in _missing(places):
            what = "row" if place.path and isinstance(place.path[-1], int) else "part"
            where = f"{what} {data_path_text(place.path)}" if place.path else "document"
            yield Report(
                place.entry,
                f"{where} of '{place.entry.document.display_name}' has no '{field}', which "
                f"{count} of its {len(places) - 1} siblings carry (a figure its neighbours "
                "have, missing?)",
                (*place.path, field),
            )
