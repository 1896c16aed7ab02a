"""Rows that cover inclusive ranges of whole numbers, shared by every table whose rows do:
a roll table's results (`5`, `"5-9"`, `"96-00"`) and a level table's rows (a Corruption
level, up to the next row's). One place finds their gaps, overlaps and values outside
what can be rolled, and reports each at the row's own field, as pydantic errors: the
loader makes them findings at that field's `path:line:col` (RP105, or RP104 for a value
outside the roll's range)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, Field, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

T = TypeVar("T")

HUNDRED = "00"
"""How d100 tables print 100 (`96-00`): read as 100 at either end of a range."""
RANGE_TEXT = r"^(?:-?[0-9]{1,5}|00)(?:-(?:-?[0-9]{1,5}|00))?$"
_RANGE = re.compile(r"^(-?[0-9]{1,5})(?:-(-?[0-9]{1,5}))?$")
MOST = 99_999
"""The largest value a range may name (a d1000 table needs 1000)."""


@dataclass(frozen=True, order=True)
class Span:
    """An inclusive range of whole numbers, `low` to `high`."""

    low: int
    high: int

    def __str__(self) -> str:
        """As a table prints it: `5`, or `5-9`."""
        return f"{self.low}" if self.low == self.high else f"{self.low}-{self.high}"


def _end(text: str) -> int:
    return 100 if text == HUNDRED else int(text)


def parse_range(value: int | str) -> Span:
    """The span a row's range names: a whole number (`5`), or two joined by a hyphen
    (`"5-9"`, `"-1-2"`), either end `00` for 100 (`"96-00"`). ValueError if it names none,
    or if it is reversed."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"a range is a whole number or `low-high`, not {value!r}")
    if isinstance(value, int):
        span = Span(value, value)
    else:
        found = _RANGE.match(value)
        if found is None:
            raise ValueError(f"{value!r} is not a range: write a number or `low-high` (`5-9`)")
        low = _end(found.group(1))
        span = Span(low, _end(found.group(2)) if found.group(2) else low)
    if span.low > span.high:
        raise ValueError(f"the range {value!r} is reversed: {span.low} > {span.high}")
    if max(abs(span.low), abs(span.high)) > MOST:
        raise ValueError(f"the range {value!r} goes beyond ±{MOST}")
    return span


def invalid(message: str, error_type: str = "value_error") -> PydanticCustomError:
    """A pydantic error saying `message` as it is (a brace in it is not a placeholder)."""
    return PydanticCustomError(error_type, message.replace("{", "(").replace("}", ")"))


def checked_by(parse: Callable[[Any], object]) -> Callable[[T], T]:
    """A validator keeping a value as written once `parse` reads it; what `parse` refuses
    (a ValueError) is the finding's message."""

    def checked(value: T) -> T:
        try:
            parse(value)
        except ValueError as error:
            raise invalid(str(error)) from None
        return value

    return checked


RowRange = Annotated[
    Annotated[int, Field(ge=-MOST, le=MOST)]
    | Annotated[str, Field(json_schema_extra={"pattern": RANGE_TEXT})],
    AfterValidator(checked_by(parse_range)),
]
"""A row's range as written: `5`, `"5-9"`, `"96-00"` (kept as written; `parse_range` reads it)."""


@dataclass(frozen=True)
class RowProblem:
    """What is wrong with one row's range, at the data path of the field that says so."""

    path: tuple
    """The field's path in the document (`("rows", 3, "range")`)."""
    message: str
    value: object
    """The value written there, which the finding shows."""
    outside: bool = False
    """The value is outside the range the roll can give (RP104, not RP105)."""


def overlaps(spans: Sequence[Span], path) -> list[RowProblem]:
    """Each row whose span shares values with an earlier-starting row's, at `path(index)`."""
    problems = []
    order = sorted(range(len(spans)), key=lambda i: (spans[i].low, i))
    reach: int | None = None  # the row reaching highest so far, in ascending order
    for index in order:
        span = spans[index]
        if reach is not None and span.low <= spans[reach].high:
            shared = Span(span.low, min(span.high, spans[reach].high))
            problems.append(
                RowProblem(
                    path(index),
                    f"{span} overlaps rows[{reach}] ({spans[reach]}) at {shared}",
                    str(span),
                )
            )
        if reach is None or span.high > spans[reach].high:
            reach = index
    return problems


def gaps(spans: Sequence[Span], outcomes: Sequence[int], path) -> list[RowProblem]:
    """Each run of `outcomes` (ascending) that no span covers, at the first row after it
    (or, for a run after every row, at the row starting last)."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i].low, i))
    problems: list[RowProblem] = []
    run: list[int] = []
    cursor, covered_to, after_run = 0, None, 0

    def close() -> None:
        missing = Span(run[0], run[-1])
        if after_run < len(order):
            where, side = order[after_run], "before"
        else:
            where, side = order[-1], "after"
        message = f"no row covers {missing}, just {side} this row"
        problems.append(RowProblem(path(where), message, str(spans[where])))
        run.clear()

    for value in outcomes:
        while cursor < len(order) and spans[order[cursor]].low <= value:
            high = spans[order[cursor]].high
            covered_to = high if covered_to is None else max(covered_to, high)
            cursor += 1
        if covered_to is not None and value <= covered_to:
            if run:
                close()
        else:
            run.append(value)
            after_run = cursor  # the first row starting above the run so far
    if run:
        close()
    return problems


def raise_problems(title: str, problems: Sequence[RowProblem]) -> None:
    """Raise the problems as one ValidationError, each at its own path: pydantic adds the
    document's path before them, the loader places each at its field's line."""
    if not problems:
        return
    errors = [
        InitErrorDetails(
            type=invalid(problem.message, "less_than_equal" if problem.outside else "value_error"),
            loc=problem.path,
            input=problem.value,
        )
        for problem in problems
    ]
    raise ValidationError.from_exception_data(title, errors)


def level_spans(levels: Sequence[int], ends: Sequence[int | None]) -> list[Span]:
    """The span of each row of a level table: from its level to its `end` where it gives
    one, else up to the level before the next row's, the last row only its own level."""
    spans = []
    for index, level in enumerate(levels):
        end = ends[index]
        if end is None:
            end = levels[index + 1] - 1 if index + 1 < len(levels) else level
        spans.append(Span(level, max(level, end)))
    return spans


def level_problems(levels: Sequence[int], ends: Sequence[int | None]) -> list[RowProblem]:
    """A level table's rows whose `to` ends them before their level, reaches into the next
    row or leaves levels out before it, at each row's `to` or `level`. Levels out of order
    or repeated are the level-order check's (RP218), which names the level it follows."""
    if any(later <= earlier for earlier, later in itertools.pairwise(levels)):
        return []
    reversed_ends = [
        RowProblem(("rows", i, "to"), f"the row ends before its level {level}", end)
        for i, (level, end) in enumerate(zip(levels, ends, strict=True))
        if end is not None and end < level
    ]
    if reversed_ends:
        return reversed_ends
    spans = level_spans(levels, ends)
    at = lambda index: ("rows", index, "level")  # noqa: E731
    inside = range(min(s.low for s in spans), max(s.high for s in spans) + 1)
    return overlaps(spans, at) + gaps(spans, inside, at)
