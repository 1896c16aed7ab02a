"""A document's text fields, found from its model's types: every value typed `Text`,
`Name` or `RichText` (rulepress.models.base), at its data path. These are what a
translation may hold; a figure, an id or a slug never is."""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel, BeforeValidator

from rulepress.errors import data_path_text
from rulepress.models import base

TEXT_VALIDATORS = (base._text, base._name)
"""The validators that mark a string as text (Text, RichText) or a name (Name)."""
LEFT_OUT = frozenset({"acknowledged", "sources", "chapter", "languages"})
"""A document's fields whose texts no translation holds: an acknowledgement's reason
quotes the source's errata, a source's credit is worded as its authors ask, a
language's name is written in that language already; a
document's `chapter` names a chapter, translated once in `ruleset.yaml`'s `chapters`
(rulepress.translations.translated renames it where documents name it)."""


@dataclass(frozen=True)
class TextField:
    """One text of a document: where it is, what it says, and its field's type."""

    path: tuple
    text: str
    annotation: object
    """The field's type (`Text`, `Name` or `RichText`), which a translation must fit."""

    @property
    def rich(self) -> bool:
        """Whether the field is rich text (Markdown subset) rather than plain text."""
        return is_rich(self.annotation)


def text_fields(document: BaseModel) -> dict[str, TextField]:
    """Each text of `document` by its data path as text (`rulings[0].question`), in the
    model's field order: what a translation of it may hold."""
    return {data_path_text(f.path): f for f in _texts(document, None, ())}


def _texts(value: object, annotation: object, path: tuple) -> Iterator[TextField]:
    if isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            if not path and name in LEFT_OUT:
                continue
            field_type = info.annotation
            if info.metadata:
                field_type = typing.Annotated[(field_type, *info.metadata)]
            yield from _texts(getattr(value, name), field_type, (*path, name))
    elif isinstance(value, str):
        if _is_text(annotation):
            yield TextField(path, value, annotation)
    elif isinstance(value, (list, tuple)):
        item = _argument(annotation, 0)
        for number, element in enumerate(value):
            yield from _texts(element, item, (*path, number))
    elif isinstance(value, dict):
        item = _argument(annotation, 1)
        for key, element in value.items():
            yield from _texts(element, item, (*path, key))


def _argument(annotation: object, number: int) -> object:
    """The `number`th type argument of a container type (`list[X]` -> X), through
    `Annotated` and `| None`."""
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    arguments = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return _argument(arguments[0], number) if arguments else None
    return arguments[number] if len(arguments) > number else None


@functools.cache
def _is_text(annotation: object) -> bool:
    """Whether a field's type is a text type (through `| None` and nested `Annotated`)."""
    if typing.get_origin(annotation) is typing.Annotated:
        arguments = typing.get_args(annotation)
        if any(
            isinstance(mark, BeforeValidator) and mark.func in TEXT_VALIDATORS
            for mark in arguments[1:]
        ):
            return True
        return _is_text(arguments[0])
    arguments = typing.get_args(annotation)
    return bool(arguments) and any(_is_text(a) for a in arguments if a is not type(None))


def is_rich(annotation: object) -> bool:
    """Whether a text field's type is RichText (its `doc:` links mark it)."""
    while typing.get_origin(annotation) is not typing.Annotated and typing.get_args(annotation):
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    if typing.get_origin(annotation) is not typing.Annotated:
        return False
    arguments = typing.get_args(annotation)
    return any(isinstance(m, base.RichTextLinks) for m in arguments[1:]) or is_rich(arguments[0])


def replaced(value: object, path: tuple, text: str) -> object:
    """`value` (a frozen model, list or dict) with the text at `path` replaced: copies
    along the path, shares the rest."""
    if not path:
        return text
    step, rest = path[0], path[1:]
    if isinstance(value, BaseModel):
        return value.model_copy(update={step: replaced(getattr(value, step), rest, text)})
    if isinstance(value, list):
        return [replaced(v, rest, text) if i == step else v for i, v in enumerate(value)]
    if isinstance(value, tuple):
        return tuple(replaced(v, rest, text) if i == step else v for i, v in enumerate(value))
    if isinstance(value, dict):
        return {k: replaced(v, rest, text) if k == step else v for k, v in value.items()}
    raise TypeError(f"no text at {path!r} of a {type(value).__name__}")
