"""What every compendium document shares: a slug id, a status, rulings, references.

Models are strict (YAML `"3"` is not the number 3, `yes` is not a string), forbid unknown
fields, and are frozen: the validated Compendium is read by exporters, never changed.
"""

from __future__ import annotations

import functools
import re
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
)
from pydantic_core import PydanticCustomError

from rulepress.models import rich_text

SLUG_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
# Characters no text may hold, however the YAML spelled them (raw, or escaped as
# "\u009b"): the C0 controls but tab and line feed, DEL and the C1 controls. They would
# reach every terminal, web page and journal that shows the text (ESC and CSI start
# terminal escapes). Written as a regular expression class that Python, pydantic's Rust
# engine and the JSON Schemas' ECMAScript all read alike.
CONTROLS = r"\x00-\x08\x0b-\x1f\x7f-\x9f"
# The line and paragraph separators besides line feed: renderers disagree on whether they
# end a line (JavaScript ends a `//` comment at U+2028), so text breaks lines with \n only.
SEPARATORS = r"\u2028\u2029"
# The bidirectional embeddings, overrides and isolates: they reorder how the text around
# them is shown ("\u202egnp.exe" reads "exe.png"), so a name could show other than what
# it says. Right-to-left scripts need none of them; the implicit marks (U+200E/F) stay.
BIDI_CONTROLS = r"\u202a-\u202e\u2066-\u2069"
# A name, title, heading or column name is one line: no line feed, and nothing else that
# ends a line (CR, VT, FF and NEL are controls already).
PRINTABLE = rf"^[^{CONTROLS}{SEPARATORS}{BIDI_CONTROLS}]*$"
ONE_LINE = rf"^[^\n{CONTROLS}{SEPARATORS}{BIDI_CONTROLS}]*$"
_REFUSED_IN_TEXT = re.compile(rf"[{CONTROLS}{SEPARATORS}{BIDI_CONTROLS}\ud800-\udfff]")
_REFUSED_IN_NAME = re.compile(rf"[\n{CONTROLS}{SEPARATORS}{BIDI_CONTROLS}\ud800-\udfff]")
_LINE_ENDS = "\n\r\v\f\x85\u2028\u2029"


def _refuse_characters(value: object, refused: re.Pattern, one_line: bool) -> object:
    """Refuse a string holding a character of `refused`, naming it: the parsed value is
    checked, so an escape in the YAML is refused as the raw character is. A lone
    surrogate ("\ud800" read by the pure-Python parser) is named too, where pydantic
    would only say it is not valid Unicode."""
    found = refused.search(value) if isinstance(value, str) else None
    if found is None:
        return value
    char = found.group()
    code = f"U+{ord(char):04X}"
    if one_line and char in _LINE_ENDS:
        raise PydanticCustomError(
            "line_break", "a name is one line: it cannot hold a line break ({code})", {"code": code}
        )
    what = (
        "a lone surrogate"
        if "\ud800" <= char <= "\udfff"
        else "a line or paragraph separator: break lines with a line feed"
        if char in "\u2028\u2029"
        else "a bidirectional control: it reorders how the text around it is shown"
        if "\u202a" <= char <= "\u202e" or "\u2066" <= char <= "\u2069"
        else "a control character"
    )
    raise PydanticCustomError(
        "control_character",
        "character {code} ({what}) is not allowed in text, however it is written",
        {"code": code, "what": what},
    )


def _text(value: object) -> object:
    return _refuse_characters(value, _REFUSED_IN_TEXT, one_line=False)


def _name(value: object) -> object:
    return _refuse_characters(value, _REFUSED_IN_NAME, one_line=True)


Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=80)]
# The pattern stays for the JSON Schemas (editors flag the character as it is typed); the
# validator before it is what refuses, with a message that names the character.
Text = Annotated[
    str,
    StringConstraints(min_length=1, max_length=20_000, pattern=PRINTABLE),
    BeforeValidator(_text),
]
"""Prose, possibly of several lines, shown as printed (not Markdown: outputs escape it)."""
Name = Annotated[
    str,
    StringConstraints(min_length=1, max_length=200, pattern=ONE_LINE),
    BeforeValidator(_name),
]
"""A single-line name, title, heading or label: one line, no control characters."""
NonNegative = Annotated[int, Field(ge=0, le=1_000_000)]
Status = Literal["published", "draft"]


@dataclass(frozen=True)
class Ref:
    """Marks a field as the id of another document of `kind` in the same ruleset."""

    kind: str

    def references(self, path: tuple, value: str) -> Iterator[tuple[tuple, str, str]]:
        """The field's value is the reference."""
        yield path, self.kind, value


def ref(kind: str) -> Any:
    """A field naming another document of `kind`: the references check follows it."""
    return Annotated[Slug, Ref(kind)]


def _rich_text(value: str) -> str:
    """Refuse a text the subset's parser would cut short (lists nested too deep)."""
    try:
        rich_text.parse(value)
    except rich_text.TooDeep as too_deep:
        raise PydanticCustomError("rich_text", str(too_deep)) from None
    return value


@dataclass(frozen=True)
class RichTextLinks(Ref):
    """Marks a RichText field: its `doc:` links are references to any document."""

    kind: str = "*"

    def references(self, path: tuple, value: str) -> Iterator[tuple[tuple, str, str]]:
        """One reference per `doc:` link of the text, at the field's path."""
        yield from ((path, self.kind, target) for target in rich_text.doc_links(value))


RichText = Annotated[Text, RichTextLinks(), AfterValidator(_rich_text)]
"""Prose in a small Markdown subset (rulepress.models.rich_text): paragraphs, lists,
emphasis and `[label](doc:<id>)` links to documents; anything else shows as typed."""


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

    @property
    def heading(self) -> str:
        """The ruling's title in words: its question, cut to its first clause and at a
        word when long, so a reader (and a search result) sees what it is about, not
        its slug. The id stays the anchor."""
        return shorten_question(self.question)


HEADING_LENGTH = 90
"""The most characters a ruling's heading keeps of its question (then an ellipsis)."""


def shorten_question(question: str, limit: int = HEADING_LENGTH) -> str:
    """`question`'s first clause (up to a `;`, a `: ` or the end of its first sentence,
    not an abbreviation's full stop), or the whole question if that is very short, cut at
    a word and ended with an ellipsis if still longer than `limit`."""
    text = " ".join(question.split())
    clause = re.split(
        r"(?:(?<=[a-z]{2}\.)|(?<=[?!]))\s(?=[A-Z])|;\s|:\s(?=[A-Z\"'])", text, maxsplit=1
    )[0]
    clause = clause if len(clause) >= 20 else text
    if len(clause) <= limit:
        return clause
    cut = clause[: limit + 1].rsplit(" ", 1)[0].rstrip(",;:-–— ")
    return cut + "…"


class Acknowledgement(Model):
    """A finding the document acknowledges: a known problem of the source, kept as printed
    on purpose. It matches one finding of `code` in this document's file (the one at `at`
    when given); the finding is then listed apart and never fails `--strict`. One that
    matches no finding is itself a finding (RP011), so a fixed problem loses its excuse."""

    code: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,5}[0-9]{3}$")]
    """The finding's code (`RP301`, or a plugin's `ORC001`)."""
    at: Annotated[str, StringConstraints(max_length=200, pattern=r"^[A-Za-z0-9_.\[\]-]*$")] = ""
    """The data path the finding points at (`table[3].damage`, `rows[0].percent[2]`,
    `header`), which stays true when unrelated lines are edited; empty for a finding about
    the whole document, or when the file has one finding of `code`."""
    reason: Text
    """What the source printed and why it is kept: what a reader of the errata sees."""


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
    acknowledged: list[Acknowledgement] = []
    """Findings on this document that are the source's own problems, kept on purpose."""

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
        """A draft is checked but left out of every output."""
        return self.status == "draft"


def iter_references(model: BaseModel, path: tuple = ()) -> Iterator[tuple[tuple, str, str]]:
    """Yield (data path, target kind, target id) for every `ref(...)` field inside `model`,
    and every `doc:` link of its RichText fields (target kind "*")."""
    for at, marker, value in _marked_values(model, path):
        yield from marker.references(at, value)


def iter_rich_texts(model: BaseModel, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """Yield (data path, text) for every RichText value inside `model`."""
    for at, marker, value in _marked_values(model, path):
        if isinstance(marker, RichTextLinks):
            yield at, value


def _marked_values(model: BaseModel, path: tuple) -> Iterator[tuple[tuple, Ref, str]]:
    """(data path, its Ref, the string) of every value of a Ref-marked field in `model`."""
    for name, target, annotation in _reference_fields(type(model)):
        yield from _walk_refs(getattr(model, name), (*path, name), target, annotation)


@functools.cache
def _reference_fields(cls: type[BaseModel]) -> tuple[tuple[str, Ref | None, Any], ...]:
    """(name, Ref of a direct `ref` or RichText, annotation) of each field of `cls` that can
    hold a reference; the rest (an AP table's 30 rows of numbers) is never walked."""
    fields = []
    for name, info in cls.model_fields.items():
        target = next((m for m in info.metadata if isinstance(m, Ref)), None)
        target = target or _optional_ref(info.annotation)
        if target or _may_hold_refs(info.annotation):
            fields.append((name, target, info.annotation))
    return tuple(fields)


def _optional_ref(annotation: Any) -> Ref | None:
    """`ref("*") | None`: pydantic keeps the Ref inside the union's member, not on the field."""
    if typing.get_origin(annotation) not in (typing.Union, types.UnionType):
        return None
    members = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    if len(members) != 1:
        return None
    metadata = getattr(members[0], "__metadata__", ())
    return next((meta for meta in metadata if isinstance(meta, Ref)), None)


def _may_hold_refs(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return bool(_reference_fields(annotation))
    if any(isinstance(meta, Ref) for meta in getattr(annotation, "__metadata__", ())):
        return True
    return any(_may_hold_refs(arg) for arg in typing.get_args(annotation))


def _walk_refs(value: Any, path: tuple, target: Ref | None, annotation: Any):
    if value is None:
        return
    if isinstance(value, BaseModel):
        yield from _marked_values(value, path)
    elif isinstance(value, list | tuple):
        inner = _list_item_ref(annotation) if target is None else target
        for index, item in enumerate(value):
            yield from _walk_refs(item, (*path, index), inner, None)
    elif isinstance(value, str) and target:
        yield path, target, value


def _list_item_ref(annotation: Any) -> Ref | None:
    """`list[ref("skill")]` keeps its Ref inside the item type's metadata."""
    for arg in getattr(annotation, "__args__", ()) or ():
        for meta in getattr(arg, "__metadata__", ()) or ():
            if isinstance(meta, Ref):
                return meta
    return None


def referenced_kinds(cls: type[BaseModel]) -> frozenset[str]:
    """The kinds a document of `cls` may name in its `ref(...)` fields, nested ones too
    (a weapon's section: `weapon-section`)."""
    found = set()
    for _name, target, annotation in _reference_fields(cls):
        if target or (target := _list_item_ref(annotation)):
            found.add(target.kind)
        for arg in (annotation, *typing.get_args(annotation)):
            if isinstance(arg, type) and issubclass(arg, BaseModel):
                found |= referenced_kinds(arg)
    return frozenset(found)
