"""A check over the names a ruleset gives its things: one thing named two ways, or two
things named alike (RP234 name-spelled-two-ways).

A ruleset's names are its published documents' names or titles (a skill, a threshold,
a rule) and its glossary's terms. Two spellings of a name are one name when they differ
only in case, in the hyphens, spaces or nothing between their words, or in a plural "s"
(see `name_words`)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.validators.consistency import name_key
from rulepress.validators.registry import Report, check
from rulepress.validators.text_quality import source_prose
from rulepress.validators.word_places import WordReport, reports_at_words

_PART = re.compile(r"[A-Za-z0-9]+")
_NOT_WORDS = re.compile(
    r"\]\([^)\s]*\)|`[^`\n]*`|<[^>\s]*>|(?<![\w-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w-])"
)
"""What a text writes that is no words of its: a link's destination (`](doc:test-pistol)`),
code, an autolink and an id (a lowercase slug, as "ruling rank-zero-skill-test" names
one); masked before names are looked for."""
_JOINED = re.compile(r"[ \t\n-]*")
"""What may stand between two words of a name where it is written: spaces, a line break,
hyphens, or nothing ("Fight or Flight", "Fight-or-Flight", "FightorFlight")."""


def name_words(name: str) -> tuple[str, ...]:
    """The words of a name as RP234 compares names: lowercase, split at everything that
    is not a letter or digit, and a plural "s" dropped from a word of four letters or
    more ("Semi-Auto Shotguns" and "semi auto shotgun" are one name; "TCs" stays)."""
    return tuple(
        word[:-1] if len(word) > 3 and word.endswith("s") else word
        for word in (part.lower() for part in _PART.findall(name))
    )


def _joins(text: str) -> tuple[str, ...]:
    """How a name's written words are joined, each join as written ("-", " ") with a run
    of white space as one space: the spelling that case and a plural leave."""
    parts = list(_PART.finditer(text))
    return tuple(
        re.sub(r"\s+", " ", text[a.end() : b.start()]) for a, b in itertools.pairwise(parts)
    )


@dataclass(frozen=True)
class _Name:
    """A name the ruleset gives something: as written, and whose it is."""

    written: str
    owner: str
    """How a message names its owner: "threat-threshold 'fight-or-flight'", "the glossary"."""


def _names(ruleset: Ruleset) -> list[tuple[_Name, Entry | None]]:
    """Every name of the ruleset: its published documents' (with their entries), then its
    glossary's terms (no entry: they are in ruleset.yaml)."""
    found: list[tuple[_Name, Entry | None]] = []
    for entry in (ruleset.whole or ruleset).entries:
        document = entry.document
        written = _given_name(document)
        if written is not None and not document.is_draft:
            owner = f"{document.kind} '{document.id}'"
            found.append((_Name(written, owner), entry))
    found += [(_Name(term, "the glossary"), None) for term in ruleset.info.glossary]
    return found


def _given_name(document) -> str | None:
    """A document's name or title, None when it has neither (its id is no name)."""
    for field in ("name", "title"):
        value = getattr(document, field, None)
        if isinstance(value, str) and value:
            return value
    return None


def _names_index(document) -> tuple:
    """What RP234 reads of a document: its kind, id, status, name and prose."""
    return (
        document.kind,
        document.id,
        document.is_draft,
        _given_name(document),
        list(source_prose(document)),
    )


@check("RP234", "name-spelled-two-ways", Level.WARNING, index=_names_index)
def name_spelled_two_ways(ruleset: Ruleset):
    """One thing with two names, or two things with one. A name of the ruleset (a
    published document's name or title, or a glossary term) of two words or more is
    written in a text with its words joined otherwise, by a hyphen where the name has a
    space or the other way round, or run together ("Fight-or-Flight" where the threshold
    is named "Fight or Flight"); case and a plural "s" alone are a text's grammar and are
    not reported there. Or two published documents have names that differ only in case,
    joins or a plural "s" ("Semi-Auto Shotgun", "semi auto shotguns"), so one name stands for
    two things; two of one kind whose names differ only in case or punctuation are
    duplicate-name's (RP214). A glossary term that is a document's name is that
    document's definition, not a second thing; a link's destination (`doc:test-pistol`)
    and code are no words, and a text that is only its document's own name (a header
    printed above it) is the header checks'. A text's spelling is reported at the word,
    its first 50 in a file.

    Example: a threshold `name: Fight or Flight`, and `text: Roll the Fight-or-Flight
    check.` in a rule, reported at "Fight-or-Flight"."""
    names = _names(ruleset)
    yield from _one_name_for_two(names)
    by_letters: dict[str, list[_Name]] = {}
    for name, _ in names:
        if len(name_words(name.written)) > 1 and name.written not in {
            n.written for n in by_letters.get(_letters(name.written), [])
        }:
            by_letters.setdefault(_letters(name.written), []).append(name)
    if not by_letters:
        return
    prefixes = frozenset(key[:end] for key in by_letters for end in range(1, len(key) + 1))
    for entry in ruleset.entries:
        found = _spelled_otherwise(entry, by_letters, prefixes)
        yield from reports_at_words(entry, found, "names spelled two ways")


def _letters(text: str) -> str:
    """A name's letters and digits only, lowercase, a plural "s" dropped from its words."""
    return "".join(name_words(text))


def _word(token: str) -> str:
    """One written word as `name_words` reads it."""
    token = token.lower()
    return token[:-1] if len(token) > 3 and token.endswith("s") else token


def _spelled_otherwise(
    entry: Entry, by_letters: dict[str, list[_Name]], prefixes: frozenset[str]
) -> Iterator[WordReport]:
    """Each place a text of `entry` writes a name with its words joined another way: the
    text's words are read once, each run of them joined by spaces, hyphens or nothing
    compared with the names while it is the start of one (time linear in the text)."""
    own = _given_name(entry.document)
    for path, value in source_prose(entry.document):
        masked = _NOT_WORDS.sub(lambda m: " " * len(m.group()), value)
        tokens = list(_PART.finditer(masked))
        words = [_word(token.group()) for token in tokens]
        start = 0
        while start < len(tokens):
            if words[start] not in prefixes:  # most words begin no name: no more work
                start += 1
                continue
            end = _longest_name(masked, tokens, start, by_letters, prefixes)
            if end is None:
                start += 1
                continue
            offset = tokens[start].start()
            written = masked[offset : tokens[end].end()]
            start = end + 1
            names = by_letters[_letters(written)]
            if any(_same_spelling(written, name.written) for name in names):
                continue
            if (
                own is not None
                and _letters(own) == _letters(written)
                and (path in (("name",), ("title",)) or written == value.strip())
            ):
                continue  # the document's own name, or a header that is only that: not a text
            shown = re.sub(r"\s+", " ", written)
            message = (
                f'"{shown}" is written here, but the name of {names[0].owner} is '
                f'"{names[0].written}": one name, two spellings'
            )
            yield WordReport(message, path, value, offset)


def _longest_name(
    text: str,
    tokens: list[re.Match[str]],
    start: int,
    by_letters: dict[str, list[_Name]],
    prefixes: frozenset[str],
) -> int | None:
    """The last token of the longest name written from `tokens[start]` on, its words
    joined by spaces, a line break, hyphens or nothing; None when none is."""
    letters, found = "", None
    for index in range(start, len(tokens)):
        gap = (tokens[index - 1].end(), tokens[index].start()) if index > start else None
        if gap is not None and not _JOINED.fullmatch(text, *gap):
            break
        letters += _word(tokens[index].group())
        if letters in by_letters:  # names of two words or more: one word is run together
            found = index
        if letters not in prefixes:
            break
    return found


def _same_spelling(written: str, name: str) -> bool:
    """`written` is `name` with the same words, joined alike (case and a plural aside)."""
    return name_words(written) == name_words(name) and _joins(written) == _joins(name)


def _one_name_for_two(names: list[tuple[_Name, Entry | None]]) -> Iterator[Report]:
    """A published document whose name is, but for case, joins or a plural, an earlier
    document's (not of its kind with the same name_key: duplicate-name reports those)."""
    seen: dict[tuple[str, ...], tuple[_Name, Entry]] = {}
    for name, entry in names:
        if entry is None:
            continue
        words = name_words(name.written)
        earlier = seen.setdefault(words, (name, entry))
        if earlier[1] is entry:
            continue
        first, first_entry = earlier
        if first_entry.document.kind == entry.document.kind and name_key(first.written) == name_key(
            name.written
        ):
            continue
        field = "name" if getattr(entry.document, "name", None) == name.written else "title"
        how = (
            "the same name"
            if name.written == first.written
            else "names that differ only in case, hyphens or a plural"
        )
        yield Report(
            entry,
            f'"{name.written}" names {name.owner}, and "{first.written}" names {first.owner}: '
            f"{how}, one name for two things",
            (field,),
        )
