"""The ruleset document: one per compendium folder (`ruleset.yaml`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from rulepress.models.base import Document, Model, Name, Slug, Text
from rulepress.models.translation import Language

GLOSSARY_TERM = r"^[A-Za-z][A-Za-z0-9-]*(?: [A-Za-z0-9-]+)*$"
"""A glossary term: words of letters, digits and dashes, one space apart, a letter first;
the site's abbreviations (exporters.escaping) take the same."""

Version = Annotated[str, StringConstraints(pattern=r"^\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.-]+)?$")]


class SourceCredit(Model):
    """A published text the ruleset's data comes from, credited as its authors ask."""

    title: Name
    author: Name
    credit: Text
    """The attribution every export shows."""
    document: Name | None = None
    """The source file the data was taken from."""
    published: Name | None = None


class LanguagePlan(Model):
    """A language the ruleset is translated into (its `translations/<code>/` folder)."""

    code: Language
    """Its BCP 47 tag, as Material and Foundry take it: `de`, `pt-BR`, `ar`."""
    name: Name
    """The language's name in itself (`Deutsch`), for the site's language switcher."""
    required: bool = False
    """Whether the language must be complete: its untranslated texts are then a warning,
    which `validate --strict` fails on (else they are counted as info)."""
    fallback_note: Text | None = None
    """The line, in this language, that opens an edition whose texts are not all
    translated yet; `{untranslated}`, `{texts}` and `{language}` are filled in. Default:
    an English line saying how many texts show in the source's language."""


class ChapterPlan(Model):
    """One chapter of the ruleset's guide, and the kinds whose sections it holds."""

    title: Name
    kinds: list[Slug] = []
    """Document kinds placed in this chapter (`weapon-section`, `step-dice`...); a kind
    placed in no chapter goes to the chapter its registry entry names."""


class RulesetInfo(Document):
    """A game's rules: the folder's `ruleset.yaml`."""

    KIND = "ruleset"
    kind: Literal["ruleset"]
    title: Name
    version: Version
    """Semantic version of this ruleset's data (quote it: `"1.10"`, not 1.10)."""
    game: Name
    system: Slug
    """Which dice mechanics the ruleset's rules use (`iris-ap`, `t2k4e-step-dice`...)."""
    summary: Text
    sources: Annotated[list[SourceCredit], Field(min_length=1)]
    currency: Name | None = None
    """Unit of weapon costs, where the ruleset prices gear."""
    chapters: list[ChapterPlan] = []
    """The guide's chapters in reading order. A chapter a rule text names but this list
    does not comes after these, in alphabetical order."""
    glossary: dict[
        Annotated[str, StringConstraints(pattern=GLOSSARY_TERM, max_length=60)], Text
    ] = {}
    """Rule terms and their definitions; the site shows a term's definition on hover. A
    term is one word or several, one space apart (`AP`, `Close Combat`)."""
    languages: Annotated[list[LanguagePlan], Field(max_length=50)] = []
    """The languages the ruleset is translated into, besides its own."""
    words: Annotated[
        list[Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z'-]*$", max_length=60)]],
        Field(max_length=1000),
    ] = []
    """The game's own words that the spelling check (RP231) would take for misspellings:
    each is accepted in this ruleset's texts, whatever its case."""
