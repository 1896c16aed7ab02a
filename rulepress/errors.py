"""Findings: what rulepress reports about a compendium, and where.

Every problem a contributor can cause becomes a Finding with a code, a level and a
`path:line:col`. Codes RP0xx come from reading files (RP011 from acknowledgements that
excuse nothing, RP012 from `fmt` refusing to lose a comment), RP1xx from the models,
RP2xx from the cross-document checks in `rulepress.validators`, RP3xx from running the
rules. A plugin's checks have codes of its game's own prefix (`ORC001`).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


class Level(enum.IntEnum):
    """Severity; the order is the order findings are printed in."""

    ERROR = 0
    WARNING = 1
    INFO = 2

    def __str__(self) -> str:
        """The level as printed in a finding (`error`, `warning`, `info`)."""
        return self.name.lower()


OWN_PREFIX = "RP"
"""The code prefix of rulepress's own findings: no plugin may declare it."""
CODE_PREFIX = re.compile(r"[A-Z]{2,5}")
"""What a game's code prefix may be (`Game.code_prefix`): 2 to 5 capitals."""
FINDING_CODE = re.compile(r"([A-Z]{2,5})([0-9]{3})")
"""What any finding code is: a prefix and three digits (`RP203`, `ORC001`)."""


def code_prefix(code: str) -> str | None:
    """The prefix of a finding code (`ORC` of `ORC001`), None for what is no code."""
    matched = FINDING_CODE.fullmatch(code) if isinstance(code, str) else None
    return matched.group(1) if matched else None


class Code(enum.StrEnum):
    """Codes for problems found while reading files and validating documents."""

    UNREADABLE = "RP001"
    NOT_UTF8 = "RP002"
    YAML_SYNTAX = "RP003"
    DUPLICATE_KEY = "RP004"
    YAML_UNSUPPORTED = "RP005"
    EMPTY_FILE = "RP006"
    NOT_A_MAPPING = "RP007"
    OUTSIDE_COMPENDIUM = "RP008"
    NO_RULESET = "RP009"
    UNUSABLE_NAMED_FILE = "RP010"
    STALE_ACKNOWLEDGEMENT = "RP011"
    FORMAT_REFUSED = "RP012"

    UNKNOWN_KIND = "RP100"
    UNKNOWN_FIELD = "RP101"
    MISSING_FIELD = "RP102"
    WRONG_TYPE = "RP103"
    OUT_OF_RANGE = "RP104"
    INVALID_VALUE = "RP105"

    @property
    def slug(self) -> str:
        """The readable name shown beside the code (`duplicate-key`)."""
        return self.name.lower().replace("_", "-")


CODE_DOCS: dict[str, str] = {
    "RP001": "A file could not be read (permissions, a directory where a file should be).",
    "RP002": "A file is not valid UTF-8; the position is the first bad byte.",
    "RP003": "YAML syntax error: bad indentation, an unclosed bracket, a tab used for indent.",
    "RP004": "The same key appears twice in one mapping; YAML would silently keep one.",
    "RP005": "A YAML feature the compendium refuses: tags, anchors and aliases, merge keys.",
    "RP006": "A file with no YAML document in it (empty, or only comments).",
    "RP007": "A file whose top level is not a mapping with a `kind`.",
    "RP008": "A symbolic link leading outside the compendium folder (or the settings file "
    "outside its own folder), even to come back in, or into a `.git` folder.",
    "RP009": "A ruleset folder without a `ruleset.yaml`, or a document outside any ruleset.",
    "RP010": "A file the settings name (logo, favicon, stylesheet, script) is missing, of "
    "the wrong kind, too large, outside the content repository or inside its `.git`.",
    "RP011": "An acknowledgement (`acknowledged:` in a document) that matches no finding: "
    "the problem it excused is fixed or has moved, so the acknowledgement should go.",
    "RP012": "`rulepress fmt` refused a file: its canonical form would drop, change or "
    "move a comment (the position is the comment's) or change the data; nothing written.",
    "RP100": "A document's `kind` names no known document kind.",
    "RP101": "A field the model does not declare (often a typo of a real field).",
    "RP102": "A required field is missing.",
    "RP103": "A value of the wrong type (text where a number belongs, and so on).",
    "RP104": "A number or list outside the range the rules allow.",
    "RP105": "A value the field does not allow (not one of the listed choices, a bad slug).",
}


@dataclass(frozen=True)
class Finding:
    """One problem at one place. `name` is the check's readable name (`weapon-table-gap`)."""

    level: Level
    code: str
    message: str
    file: Path | None = None
    line: int | None = None
    col: int | None = None
    name: str = ""
    path: tuple = ()
    """The data path inside the document the finding points at (`("table", 3, "damage")`),
    which an acknowledgement's `at` names; () when the finding is about the whole file."""
    acknowledged: bool = False
    """The document acknowledges this finding as a known problem of the source."""
    reason: str = ""
    """The acknowledgement's reason, when acknowledged."""

    def __post_init__(self) -> None:
        """A finding made with only a code gets its code's readable name."""
        if not self.name and self.code in Code._value2member_map_:
            object.__setattr__(self, "name", Code(self.code).slug)

    def sort_key(self) -> tuple:
        """Findings sort by level, then file and place, so a report reads the same run after run."""
        return (self.level, str(self.file or ""), self.line or 0, self.col or 0, self.code)

    def where(self, relative_to: Path | None = None) -> str:
        """`path:line:col`, the path made printable (a file name is data too)."""
        if self.file is None:
            return "<compendium>"
        path = printable(display_path(self.file, relative_to))
        return f"{path}:{self.line or 1}:{self.col or 1}"


def data_path_text(path: tuple) -> str:
    """A data path as an acknowledgement's `at` spells it: `table[3].damage`, `header`."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text


def display_path(path: Path, relative_to: Path | None = None) -> str:
    """`path` relative to `relative_to` when it lies below it, else as given. A symbolic
    link is named itself, not what it points at: the link is what to fix."""
    if relative_to is not None:
        try:
            shown = (path.parent.resolve() / path.name).relative_to(relative_to.resolve())
            return _bytes_shown(str(shown))
        except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop
            pass
    return _bytes_shown(str(path))


def _bytes_shown(name: str) -> str:
    """A file name's bytes that are not UTF-8 (Python keeps them as lone surrogates, which
    no output can encode) shown as `\\xff`."""
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = name.encode("utf-8", "backslashreplace")
    return raw.decode("utf-8", "backslashreplace")


# Not printable, but text rather than control: the no-break spaces, and the joiners that
# emoji sequences and several scripts need.
_KEPT = frozenset("\u00a0\u202f\u200c\u200d")


def closest(word: str, choices: Iterable[str], cutoff: float = 0.75) -> str | None:
    """The one of `choices` closest to `word` (difflib's ratio at least `cutoff`), or None:
    the "did you mean" of every message that has one."""
    import difflib  # only once a word is wrong: the launcher imports this module

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return close[0] if close else None


def model_reason(error: dict) -> str:
    """pydantic's message for one of its errors (`ValidationError.errors()`), as rulepress
    says it: starting lowercase like every finding's own words ("input should be..."),
    and without the "Value error, " pydantic puts before a validator's own text, which is
    kept as its validator wrote it."""
    text = error["msg"]
    if error.get("type") in ("value_error", "assertion_error"):
        # only pydantic's own prefix goes: a validator's text may have commas of its own
        return text.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    first = text.split(" ", 1)[0]
    if first[1:] == first[1:].lower():  # a word, not a name in capitals ("JSON", "URL")
        return text[:1].lower() + text[1:]
    return text


def printable(text: str) -> str:
    """`text` safe to print on a terminal or in a GitHub log line: every character that is
    not printable (control characters such as ESC, line breaks, bidirectional controls,
    lone surrogates) is shown as its escape (`\\x1b`, `\\n`, `\\u202e`), so data can
    neither start a terminal escape nor print a line of its own. A file name's byte that
    is not UTF-8 (decoded by Python as a lone surrogate) is shown as the byte, `\\xff`.
    Every text and GitHub output of data and paths goes through here; JSON is escaped by
    the JSON encoder instead."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in _KEPT else _escaped(ch) for ch in text)


def _escaped(char: str) -> str:
    if "\udc80" <= char <= "\udcff":  # os.fsdecode's stand-in for an undecodable byte
        return f"\\x{ord(char) - 0xDC00:02x}"
    return repr(char)[1:-1]


class RulepressError(Exception):
    """An error the user must fix (bad path, unwritable output): one message, no traceback."""


RAISED_TEXT_LIMIT = 300
"""How much of an exception's text a finding or an error shows: enough to name the
fault, never the megabytes of data a plugin may have put into it."""


def raised_text(exc: BaseException) -> str:
    """`KeyError: 'rows'`: the exception's type and text, cut at RAISED_TEXT_LIMIT."""
    try:
        said = str(exc)
    except Exception:  # a plugin's exception whose own text fails
        said = "(its text cannot be shown)"
    text = f"{type(exc).__name__}: {said}" if said else type(exc).__name__
    if len(text) > RAISED_TEXT_LIMIT:
        text = text[: RAISED_TEXT_LIMIT - 1] + "…"
    return text


class PluginError(RulepressError):
    """A plugin package's hook failed (it cannot be imported, or it raised): one message
    naming the package and the hook, exit 2, for the plugin's author to fix."""


class Problem(ValueError):
    """A plugin's way to say what is wrong with a document, and where.

    Raised by a model's validator (field or model, `mode="before"` or `"after"`), it
    becomes a finding at `path` (a tuple of keys and list indices, below the place the
    validator validates: `()` for the value or document itself, `("rows", 2, "text")` for
    one row's text). Raised by a cross-document check, it is a finding of that check at
    `path` in `document` (a document of the ruleset, or its id; None: the ruleset's
    `ruleset.yaml`). `code` is one of rulepress's finding codes for loading and
    validation (`Code`, RP0xx and RP1xx), a code of the plugin's own game's prefix
    (`ORC104`; another prefix gives RP105, naming the code), or None for the usual one
    (RP105 from a model, the check's own code from a check).
    """

    def __init__(
        self,
        message: str,
        path: tuple = (),
        *,
        code: Code | str | None = None,
        document: object = None,
    ) -> None:
        """A problem a plugin's author describes; a bad `path` or `code` is the plugin's
        own bug, so it is a TypeError, which the finding names the plugin for."""
        if not isinstance(path, tuple) or not all(
            isinstance(step, str) or (isinstance(step, int) and not isinstance(step, bool))
            for step in path
        ):
            raise TypeError(f"Problem path must be a tuple of keys and indices, not {path!r}")
        own_or_none = code is None or code in Code._value2member_map_
        if not own_or_none and code_prefix(code) in (None, OWN_PREFIX):
            raise TypeError(
                "Problem code must be None, one of rulepress's codes or one of the "
                f"plugin's own prefix, not {code!r}"
            )
        super().__init__(message)
        self.message = str(message)
        """What is wrong, in the plugin's words: the finding's message."""
        self.path = path
        """Where, as a data path below the value validated (or in `document`)."""
        self.code = Code(code) if code in Code._value2member_map_ else code
        """The finding's code; None for the usual one."""
        self.document = document
        """From a check: the document (or its id) the path is in; None for `ruleset.yaml`."""
