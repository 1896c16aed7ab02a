"""Checks over the prose of every document: spelling, and terms the rules never define.

Prose is every value of a `Text` or `Name` field (models.base), however deep in the
document; ids, kinds and other code values are not prose. A finding points at the word
itself in the YAML where it can be found there, and a file reports a bounded number of
words (see rulepress.validators.word_places)."""

from __future__ import annotations

import functools
import re
import typing
from collections.abc import Iterator, Sequence
from importlib import resources

from pydantic import BaseModel, BeforeValidator

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.models import Document
from rulepress.models.base import Name, Text
from rulepress.per_object import PerObject
from rulepress.validators.registry import check
from rulepress.validators.shared import shared
from rulepress.validators.word_places import WORD, WordReport, reports_at_words

_PROSE_VALIDATORS = {
    id(meta.func)
    for annotation in (Text, Name)
    for meta in typing.get_args(annotation)[1:]
    if isinstance(meta, BeforeValidator)
}


# -- prose of a document -------------------------------------------------------------------


def prose(model: BaseModel, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """(data path, text) of every Text or Name value inside `model`, in field order."""
    for name, is_prose in _prose_fields(type(model)):
        yield from _walk(getattr(model, name), (*path, name), is_prose)


def document_prose(document: BaseModel) -> tuple[tuple[tuple, str], ...]:
    """`prose(document)`, walked once in a run of the checks (validators.shared): six
    checks read every document's prose."""
    return shared("prose", document, lambda d: tuple(prose(d)))


@functools.cache
def _prose_fields(cls: type[BaseModel]) -> tuple[tuple[str, bool], ...]:
    """(name, holds prose itself) of each field of `cls` that holds prose or models."""
    fields = []
    for name, info in cls.model_fields.items():
        direct = any(_is_prose_meta(m) for m in info.metadata) or _holds_prose(info.annotation)
        if direct or _holds_models(info.annotation):
            fields.append((name, direct))
    return tuple(fields)


def _is_prose_meta(meta: object) -> bool:
    return isinstance(meta, BeforeValidator) and id(meta.func) in _PROSE_VALIDATORS


def _holds_prose(annotation: object) -> bool:
    if any(_is_prose_meta(m) for m in getattr(annotation, "__metadata__", ())):
        return True
    if typing.get_origin(annotation) is dict:
        return False  # an example's given/expect: keys and code values
    return any(_holds_prose(arg) for arg in typing.get_args(annotation))


def _holds_models(annotation: object) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_holds_models(arg) for arg in typing.get_args(annotation))


def _walk(value: object, path: tuple, is_prose: bool) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, BaseModel):
        yield from prose(value, path)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _walk(item, (*path, index), is_prose)
    elif isinstance(value, str) and is_prose:
        yield path, value


# -- spelling ------------------------------------------------------------------------------


DICTIONARIES = ("dictionary.txt", "dictionary_rare.txt")
"""codespell's "clear" and "rare" dictionaries, its defaults, read whole."""
RUN_TOGETHER_DICTIONARY = "dictionary_code.txt"
"""codespell's "code" dictionary, of which only the run-together words and missing
apostrophes are read ("dont" for "don't", "upto" for "up to"): the rest of it are
programmers' abbreviations that are words in prose ("crate", "lite", "hist")."""
VARIANT_DICTIONARY = "dictionary_en-GB_to_en-US.txt"
"""codespell's British to American spellings: a spelling of one variant is reported only
where the ruleset's texts mostly write the other ("armour" among "defense", "color")."""
# Left out, on purpose: "informal" (gonna, kinda) and "usage" (master, whitelist) advise
# on style, not spelling; "names" flags real names (Tim, Manuel); "en_to_en-OX" asks for
# Oxford -ize spellings, which are no error in either variant.


def _dictionary(name: str, ignored: frozenset[str]) -> dict[str, str]:
    """One of codespell's bundled dictionaries, lowercase misspelling -> its fixes
    ("fix, other fix"), less the `ignored` words."""
    from codespell_lib._spellchecker import Misspelling, build_dict

    found: dict[str, Misspelling] = {}
    with resources.as_file(resources.files("codespell_lib") / "data" / name) as dictionary:
        build_dict(str(dictionary), found, set(ignored))
    return {word: misspelling.data for word, misspelling in found.items()}


def _run_together(word: str, fixes: str) -> bool:
    """Every fix is the word itself with spaces, hyphens or apostrophes put in."""
    joined = [re.sub(r"[ '\-]", "", fix.strip()) for fix in fixes.split(",")]
    return all(fix == re.sub(r"['\-]", "", word) for fix in joined)


@functools.cache
def misspellings() -> dict[str, str]:
    """The misspellings RP231 reports, lowercase misspelling -> suggested fixes: codespell's
    "clear" and "rare" dictionaries and the run-together words of its "code" one (see
    RUN_TOGETHER_DICTIONARY), less the project's word list. Read once, as a library: no
    process per file."""
    ignored = project_words()
    found: dict[str, str] = {}
    for name in DICTIONARIES:
        found.update(_dictionary(name, ignored))
    for word, fixes in _dictionary(RUN_TOGETHER_DICTIONARY, ignored).items():
        if _run_together(word, fixes):
            found.setdefault(word, fixes)
    return found


@functools.cache
def spelling_variants() -> dict[str, str]:
    """British spelling -> American (lowercase), from codespell's en-GB_to_en-US
    dictionary, less the project's word list; the American ones are its values."""
    return _dictionary(VARIANT_DICTIONARY, project_words())


@functools.cache
def project_words() -> frozenset[str]:
    """The games' own terms that codespell would take for misspellings (words.txt beside
    this module, one lowercase word a line, `#` comments)."""
    listed = resources.files("rulepress.validators").joinpath("words.txt").read_text("utf-8")
    return frozenset(
        line.strip().lower()
        for line in listed.splitlines()
        if line.strip() and not line.startswith("#")
    )


@functools.cache
def _american() -> frozenset[str]:
    """The American spellings of the variant dictionary (its fixes)."""
    return frozenset(
        fix.strip() for fixes in spelling_variants().values() for fix in fixes.split(",")
    )


def _variant_counts(document, texts: Sequence[tuple[tuple, str]] | None = None) -> tuple[int, int]:
    """(British, American) spellings of the variant dictionary in a document's prose
    (`texts`, when walked already): what misspelled-word reads of the documents besides
    the one it reports on."""
    british, american = spelling_variants(), _american()
    gb = us = 0
    for _, value in document_prose(document) if texts is None else texts:
        words = WORD.findall(value.lower())
        if british.keys().isdisjoint(words) and american.isdisjoint(words):
            continue  # most texts: two passes in C, none word by word in Python
        gb += sum(map(british.__contains__, words))
        us += sum(map(american.__contains__, words))
    return gb, us


_VARIANT_COUNTS = PerObject()
"""Each document's (British, American) spellings: the same for the unchanged documents
a watch keeps between edits (a tenth of a second at 10,000 weapons each time)."""


@check("RP231", "misspelled-word", Level.WARNING, reads="document", index=_variant_counts)
def misspelled_word(ruleset: Ruleset):
    """A word of a text, name or title is a common misspelling, reported at the word
    itself with the likely fix. The misspellings are codespell's "clear" and "rare"
    dictionaries (its defaults), the run-together words and missing apostrophes of its
    "code" dictionary ("dont", "upto"), and, where a ruleset's texts mostly write one of
    British and American spelling, a spelling of the other ("armour" in a ruleset that
    writes "defense" and "color"; on a tie the British one is reported). A game's own
    term that the dictionaries take for a misspelling belongs in its ruleset's `words:`
    (ruleset.yaml), or, for the games rulepress ships, in rulepress/validators/words.txt;
    a misspelling the source printed is acknowledged. A file reports its first 50
    misspellings, then one finding of how many more it holds.

    Example: `text: Roll teh dice.`, reported as "teh" (did you mean "the"?); `text:
    Dont roll.` (did you mean "don't"?)."""
    known = misspellings()
    own = {word.lower() for word in ruleset.info.words}
    texts = {id(entry.document): document_prose(entry.document) for entry in ruleset.entries}

    def count(document: Document) -> tuple[int, int]:
        return _variant_counts(document, texts.get(id(document)))

    counts = [_VARIANT_COUNTS.get(d, count) for d in ruleset.all(Document, drafts=True)]
    odd = _odd_variant(sum(gb for gb, _ in counts), sum(us for _, us in counts))
    for entry in ruleset.entries:
        found = _misspelt(texts[id(entry.document)], known, own, odd)
        yield from reports_at_words(entry, found, "misspellings")


def _odd_variant(british: int, american: int) -> dict[str, str] | None:
    """The spellings to report as the ruleset's other variant, each with the one the
    ruleset writes instead; None when its texts write only one variant."""
    if not british or not american:
        return None
    pairs = [
        (gb, us.strip()) for gb, fixes in spelling_variants().items() for us in fixes.split(",")
    ]
    if british <= american:
        return dict(pairs)
    return {us: gb for gb, us in pairs}


def _misspelt(
    texts: Sequence[tuple[tuple, str]],
    known: dict[str, str],
    own: set[str],
    odd: dict[str, str] | None,
) -> Iterator[WordReport]:
    """Each misspelt word of a document's prose (`texts`), in order, with its likely fix."""
    for path, value in texts:
        words = set(map(str.lower, WORD.findall(value)))
        if "’" in value:
            words = {word.replace("’", "'") for word in words}
        if known.keys().isdisjoint(words) and (odd is None or odd.keys().isdisjoint(words)):
            continue  # most texts: no word is one to report, told in C
        for match in WORD.finditer(value):
            word = match.group().lower().replace("’", "'")
            if word in own:
                continue
            fixes = known.get(word)
            if fixes is not None:
                suggestion = " or ".join(f'"{fix.strip()}"' for fix in fixes.split(","))
                message = f'"{match.group()}" is a common misspelling (did you mean {suggestion}?)'
            elif odd is not None and word in odd:
                message = (
                    f'"{match.group()}" is spelled in the other variant of English than most '
                    f'of this ruleset, which would write "{odd[word]}"'
                )
            else:
                continue
            yield WordReport(message, path, value, match.start())


# -- terms the rules never define ----------------------------------------------------------

UNIT = re.compile(r"(?<![A-Za-z0-9])[0-9]+ ?([A-Z][A-Za-z]*[A-Z][A-Za-z]*)\b")
"""An abbreviation of two capitals or more written after a number: `1TC`, `13 TCs`, `5AP`."""
NAMED_TEST = re.compile(
    r"(?<![A-Za-z0-9])((?:[A-Z][A-Za-z]*)(?: (?:or|of|and) [A-Z][A-Za-z]*| [A-Z][A-Za-z]*)*)"
    r" (test|check|roll)\b"
)
"""A capitalised name before test, check or roll: `Willpower test`, `FEAR check`."""
_NAMING_WORD = re.compile(
    r"(?:^|\s)(?:a|an|the|their|his|her|your|its|this|that|each|every|[^\s]*[0-9][^\s]*)\s+$",
    re.IGNORECASE,
)
"""What stands before a named test: an article or possessive, or a figure (`a 5AP
Willpower test`). "the PC MUST roll" and a sentence's first word are no names."""
NAMING_REACH = 40
"""How far before a named test `_NAMING_WORD` looks (a figure longer than this is none)."""


def defined_terms(ruleset: Ruleset) -> set[str]:
    """What the ruleset defines, lowercase: its glossary's terms, every document's id,
    name or title (a skill, a trait, a threshold, a rule), and each abbreviation a text
    introduces in parentheses after its long form ("Character Points (or CP)")."""
    terms = {term.lower() for term in ruleset.info.glossary}
    for entry in ruleset.entries:
        document = entry.document
        terms.add(document.id.replace("-", " "))
        terms.add(document.display_name.lower())
        for _, value in document_prose(document):
            for introduced in re.finditer(r"\((?:or )?([A-Z][A-Za-z.]*[A-Z]s?)\)", value):
                terms.add(introduced.group(1).lower())
    return terms


def _is_defined(term: str, defined: set[str]) -> bool:
    """Whether `term` (or its singular) is defined; "STR or AGL" when each of its names is."""
    lowered = term.lower()
    singular = lowered[:-1] if lowered.endswith("s") else lowered
    if lowered in defined or singular in defined:
        return True
    names = re.split(r" (?:or|and) ", term)
    return len(names) > 1 and all(_is_defined(name, defined) for name in names)


def _terms_index(document) -> tuple:
    """What undefined-term reads of a document: its id, name, status and prose."""
    return (document.id, document.display_name, document.is_draft, list(document_prose(document)))


@check("RP232", "undefined-term", Level.INFO, index=_terms_index)
def undefined_term(ruleset: Ruleset):
    """A term the rules use but never define, reported where it is first used (in file
    order). A term is, to keep this low-noise, one of two shapes: a unit, an abbreviation
    of two capitals or more written after a number (`13 TCs`, `5AP`); or a named test, a
    capitalised name before "test", "check" or "roll", after an article, a possessive or
    a figure (`a Willpower test`, `their FEAR check`, `a 5AP Willpower test`). It is
    defined when the ruleset's glossary has it, a document has it as its id, name or
    title (or the name with its "test", "check" or "roll": a document named "Fear
    roll"), or a text introduces it in parentheses after its long form ("Character
    Points (or CP)"); "a STR or AGL roll" when each name is. Case and a plural "s" are
    ignored. A file reports its first 50 such terms, then one finding of how many more.

    Example: `text: Make a Stealth test.` in a ruleset with no Stealth skill and no
    Stealth in its glossary."""
    defined = defined_terms(ruleset)
    reported: set[str] = set()
    for entry in ruleset.entries:
        if not entry.document.is_draft:
            found = _undefined(entry, defined, reported)
            yield from reports_at_words(entry, found, "undefined terms")


def _undefined(entry: Entry, defined: set[str], reported: set[str]) -> Iterator[WordReport]:
    """Each term of an entry's prose that is not defined and not `reported` before."""
    for path, value in document_prose(entry.document):
        for term, offset, spellings in _terms(value):
            if term.lower() in reported or any(_is_defined(s, defined) for s in spellings):
                continue
            reported.add(term.lower())
            message = (
                f'"{term}" is used here but never defined: no glossary entry, document '
                "or text defines it"
            )
            yield WordReport(message, path, value, offset)


def _terms(value: str) -> Iterator[tuple[str, int, tuple[str, ...]]]:
    """(term, offset, the spellings that would define it) of each unit and each named
    test in a text, in text order."""
    found = [(m.group(1), m.start(1), (m.group(1),)) for m in UNIT.finditer(value)]
    for match in NAMED_TEST.finditer(value):
        name = match.group(1)
        # what stands just before the name: never the whole text before it, once a match
        if _NAMING_WORD.search(value, max(0, match.start(1) - NAMING_REACH), match.start(1)):
            found.append((name, match.start(1), (name, f"{name} {match.group(2)}")))
    yield from sorted(found, key=lambda item: item[1])
