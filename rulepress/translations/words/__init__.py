"""rulepress's own words in each language: what the templates write around the data
("Example:", "See also:", "Rulings", a table's headers), from a catalog per language.

The catalogs are YAML files of `key: text`, one per language, bundled beside this
module (`en.yaml`, `de.yaml`); a plugin ships its own beside its templates
(`<templates>/words/<language>.yaml`, rulepress.kinds' template folders), found as its
templates are. English is complete (every key a template uses is in `en.yaml`, and in a
plugin's own `en.yaml`); another language's catalog may lack keys, which then show in
English, and names no key English lacks. A language is looked up by its tag (`pt-BR`),
then its primary subtag (`pt`); one with no catalog at all shows English words, with a
notice once per run. A text's `{name}` is a placeholder the template fills (`fill`).

A template reads them as `{{ words.example }}` (rulepress.exporters.templating); a
missing key is an error there, as any undefined name is.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import yaml

from rulepress import kinds
from rulepress.errors import RulepressError
from rulepress.files import read_regular
from rulepress.progress import notice

BUNDLED = Path(__file__).parent
"""rulepress's own catalogs."""
SOURCE = "en"
"""The complete catalog, which every other falls back to."""
FOLDER = "words"
"""A plugin's catalogs: this folder of its templates folder."""
MAX_CATALOG_BYTES = 1 << 20

_KEY = re.compile(r"[a-z][a-z0-9_]*")

__all__ = ["BUNDLED", "SOURCE", "Words", "catalog_folders", "fill", "words"]


class Words(Mapping[str, str]):
    """The words of one language: key -> text, English where the language has none."""

    def __init__(self, language: str, texts: Mapping[str, str], own: frozenset[str]) -> None:
        """`texts` holds every key (English filling the gaps); `own` the keys that the
        language's own catalogs word."""
        self.language = language
        self._texts = dict(texts)
        self.own = own

    def __getitem__(self, key: str) -> str:
        """The text of `key` (KeyError for a key no catalog has)."""
        return self._texts[key]

    def __iter__(self) -> Iterator[str]:
        """Every key."""
        return iter(self._texts)

    def __len__(self) -> int:
        """How many keys."""
        return len(self._texts)

    def __repr__(self) -> str:
        """The language and how many of its keys are its own."""
        return f"Words({self.language!r}, {len(self)} keys, {len(self.own)} its own)"

    def language_of(self, key: str) -> str:
        """The language `key`'s text is in: this one's, or English where it falls back."""
        return self.language if key in self.own else SOURCE


def fill(text: str, **values: object) -> str:
    """`text` with each `{name}` replaced by the text of `values[name]` (only those: a
    catalog's text is not a format string), as the templates' `fill` filter."""
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def catalog_folders() -> list[Path]:
    """Where catalogs are read from: rulepress's, then each plugin's `words/` folder."""
    folders = [BUNDLED]
    folders += [f / FOLDER for f in kinds.template_folders() if (f / FOLDER).is_dir()]
    return folders


def words(language: str) -> Words:
    """The words of `language` (a BCP 47 tag), from every catalog folder; English where
    the language's catalogs lack a key, and English with one notice when it has none."""
    return _words(language, tuple(catalog_folders()))


@functools.cache
def _words(language: str, folders: tuple[Path, ...]) -> Words:
    english = _merged(SOURCE, folders)
    primary = language.split("-")[0].lower()
    if primary == SOURCE:
        return Words(language, english, frozenset(english))
    texts, own, found = dict(english), set(), False
    for candidate in dict.fromkeys((primary, language)):  # the more precise tag wins
        found = found or _has_catalog(candidate, folders)
        catalog = _merged(candidate, folders, english)
        texts |= catalog
        own |= set(catalog)
    if not found:
        notice(f"words: rulepress has no words in {language!r}: its outputs show English words")
    return Words(language, texts, frozenset(own))


def _has_catalog(language: str, folders: tuple[Path, ...]) -> bool:
    return any((folder / f"{language}.yaml").is_file() for folder in folders)


def _merged(
    language: str, folders: tuple[Path, ...], english: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Every folder's catalog of `language`, merged; a key two folders word is refused,
    as is (when `english` is given) a key English lacks."""
    merged: dict[str, str] = {}
    for folder in folders:
        path = folder / f"{language}.yaml"
        if not path.is_file():
            continue
        catalog = _read(path)
        for key in catalog:
            if key in merged:
                raise RulepressError(f"{path}: the word {key!r} is another catalog's too")
            if english is not None and key not in english:
                raise RulepressError(f"{path}: the word {key!r} is not in English's catalog")
        merged |= catalog
    return merged


def _read(path: Path) -> dict[str, str]:
    """A catalog: a mapping of keys (lower case, digits, `_`) to texts."""
    try:
        data = yaml.safe_load(read_regular(path, MAX_CATALOG_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise RulepressError(f"{path}: not a catalog of words: {error}") from None
    if not isinstance(data, dict):
        raise RulepressError(f"{path}: a catalog of words is a mapping of key: text")
    for key, text in data.items():
        if not isinstance(key, str) or not _KEY.fullmatch(key) or hasattr(Words, key):
            raise RulepressError(f"{path}: {key!r} is not a word's key (a-z, 0-9, _)")
        if not isinstance(text, str):
            raise RulepressError(f"{path}: the word {key!r} is not a text")
    return data
