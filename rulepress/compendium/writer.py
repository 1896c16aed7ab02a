"""Write documents in the canonical YAML form.

Keys follow the model's field order (`kind`, `id`, `status` first; `boundaries`,
`previous_ids`, `rulings` and `acknowledged` last). A list item whose values are all
scalars and that fits on one line is written as a flow mapping, so a table row is one line
and a one-cell change is a one-line diff. Multi-line text is a literal block. Given the
file's original round-trip tree, comments stay with the keys and list items they annotate.
"""

from __future__ import annotations

import io
import os
import re
import stat
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import LiteralScalarString

from rulepress.files import Replacement
from rulepress.models import Document

ROW_WIDTH = 110
_LEADING_BLANK_LINES = re.compile(r"\A(?:[ \t]*\n)+")
_LAST_KEYS = ("boundaries", "previous_ids", "rulings", "acknowledged")


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096  # never fold a line; long text goes into literal blocks
    yaml.explicit_start = False
    return yaml


def document_data(document: Document, keep: frozenset[str] = frozenset()) -> dict:
    """The document as plain data in canonical key order, without default values but
    those of the fields in `keep` (a default that carries a comment keeps it in place)."""
    trimmed = document.model_dump(mode="python", exclude_defaults=True)
    whole = document.model_dump(mode="python")
    data = {"kind": document.kind}
    data |= {
        key: trimmed.get(key, value)
        for key, value in whole.items()
        if key in trimmed or key in keep
    }
    for key in _LAST_KEYS:
        if key in data:
            data[key] = data.pop(key)
    return data


def dump_document(document: Document) -> str:
    """A document as its canonical YAML file: what `fmt` and `new` write."""
    return dump_data(document_data(document))


def dump_data(data: dict, original: object = None) -> str:
    """Canonical YAML of `data`; `original` is the round-trip tree to take comments from."""
    stream = io.StringIO()
    _yaml().dump(_styled(data, in_list=False, original=original), stream)
    return _LEADING_BLANK_LINES.sub("", stream.getvalue())  # ruamel keeps one of several


def _beside(path: Path, text: str) -> Replacement:
    """`text` written whole to a new temporary file beside `path` (never through a link),
    closed; the caller commits it into place or discards it."""
    replacement = Replacement(path)
    try:
        with replacement.file as file:
            file.write(text.encode("utf-8"))
    except BaseException:
        replacement.discard()
        raise
    return replacement


def write_in_place(path: Path, text: str) -> None:
    """Replace the file at `path` with `text`, whole or not at all, and never through a
    link: written beside it under another name, then renamed over it, keeping its
    permissions. A link at `path` is refused (OSError), not replaced by a file."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG | 0o644
    if not stat.S_ISREG(mode):
        raise OSError(f"{path} is not a regular file; not written")
    replacement = _beside(path, text)
    try:
        os.chmod(replacement.temporary, stat.S_IMODE(mode))
        replacement.commit()
    finally:
        replacement.discard()


def write_all(planned: list[tuple[Path, str]]) -> list[Path]:
    """Write every (path, text) or none: each goes to a temporary file beside its path
    first, and only when all are written are they renamed into place. An OSError says
    which file failed; no temporary file is left behind."""
    replacements: list[Replacement] = []
    try:
        for path, text in planned:
            path.parent.mkdir(parents=True, exist_ok=True)
            replacements.append(_beside(path, text))
        for replacement in replacements:
            replacement.commit()
    finally:
        for replacement in replacements:
            replacement.discard()
    return [path for path, _ in planned]


def load_round_trip(text: str) -> object:
    """The round-trip tree of a file's text, for its comments."""
    return _yaml().load(text)


def _styled(value, *, in_list: bool, original: object = None):
    if isinstance(value, dict):
        styled = CommentedMap(
            (k, _styled(v, in_list=False, original=_child(original, k))) for k, v in value.items()
        )
        _keep_comments(original, styled, value)
        if in_list and _fits_on_a_line(value) and not has_comments(original):
            styled.fa.set_flow_style()
        return styled
    if isinstance(value, list):
        styled = CommentedSeq(
            _styled(item, in_list=True, original=_child(original, i))
            for i, item in enumerate(value)
        )
        _keep_comments(original, styled, range(len(value)))
        if (
            value
            and all(_is_scalar(item) for item in value)
            and len(repr(value)) < ROW_WIDTH
            and not has_comments(original)
        ):
            styled.fa.set_flow_style()
        return styled
    if isinstance(value, str) and "\n" in value:
        return LiteralScalarString(value)
    return value


def _child(original: object, key: object) -> object:
    if isinstance(original, CommentedMap):
        return original.get(key)
    if isinstance(original, CommentedSeq) and isinstance(key, int) and key < len(original):
        return original[key]
    return None


def _keep_comments(original: object, styled: CommentedMap | CommentedSeq, keys) -> None:
    """Move the comments of the original node onto the canonical one: those before it,
    those of each key or item, and those after its last entry (where ruamel keeps a
    comment that ends the file)."""
    if not isinstance(original, CommentedMap | CommentedSeq):
        return
    if original.ca.comment:
        styled.ca.comment = original.ca.comment
    for key in keys:
        if key in original.ca.items:
            styled.ca.items[key] = original.ca.items[key]
    if original.ca.end:
        styled.ca.end = original.ca.end


def has_comments(node: object) -> bool:
    """Whether a round-trip node carries a comment of its own (in any of ruamel's places
    for one): such a node is written in block style, where every place can hold it."""
    if not isinstance(node, CommentedMap | CommentedSeq):
        return False
    slots = [node.ca.comment, node.ca.end, *node.ca.items.values()]
    return any(_holds_token(slot) for slot in slots)


def commented_keys(original: object) -> frozenset:
    """The keys of a round-trip mapping that carry a comment, on them or inside their value."""
    if not isinstance(original, CommentedMap):
        return frozenset()
    return frozenset(
        key
        for key, value in original.items()
        if _holds_token(original.ca.items.get(key)) or has_comments(value)
    )


def _holds_token(slot: object) -> bool:
    if isinstance(slot, list):
        return any(_holds_token(part) for part in slot)
    return slot is not None


def _is_scalar(value) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _fits_on_a_line(mapping: dict) -> bool:
    if not all(
        _is_scalar(v) or (isinstance(v, list) and all(map(_is_scalar, v))) for v in mapping.values()
    ):
        return False
    return sum(len(str(k)) + len(str(v)) + 4 for k, v in mapping.items()) < ROW_WIDTH
