"""The documentation pages generated from the code, run by mkdocs-gen-files at each build.

The settings reference walks the settings model (each field's docstring is its
description), and the finding codes render the template the rules site's contributing
page includes: the docs cannot drift from what rulepress checks and accepts. Each is
appended to its page's hand-written part in docs/ (settings.md, finding-codes.md).
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Iterator

import mkdocs_gen_files
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from rulepress.exporters.site.pages import finding_codes, pages_environment
from rulepress.models import settings as settings_module
from rulepress.models.base import Slug
from rulepress.models.settings import PLACEHOLDERS, SETTINGS_FILE, Settings

# The settings' own type aliases, by the name a publisher reads (pydantic keeps them
# whole only inside a union or a list; a bare one is its base type with constraints).
ALIASES = {
    settings_module.Url: "URL",
    settings_module.UrlPattern: "URL pattern",
    settings_module.Pattern: "pattern",
    settings_module.RepositoryPath: "path",
    Slug: "slug",
}


def setting_rows(model: type[BaseModel], prefix: str = "") -> Iterator[tuple[str, FieldInfo]]:
    """(dotted name, field) for every field of `model` and of the models below it; a list
    of models reads as `name[]`."""
    for name, field in model.model_fields.items():
        dotted = f"{prefix}{name}"
        yield dotted, field
        below = nested_model(field.annotation)
        if below is not None:
            is_list = typing.get_origin(field.annotation) is list
            yield from setting_rows(below, f"{dotted}[]." if is_list else f"{dotted}.")


def nested_model(annotation) -> type[BaseModel] | None:
    """The model a field holds, directly or as a list's items."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) is list:
        return nested_model(typing.get_args(annotation)[0])
    return None


def description(field: FieldInfo) -> str:
    """A field's docstring; a field holding a model is described by the model's."""
    if field.description:
        return field.description
    below = nested_model(field.annotation)
    return (below.__doc__ or "") if below is not None else ""


def field_type(field: FieldInfo) -> str:
    """A field's type as the reference shows it (its constraints put back on, so that an
    alias such as `Pattern` is known by its name)."""
    if field.metadata:
        return type_name(typing.Annotated[(field.annotation, *field.metadata)])
    return type_name(field.annotation)


def type_name(annotation) -> str:
    """How a type reads in the reference: `text`, `URL or none`, `list of path`."""
    for alias, name in ALIASES.items():
        if annotation == alias:
            return name
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return type_name(args[0])
    if origin in (typing.Union, types.UnionType):
        named = [type_name(arg) for arg in args if arg is not type(None)]
        return " or ".join(named) + (" or none" if type(None) in args else "")
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{value}`" for value in args)
    if origin is list:
        item = nested_model(args[0])
        return "list of entries (below)" if item else f"list of {type_name(args[0])}"
    if origin is dict:
        return f"mapping of {type_name(args[0])} to {type_name(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "section"
    return {str: "text", int: "integer", float: "number", bool: "true or false"}.get(
        annotation, getattr(annotation, "__name__", str(annotation))
    )


def default_text(field: FieldInfo) -> str:
    """A field's default as YAML would spell it, or what stands for it."""
    if field.is_required():
        return "required"
    default = field.default
    if default is PydanticUndefined:
        return ""
    if isinstance(default, BaseModel):
        return "(its fields' defaults)"
    if default is None:
        return "none"
    return f"`{json.dumps(default)}`"


def cell(text: str) -> str:
    """Text for one table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def settings_page() -> str:
    """The settings reference: one row per setting, by its dotted name (appended to
    docs/settings.md, whose hand-written part says how the file is read)."""
    lines = [
        "## Every setting",
        "",
        f"A content repository's `{SETTINGS_FILE}`, beside its `compendium/` folder, sets how "
        "the outputs present the rules. Every setting has a default, so the file and each "
        "of its parts may be left out; an unknown key or a wrong value is a finding at "
        "`path:line:col`, like the data's. `--settings FILE` names another file, and "
        "`rulepress schema` writes `settings.schema.json` for editors.",
        "",
        "```yaml",
        "site:",
        "  title: My rules",
        "  url: https://me.github.io/my-rules/",
        "  repository: https://github.com/me/my-rules",
        "foundry:",
        "  id_prefix: my-rules",
        "  manifest: https://github.com/me/my-rules/releases/latest/download/{module}.json",
        "guides:",
        "  title: '{ruleset}: quick reference'",
        "```",
        "",
        "A *path* is a file of the content repository, relative to "
        f"`{SETTINGS_FILE}`. A *pattern* is one line of text that may name these in braces "
        "(so may a URL pattern: `foundry`'s URLs); each ruleset's output fills them in. "
        "`{{` and `}}` write a brace; a placeholder is the bare name, without a format "
        "spec, conversion, attribute or index:",
        "",
        *(f"- `{{{name}}}`: {meaning}" for name, meaning in PLACEHOLDERS.items()),
        "",
        "| Setting | Type | Default | Description |",
        "| --- | --- | --- | --- |",
    ]
    for dotted, field in setting_rows(Settings):
        lines.append(
            f"| `{dotted}` | {cell(field_type(field))} | {cell(default_text(field))} "
            f"| {cell(description(field))} |"
        )
    return "\n".join(lines) + "\n"


def finding_codes_page() -> str:
    """Every finding code, from the template the rules site's contributing page includes
    (appended to docs/finding-codes.md, whose hand-written part sums the codes up by range)."""
    codes = pages_environment().get_template("finding-codes.md.j2").render(**finding_codes())
    intro = (
        "`rulepress validate` prints each finding as `path:line:col: level CODE: message`. "
        "The codes below are generated from rulepress itself: the reading and model codes "
        "from `rulepress.errors`, the checks across documents from each check's docstring "
        "in `rulepress/validators/` (an installed plugin's under its package). The rules "
        "site's contributing page shows the same.\n\n"
    )
    return intro + codes


# "a": each page's hand-written part in docs/ comes first, the generated reference after it.
with mkdocs_gen_files.open("settings.md", "a") as page:
    page.write("\n" + settings_page())
with mkdocs_gen_files.open("finding-codes.md", "a") as page:
    page.write("\n" + finding_codes_page())
