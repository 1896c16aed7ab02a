"""Checks over the quality of the prose itself: a word written twice in a row, a source's
own placeholder or "old revision" markers left in its text, and a figure's unit that
nothing defines.

Prose is what `rulepress.validators.prose.prose` walks (every `Text` or `Name` value),
less a document's `acknowledged` reasons: a reason quotes the source's words to say
why a finding is kept, and quoting "a a" must not be a finding again. A finding points
at the word in the YAML, and a file reports a bounded number of them (see
rulepress.validators.word_places)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from pydantic import BaseModel

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.validators.prose import defined_terms, document_prose
from rulepress.validators.registry import check, data_strings, strings_index
from rulepress.validators.word_places import WORD, WordReport, reports_at_words

ALLOWED_TWICE = frozenset({"had", "that"})
"""Words English writes twice on purpose ("he had had enough", "said that that was
all"): never reported as doubled."""
_GAP = re.compile(r"[ \t]+\n?[ \t]*|\n[ \t]*")
"""What stands between two words that reads as nothing: spaces, or one line break (a
blank line, a full stop or a comma between them is a new sentence or clause)."""


def source_prose(document: BaseModel) -> Iterator[tuple[tuple, str]]:
    """(data path, text) of the document's prose, its acknowledgements' reasons left out."""
    for path, value in document_prose(document):
        if path[:1] != ("acknowledged",):
            yield path, value


# -- doubled words -------------------------------------------------------------------------


@check("RP236", "doubled-word", Level.WARNING, reads="document")
def doubled_word(ruleset: Ruleset):
    """A word of a text, name or title is written twice in a row, with nothing but
    spaces or one line break between ("a a", "the\\nthe"), whatever the case of each.
    "had had" and "that that", which English writes on purpose, are not reported, nor
    words a full stop, a comma or a blank line separates. Reported at the second word;
    a file reports its first 50, then how many more.

    Example: `text: Below is a a full list.`, reported at the second "a"."""
    for entry in ruleset.entries:
        yield from reports_at_words(entry, _doubled(entry), "doubled words")


def _doubled(entry: Entry) -> Iterator[WordReport]:
    for path, value in source_prose(entry.document):
        previous = None
        for match in WORD.finditer(value):
            word = match.group()
            if (
                previous is not None
                and word.lower() == previous.group().lower()
                and word.lower() not in ALLOWED_TWICE
                and _GAP.fullmatch(value, previous.end(), match.start())
            ):
                message = (
                    f'"{previous.group()} {word}": the word "{word}" is written twice in a row'
                )
                yield WordReport(message, path, value, match.start())
            previous = match


# -- placeholder and revision markers ------------------------------------------------------

MARKERS = re.compile(
    r"(?<![A-Za-z0-9])(?:TODO|TBD|TBA|FIXME|XXX)(?![A-Za-z0-9])"
    r"|(?i:(?<![A-Za-z])lorem ipsum(?![A-Za-z]))"
    r"|(?i:(?<![A-Za-z])(?:old|older|outdated) revision(?![A-Za-z]))"
)
"""The markers an editor leaves in a text that is not finished or not current: the
placeholders TODO, TBD, TBA, FIXME and XXX (in capitals, as written to be found again),
filler "lorem ipsum", and a wiki's banner of an old revision ("This is an old revision
of the document!", "(old revision)")."""


@check("RP238", "placeholder-marker", Level.WARNING, reads="document")
def placeholder_marker(ruleset: Ruleset):
    """A text, name or title holds a marker its source left in it: a placeholder (TODO,
    TBD, TBA, FIXME or XXX in capitals, or the filler "lorem ipsum") where the text is
    not written yet, or a page's note that it is an old revision ("This is an old
    revision of the document!"), so the text may not be the current rules. Reported at
    the marker; a file reports its first 50, then how many more. A marker the source
    printed is acknowledged with the source's words.

    Example: `text: Damage is TBD.`, reported at "TBD"."""
    for entry in ruleset.entries:
        yield from reports_at_words(entry, _markers(entry), "placeholder markers")


def _markers(entry: Entry) -> Iterator[WordReport]:
    for path, value in source_prose(entry.document):
        for match in MARKERS.finditer(value):
            found = match.group()
            if "ipsum" in found.lower():
                message = f'"{found}" is filler text, not rules'
            elif "revision" in found.lower():
                message = (
                    f'"{found}" marks the text as an old revision: it may not be the current rules'
                )
            else:
                message = f'"{found}" is a placeholder left in the text: it is not written yet'

            yield WordReport(message, path, value, match.start())


# -- units no data defines -----------------------------------------------------------------

GLUED_UNIT = re.compile(r"(?<![A-Za-z0-9.,])[0-9]+(?:\.[0-9]+)?([A-Za-z]+)(?![A-Za-z0-9])")
"""A figure with a word glued to it: `1Bar`, `26Bar`, `10kg`. A die (`2d6`, `1D10`) is
none: a digit follows its letter."""
NOT_UNITS = frozenset({"st", "nd", "rd", "th", "s", "x", "e"})
"""What a figure is written with that is no unit: an ordinal (1st, 2nd, 3rd, 4th), a
plural (the 1990s, roll 10s), a multiple (3x) and an edition (5e)."""
MEASURES = frozenset(
    {"mm", "cm", "m", "km", "g", "kg", "t", "l", "ml", "lb", "lbs", "oz", "in", "ft", "yd"}
    | {"mi", "ms", "sec", "secs", "min", "mins", "h", "hr", "hrs", "mph", "kph", "kmh"}
)
"""Units of measure every reader knows, defined nowhere in a ruleset."""
_ABBREVIATION = re.compile(r"[A-Z][A-Za-z]*[A-Z][A-Za-z]*")
"""Two capitals or more (`TC`, `APs`): undefined-term's units (RP232), not this check's."""


def _data_words(document: BaseModel) -> set[str]:
    """Every one-word string value of a document's data, lowercase (`per: seconds`,
    `unit: Round`)."""
    return {v.lower() for v in data_strings(document) if v.isalpha() and len(v) <= 40}


def defined_units(ruleset: Ruleset) -> set[str]:
    """What names a unit in the ruleset, lowercase: its currency, what undefined-term
    counts as defined (glossary terms; documents' ids, names and titles; abbreviations
    a text introduces), and every one-word value of the data (a time unit's `per:
    seconds`)."""
    units = defined_terms(ruleset)
    if ruleset.info.currency:
        units.add(ruleset.info.currency.lower())
    for entry in (ruleset.whole or ruleset).entries:
        units.update(_data_words(entry.document))
    return units


def _unit_defined(unit: str, defined: set[str]) -> bool:
    lowered = unit.lower()
    singular = lowered[:-1] if lowered.endswith("s") and len(lowered) > 2 else lowered
    return bool({lowered, singular} & (defined | MEASURES))


@check("RP237", "undefined-unit", Level.WARNING, index=strings_index)
def undefined_unit(ruleset: Ruleset):
    """A figure in a text is written with a unit glued to it that nothing in the ruleset
    defines: not its `currency`, no glossary term, no document's id, name or title, no
    one-word value of any document's data (a time unit's `per: seconds`), no
    abbreviation a text introduces, and no common unit of measure (kg, km, min...). So
    a reader cannot tell what the figure counts. Ordinals (4th), plurals (10s), dice
    (2d6), multiples (3x) and editions (5e) are no units; abbreviations of two capitals
    or more (`13TCs`) are undefined-term's (RP232). Case and a plural "s" are ignored.
    Reported where the unit is first used in the ruleset (in file order).

    Example: `text: A pistol costs 1Bar.` in a ruleset with no `currency: Bar` and no
    Bar in its glossary."""
    # worked out at the first glued unit: most rulesets have none, and the walk over
    # every document's data costs half a second at 10,000 weapons
    defined = functools.cache(lambda: defined_units(ruleset))
    reported: set[str] = set()
    for entry in ruleset.entries:
        yield from reports_at_words(entry, _units(entry, defined, reported), "undefined units")


def _units(
    entry: Entry, defined: Callable[[], set[str]], reported: set[str]
) -> Iterator[WordReport]:
    for path, value in source_prose(entry.document):
        for match in GLUED_UNIT.finditer(value):
            unit = match.group(1)
            if (
                unit.lower() in NOT_UNITS
                or _ABBREVIATION.fullmatch(unit)
                or unit.lower() in reported
                or _unit_defined(unit, defined())
            ):
                continue
            reported.add(unit.lower())
            message = (
                f'"{match.group()}": the unit "{unit}" is defined nowhere in this ruleset (no '
                "currency, glossary entry, document or data names it)"
            )
            yield WordReport(message, path, value, match.start(1))
