"""A translation: one document's texts in another language, each with the digest of the
source text it was made from, so a later change of the source shows (RP401)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, StringConstraints, model_validator

from rulepress.models.base import PRINTABLE, Document, Model, Slug, Text, _text

LANGUAGE_TAG = r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
"""A BCP 47 language tag as Material and Foundry take it: `de`, `pt-BR`, `zh-Hant`."""

Language = Annotated[str, StringConstraints(pattern=LANGUAGE_TAG, max_length=35)]
Digest = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16}$")]
"""The first 16 hex digits of the SHA-256 of the source text (rulepress.translations.digest)."""
FieldPath = Annotated[
    str, StringConstraints(min_length=1, max_length=200, pattern=r"^[^\s\[.][^\n\[\]]*(\[.*)?$")
]
"""A text field's data path, spelled as an acknowledgement's `at` is: `name`,
`rulings[0].question`, `glossary.Close Combat`."""
TranslatedWords = Annotated[
    str,
    StringConstraints(max_length=20_000, pattern=PRINTABLE),
    BeforeValidator(_text),
]
"""A translated text; empty while it is still to be translated (the source shows)."""


class TranslatedText(Model):
    """One text field in the translation's language."""

    text: TranslatedWords
    """The translation; "" while nobody has translated it yet (outputs show the source's)."""
    digest: Digest
    """The digest of the source text this translation was made from: when the source
    changes, the translation is stale until a translator reviews it."""
    source: Text | None = None
    """The source text it was made from, as `rulepress translate` writes it beside the
    translation: what a reviewer compares, and the old text a stale finding shows."""


class Translation(Document):
    """A document's texts in one language: a file below the ruleset's
    `translations/<language>/` folder. It holds only text fields (names, rules text,
    rulings, glossary definitions), never a figure or an id."""

    KIND = "translation"
    kind: Literal["translation"]
    id: Slug = ""
    """Filled in from `document` and `language` (`fear-roll-de`) unless given."""
    document: Slug
    """The id of the document translated; the ruleset's id for its `ruleset.yaml`."""
    language: Language
    texts: Annotated[dict[FieldPath, TranslatedText], Field(max_length=10_000)] = {}
    """Each translated field by its data path."""

    @model_validator(mode="before")
    @classmethod
    def _identity(cls, data: object) -> object:
        """A translation is named by what it translates: its id need not be written."""
        if isinstance(data, dict) and "id" not in data:
            document, language = data.get("document"), data.get("language")
            if isinstance(document, str) and isinstance(language, str):
                data = {**data, "id": f"{document}-{language.lower()}"}
        return data
