"""`rulepress schema`: JSON Schema for every document kind, generated from the models.

Field docstrings become `description`s, so an editor with yaml-language-server shows them
on hover; `compendium.schema.json` picks the kind's schema by `kind`, and the repository's
`.vscode/settings.json` associates it with every file under `compendium/`, and
`settings.schema.json` with `rulepress.yaml`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Union

from pydantic import Field, TypeAdapter

from rulepress import kinds
from rulepress.errors import RulepressError
from rulepress.models.settings import Settings

SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"


def kind_schema(kind: str) -> dict:
    """One kind's JSON Schema: editors check and complete a document of the kind with it."""
    schema = kinds.models()[kind].model_json_schema(mode="validation")
    return {"$schema": SCHEMA_URI, **schema}


def compendium_schema() -> dict:
    """One schema for any compendium file: the document kind chosen by `kind`."""
    union = Annotated[Union[tuple(kinds.models().values())], Field(discriminator="kind")]  # noqa: UP007
    schema = TypeAdapter(union).json_schema(mode="validation")
    return {"$schema": SCHEMA_URI, "title": "rulepress compendium document", **schema}


def settings_schema() -> dict:
    """The schema of the publisher's settings file, rulepress.yaml."""
    schema = Settings.model_json_schema(mode="validation")
    return {"$schema": SCHEMA_URI, "title": "rulepress settings (rulepress.yaml)", **schema}


def schemas() -> dict[str, dict]:
    """File name -> schema, for every kind, the compendium-wide union and the settings."""
    files = {f"{kind}.schema.json": kind_schema(kind) for kind in sorted(kinds.models())}
    files["compendium.schema.json"] = compendium_schema()
    files["settings.schema.json"] = settings_schema()
    return files


def render(schema: dict) -> str:
    """A schema as its file holds it: keys sorted, so a file changes only where its models did."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(out: Path) -> list[Path]:
    """Write every schema into `out`: the paths written."""
    written = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, schema in schemas().items():
            path = out / name
            path.write_text(render(schema), encoding="utf-8")
            written.append(path)
    except OSError as exc:
        raise RulepressError(f"cannot write schemas to {out}: {exc.strerror or exc}") from None
    return written
