"""`rulepress new`: write a valid skeleton document in the right place.

A new weapon is a draft (its figures are not written yet), so the compendium stays valid
and the draft check reminds everyone it is unfinished. The new file is checked as
`validate` checks files (the models, then the cross-document checks with the ruleset it
joins) before it is written; a file is never written over, nor through a link.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rulepress.commands.options import (
    Text,
    choose_ruleset,
)
from rulepress.compendium.findings import validated
from rulepress.compendium.loader import load_compendium
from rulepress.compendium.model import Compendium, Entry, Ruleset
from rulepress.compendium.writer import dump_data
from rulepress.compendium.yaml_source import parse_yaml
from rulepress.errors import Level, RulepressError
from rulepress.output_names import safe_child, slug
from rulepress.validators import run_checks

MAX_ID = 80  # the models' longest slug


def target_ruleset(compendium: Path, ruleset_id: str | None, model: type) -> Ruleset:
    """The ruleset named, or the one `choose_ruleset` finds for a new `model` document
    (the compendium as it is read, findings and all)."""
    return choose_ruleset(load_compendium(compendium).compendium, ruleset_id, model)


def create_document(ruleset: Ruleset, parts: tuple[str, ...], data: dict) -> Path:
    """Check `data` as the file `parts` of `ruleset` would be checked, then write it."""
    path = safe_child(ruleset.folder, *parts)
    text = dump_data(data)
    parsed, source = parse_yaml(text, path)
    document, problems = validated(data["kind"], parsed, source)
    if document is None:
        raise _refusal(problems)
    joined = dataclasses.replace(ruleset, entries=(*ruleset.entries, Entry(document, source)))
    findings = run_checks(Compendium(ruleset.folder, {ruleset.id: joined}))
    errors = [f for f in findings if f.level == Level.ERROR and f.file == path]
    if errors:
        raise _refusal(errors)
    _write_new(path, text)
    return path


def _refusal(findings: list) -> RulepressError:
    first = findings[0]
    more = f" (and {len(findings) - 1} more)" if len(findings) > 1 else ""
    return RulepressError(f"{first.code}: {first.message}{more}; nothing was written")


def _write_new(path: Path, text: str) -> None:
    created = False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8") as handle:  # "x": never over a file or link
            created = True
            handle.write(text)
    except FileExistsError:
        raise RulepressError(f"{path} already exists") from None
    except OSError as exc:
        if created:
            path.unlink(missing_ok=True)
        raise RulepressError(f"cannot write {path}: {exc.strerror or exc}") from None


def free_id(ruleset: Ruleset, name: str) -> str:
    """The id a new document named `name` gets: its slug, unless another has it."""
    if "/" in name or "\\" in name:
        raise RulepressError(
            f"the name {name!r} looks like a path: give the document's name; "
            "its file is named after it"
        )
    document_id = slug(name)
    if not document_id:
        raise RulepressError(f"cannot make an id from {name!r}")
    if len(document_id) > MAX_ID:
        raise RulepressError(
            f"the name is too long: its id would have {len(document_id)} characters, "
            f"at most {MAX_ID}"
        )
    if ruleset.get(document_id) is not None:
        raise RulepressError(f"id '{document_id}' is already used in ruleset '{ruleset.id}'")
    return document_id


NAME = Text("cannot make an id from ''")
"""A document's name: its id is made from it."""
