"""Read one YAML file into plain Python data plus the line:col of every node.

libyaml (through PyYAML's C loader) parses and composes the node graph, resolving plain
scalars by the YAML 1.2 core schema (`yes` is text, `0o17` is 15, a date is text); we
build the data ourselves, so that only what a compendium needs is ever constructed: the
core schema's scalars, mappings and sequences. Tags, anchors, aliases and merge keys are
refused, duplicate keys are refused, and every value and key keeps its position for
error messages. (ruamel.yaml, whose round trip keeps comments, writes the files; libyaml
reads them about three times faster, and parsing is what a large compendium costs.)
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path
from typing import NamedTuple

import yaml
from yaml.error import Mark, MarkedYAMLError, YAMLError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError

from rulepress.compendium.yaml_scalars import CONSTRUCTORS, CORE
from rulepress.errors import Code

DataPath = tuple[str | int, ...]
MAX_DEPTH = 64


class Position(NamedTuple):
    """A 1-based line and column, as editors show them."""

    line: int
    col: int


class SourceMap:
    """Where each value (and each mapping key) of one file stands.

    A file read without positions keeps its text instead, and the positions are worked out
    the first time something asks: only files with a finding ever need them, and holding
    every node's position of a large compendium costs more memory than the data itself.
    The text is kept compressed (zlib's fastest level): a quarter of its size, and a large
    compendium holds every file's.
    """

    __slots__ = ("_packed", "file", "keys", "values")

    def __init__(self, file: Path, text: str | None = None) -> None:
        """`file`'s positions, to be recorded, or worked out from its `text` when asked."""
        self.file = file
        self.values: dict[DataPath, Position] = {}
        self.keys: dict[DataPath, Position] = {}
        self._packed = None if text is None else zlib.compress(text.encode("utf-8"), 1)

    @property
    def text(self) -> str | None:
        """The file's text, while its positions have not been worked out yet."""
        return None if self._packed is None else zlib.decompress(self._packed).decode("utf-8")

    def __eq__(self, other: object) -> bool:  # (which makes it unhashable: it is filled in)
        """Equal if of the same file, with the same positions or the same text."""
        if not isinstance(other, SourceMap):
            return NotImplemented
        mine = (self.file, self.values, self.keys, self._packed)
        return mine == (other.file, other.values, other.keys, other._packed)

    def _positions(self) -> None:
        text = self.text
        if text is not None:
            self._packed = None
            _, full = parse_yaml(text, self.file)
            self.values, self.keys = full.values, full.keys

    def has(self, path: DataPath) -> bool:
        """Whether `path` names a value or a key of the file."""
        self._positions()
        return path in self.values or path in self.keys

    def locate(self, path: DataPath, *, prefer_key: bool = False) -> Position:
        """Position of the deepest known node on `path` (a missing field points at its parent)."""
        self._positions()
        path = tuple(path)
        while True:
            if prefer_key and path in self.keys:
                return self.keys[path]
            if path in self.values:
                return self.values[path]
            if not path:
                return Position(1, 1)
            path = path[:-1]


class YamlProblem(Exception):
    """A file that cannot be read as compendium YAML, with the place to look."""

    def __init__(self, code: Code, message: str, position: Position | None = None):
        """A problem without a place points at the file's first line, as a finding must."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.position = position or Position(1, 1)


class _PureCore12Loader(yaml.SafeLoader):
    """PyYAML's pure-Python parser and composer, resolving by the YAML 1.2 core schema."""


class _Core12Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """libyaml's parser and composer, resolving by the YAML 1.2 core schema."""

    def resolve(self, kind: type, value: str, implicit: tuple[bool, bool]) -> str:
        """The tag of an untagged node: PyYAML's resolution by `_CORE12_RESOLVERS`, which
        libyaml's composer asks for each of a large compendium's millions of scalars,
        answered without its generic machinery (no path resolvers are ever added)."""
        if kind is not ScalarNode:
            return _SEQ if kind is SequenceNode else _MAP
        if not implicit[0]:  # quoted, or tagged `!`: text
            return _STR
        for tag, pattern in _RESOLVERS_BY_FIRST.get(value[:1], ()):
            if pattern.match(value):
                return tag
        return _STR


_CORE12_RESOLVERS = (
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+0123456789."),
    ),
    ("merge", r"^(?:<<)$", ["<"]),
)
for _loader in (_Core12Loader, _PureCore12Loader):
    _loader.yaml_implicit_resolvers = {}
    for _name, _pattern, _first in _CORE12_RESOLVERS:
        _loader.add_implicit_resolver(f"tag:yaml.org,2002:{_name}", re.compile(_pattern), _first)
_RESOLVERS_BY_FIRST = _Core12Loader.yaml_implicit_resolvers
_STR, _SEQ, _MAP = f"{CORE}str", f"{CORE}seq", f"{CORE}map"

_BRACKETS = re.compile(r"[\[\]{}]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPE = re.compile(r"\\\\|\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))")
_DEEP_INDENT = 4 * MAX_DEPTH
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # where str.splitlines breaks
_DEEP_LINE = re.compile(f"(?:\\A|[{_LINE_BREAKS}]) {{{_DEEP_INDENT + 1}}}")
"""A line indented more than _DEEP_INDENT spaces, its start as `str.splitlines` finds it."""


def _may_be_too_deep(text: str) -> bool:
    """Whether the text could nest deeper than the C parser safely recurses (it crashes
    the process on very deep input, where the pure-Python one raises RecursionError)."""
    if text.count("[") + text.count("{") > MAX_DEPTH:  # else brackets cannot nest deeper
        depth = deepest = 0
        for match in _BRACKETS.finditer(text):
            depth += 1 if match.group() in "[{" else -1
            deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return True
    return _DEEP_LINE.search(text) is not None


def loader_for(text: str) -> type:
    """The loader that reads `text`: libyaml's, or the pure-Python one where the text could
    nest deeper than libyaml safely recurses."""
    return _PureCore12Loader if _may_be_too_deep(text) else _Core12Loader


def _position(mark: Mark) -> Position:
    """A mark's line and column, counted from 1. Both parsers count characters (libyaml's
    byte offsets appear only in its reader errors, see below)."""
    return Position(mark.line + 1, mark.column + 1)


def _text_before(text: str, position: int, counts_bytes: bool) -> str:
    if counts_bytes and not text.isascii():
        return text.encode("utf-8")[:position].decode("utf-8", errors="ignore")
    return text[:position]


def decode_utf8(raw: bytes) -> str:
    """Decode strictly; a bad byte is reported at its line and column."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        line_start = raw[before.rfind(b"\n") + 1 : exc.start]
        col = len(line_start.decode("utf-8", errors="replace")) + 1  # characters, not bytes
        raise YamlProblem(
            Code.NOT_UTF8,
            f"file is not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded",
            Position(line, col),
        ) from None
    return text.removeprefix("\ufeff")


def parse_yaml(text: str, file: Path, *, positions: bool = True) -> tuple[object, SourceMap]:
    """Parse one YAML document held in `text`; positions are recorded against `file`, now
    or (with `positions=False`) when first asked for."""
    loader = loader_for(text)
    try:
        node = yaml.compose(text, Loader=loader)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        position = _position(mark) if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise YamlProblem(Code.YAML_SYNTAX, f"YAML syntax error: {problem}", position) from None
    except ReaderError as exc:  # a character YAML does not allow
        before = _text_before(text, exc.position, loader is _Core12Loader)
        position = Position(before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1)
        code = (
            exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "?")
        )
        raise YamlProblem(
            Code.YAML_SYNTAX, f"character U+{code:04X} is not allowed in YAML", position
        ) from None
    except YAMLError as exc:  # libyaml's reader errors carry no mark
        raise YamlProblem(Code.YAML_SYNTAX, f"YAML error: {_first_line(exc)}") from None
    except RecursionError:
        raise YamlProblem(Code.YAML_UNSUPPORTED, "YAML nested too deeply") from None
    if node is None:
        raise YamlProblem(Code.EMPTY_FILE, "file holds no YAML document")
    source_map = SourceMap(file, text=None if positions else text)
    try:
        if not positions and loader is _Core12Loader and "&" not in text:
            return _plain_data(node, 0), source_map
        return _Builder(source_map, text, loader, record=positions).build(node, (), 0), source_map
    except YamlProblem:
        if positions:
            raise
    return parse_yaml(text, file)  # raises the same problem, now with its exact place


def _plain_data(node: Node, depth: int) -> object:
    """The data of a node graph that cannot hold an alias (its text has no `&`, so no
    anchor), read by libyaml, with no position kept: what `_Builder` builds, without its
    bookkeeping (most of a large compendium's parsing after libyaml's). Anything
    `_Builder` would refuse raises YamlProblem, and the caller asks `_Builder` where."""
    if depth > MAX_DEPTH:
        raise YamlProblem(Code.YAML_UNSUPPORTED, "too deep")
    kind = type(node)
    if kind is ScalarNode:
        return _scalar_data(node)
    if kind is SequenceNode and node.tag == _SEQ:
        return [_plain_data(item, depth + 1) for item in node.value]
    if kind is not MappingNode or node.tag != _MAP:
        raise YamlProblem(Code.YAML_UNSUPPORTED, "unsupported node")
    result: dict = {}
    for key_node, value_node in node.value:
        if type(key_node) is not ScalarNode:
            raise YamlProblem(Code.YAML_UNSUPPORTED, "unsupported key")
        key = key_node.value if key_node.tag == _STR else _scalar_data(key_node)
        if type(key) is not str and type(key) is not int:  # as `_Builder._mapping`
            key = key_node.value
        if key in result:
            raise YamlProblem(Code.DUPLICATE_KEY, "duplicate key")
        result[key] = _plain_data(value_node, depth + 1)
    return result


def _scalar_data(node: ScalarNode) -> object:
    construct = CONSTRUCTORS.get(node.tag)
    if construct is None:
        raise YamlProblem(Code.YAML_UNSUPPORTED, "unsupported tag")
    try:
        return construct(node.value)
    except ValueError:
        raise YamlProblem(Code.INVALID_VALUE, "unreadable scalar") from None


class _Builder:
    def __init__(self, source_map: SourceMap, text: str, loader: type, record: bool):
        """`record` says whether to keep each node's position (a cached file's are worked out only
        when a finding needs them)."""
        self.source_map = source_map
        self.text, self.loader = text, loader
        self.record = record
        self.seen: set[int] = set()

    def _mark(self, node: Node) -> Position:
        return _position(node.start_mark)

    def _refuse_alias(self, node: Node) -> None:
        if id(node) in self.seen:
            raise YamlProblem(
                Code.YAML_UNSUPPORTED,
                "anchors and aliases are not allowed in the compendium; write the value out",
                self._first_alias(),
            )
        self.seen.add(id(node))

    def _first_alias(self) -> Position | None:
        """Where the first alias stands: the node met twice. A composed alias is the
        anchored node itself, which knows only the anchor's place; the parser's events
        know the alias's (and the nodes are built in the order the events come)."""
        for event in yaml.parse(self.text, Loader=self.loader):
            if isinstance(event, yaml.AliasEvent):
                return _position(event.start_mark)
        return None

    def build(self, node: Node, path: DataPath, depth: int) -> object:
        if depth > MAX_DEPTH:
            raise YamlProblem(
                Code.YAML_UNSUPPORTED, f"nesting deeper than {MAX_DEPTH} levels", self._mark(node)
            )
        self._refuse_alias(node)
        if self.record:
            self.source_map.values[path] = self._mark(node)
        if isinstance(node, MappingNode):
            return self._mapping(node, path, depth)
        if isinstance(node, SequenceNode):
            if node.tag != f"{CORE}seq":
                raise self._bad_tag(node)
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        return self._scalar(node)

    def _mapping(self, node: MappingNode, path: DataPath, depth: int) -> dict:
        if node.tag != f"{CORE}map":
            raise self._bad_tag(node)
        result: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == f"{CORE}merge":
                raise YamlProblem(
                    Code.YAML_UNSUPPORTED, "merge keys (<<) are not allowed", self._mark(key_node)
                )
            if not isinstance(key_node, ScalarNode):
                raise YamlProblem(
                    Code.YAML_UNSUPPORTED,
                    "mapping keys must be plain scalars",
                    self._mark(key_node),
                )
            self._refuse_alias(key_node)
            key = self._scalar(key_node)
            if not isinstance(key, str | int) or isinstance(key, bool):
                key = key_node.value
            child = (*path, key)
            if key in result:
                if not self.record:  # the caller parses again, with positions, to say where
                    raise YamlProblem(Code.DUPLICATE_KEY, "duplicate key")
                first = self.source_map.keys[child]
                raise YamlProblem(
                    Code.DUPLICATE_KEY,
                    f"duplicate key '{key}' (first at line {first.line}, column {first.col})",
                    self._mark(key_node),
                )
            if self.record:
                self.source_map.keys[child] = self._mark(key_node)
            result[key] = self.build(value_node, child, depth + 1)
        return result

    def _scalar(self, node: ScalarNode) -> object:
        if self.loader is _PureCore12Loader and _SURROGATE.search(node.value):
            raise self._surrogate(node)  # (libyaml refuses a surrogate's escape itself)
        construct = CONSTRUCTORS.get(node.tag)
        if construct is None:
            raise self._bad_tag(node)
        try:
            return construct(node.value)
        except ValueError:  # an explicit tag on a value it cannot read, or a huge integer
            raise YamlProblem(
                Code.OUT_OF_RANGE if node.tag.endswith("int") else Code.INVALID_VALUE,
                f"cannot read {node.value[:40]!r} as {node.tag.rsplit(':', 1)[-1]}",
                self._mark(node),
            ) from None

    def _surrogate(self, node: ScalarNode) -> YamlProblem:
        """A surrogate is no character (no UTF-8 text can hold one). libyaml refuses its
        escape; the pure-Python parser builds it, so it is refused here, at the escape."""
        written = self.text[node.start_mark.index : node.end_mark.index]
        for escape in _ESCAPE.finditer(written):
            hexadecimal = escape.group(1) or escape.group(2)  # None for an escaped backslash
            if hexadecimal and 0xD800 <= int(hexadecimal, 16) <= 0xDFFF:
                before = self.text[: node.start_mark.index + escape.start()]
                line_start = before.rfind("\n") + 1
                return YamlProblem(
                    Code.YAML_SYNTAX,
                    f"YAML syntax error: the escape {escape.group()} is a surrogate, "
                    "not a character",
                    Position(before.count("\n") + 1, len(before) - line_start + 1),
                )
        return YamlProblem(  # not written as an escape: cannot be, but say so anyway
            Code.YAML_SYNTAX, "YAML syntax error: a surrogate is not a character", self._mark(node)
        )

    def _bad_tag(self, node: Node) -> YamlProblem:
        return YamlProblem(
            Code.YAML_UNSUPPORTED, f"YAML tag {node.tag!r} is not allowed", self._mark(node)
        )


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
