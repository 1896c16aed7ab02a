"""What every compendium document shares: a slug id, a status, rulings, references.

Models are strict (YAML `"3"` is not the number 3, `yes` is not a string), forbid unknown
fields, and are frozen: the validated Compendium is read by exporters, never changed.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

SLUG_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
# Text may hold tabs and line breaks, never other control characters (NUL, ESC...): they
# would reach every web page, journal and terminal that shows the text.
PRINTABLE = r"^[^\x00-\x08\x0b-\x1f\x7f]*$"
Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=80)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=20_000, pattern=PRINTABLE)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=PRINTABLE)]
NonNegative = Annotated[int, Field(ge=0, le=1_000_000)]
Status = Literal["published", "draft"]


@dataclass(frozen=True)
class Ref:
    """Marks a field as the id of another document of `kind` in the same ruleset."""

    kind: str


def ref(kind: str) -> Any:
    return Annotated[Slug, Ref(kind)]


class Model(BaseModel):
    """Base of every model: strict types, no unknown fields, immutable."""

    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, allow_inf_nan=False, use_attribute_docstrings=True
    )


class Ruling(Model):
    """A decision taken where a source is ambiguous: what we chose, the alternative, why."""

    id: Slug
    question: Text
    """What the source leaves open."""
    ruling: Text
    """What rulepress does."""
    alternative: Text
    """The other reasonable reading."""
    why: Text
    """Why this reading was chosen."""


class Document(Model):
    """A top-level compendium document: one YAML file."""

    KIND: ClassVar[str]
    kind: str
    id: Slug
    """Stable identifier; renaming the display name never changes it."""
    status: Status = "published"
    """`draft` marks a placeholder the source left empty; exports leave drafts out."""
    previous_ids: list[Slug] = []
    """Ids this document had before a rename, so exported ids stay stable."""
    rulings: list[Ruling] = []
    """Rulings on this document's ambiguities."""

    @property
    def display_name(self) -> str:
        """A readable name for messages and pages."""
        for attribute in ("name", "title"):
            value = getattr(self, attribute, None)
            if isinstance(value, str) and value:
                return value
        return self.id

    @property
    def is_draft(self) -> bool:
        return self.status == "draft"


def iter_references(model: BaseModel, path: tuple = ()) -> Iterator[tuple[tuple, str, str]]:
    """Yield (data path, target kind, target id) for every `ref(...)` field inside `model`."""
    for name, target, annotation in _reference_fields(type(model)):
        yield from _walk_refs(getattr(model, name), (*path, name), target, annotation)


@functools.cache
def _reference_fields(cls: type[BaseModel]) -> tuple[tuple[str, str | None, Any], ...]:
    """(name, target kind of a direct `ref`, annotation) of each field of `cls` that can
    hold a reference; the rest (an AP table's 30 rows of numbers) is never walked."""
    fields = []
    for name, info in cls.model_fields.items():
        target = next((m.kind for m in info.metadata if isinstance(m, Ref)), None)
        if target or _may_hold_refs(info.annotation):
            fields.append((name, target, info.annotation))
    return tuple(fields)


def _may_hold_refs(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return bool(_reference_fields(annotation))
    if any(isinstance(meta, Ref) for meta in getattr(annotation, "__metadata__", ())):
        return True
    return any(_may_hold_refs(arg) for arg in typing.get_args(annotation))


def _walk_refs(value: Any, path: tuple, target: str | None, annotation: Any):
    if value is None:
        return
    if isinstance(value, BaseModel):
        yield from iter_references(value, path)
    elif isinstance(value, list | tuple):
        inner = _list_item_ref(annotation) if target is None else target
        for index, item in enumerate(value):
            yield from _walk_refs(item, (*path, index), inner, None)
    elif isinstance(value, str) and target:
        yield path, target, value


def _list_item_ref(annotation: Any) -> str | None:
    """`list[ref("skill")]` keeps its Ref inside the item type's metadata."""
    for arg in getattr(annotation, "__args__", ()) or ():
        for meta in getattr(arg, "__metadata__", ()) or ():
            if isinstance(meta, Ref):
                return meta.kind
    return None
