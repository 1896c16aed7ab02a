"""`rulepress new`: write a valid skeleton document in the right place.

A new weapon is a draft (its figures are not written yet), so the compendium stays valid
and the draft check reminds everyone it is unfinished. The new file is checked as
`validate` checks files (the models, then the cross-document checks with the ruleset it
joins) before it is written; a file is never written over, nor through a link.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from rulepress.commands.options import (
    TEXT,
    Text,
    choose_ruleset,
    compendium_option,
    ruleset_option,
)
from rulepress.compendium.findings import validated
from rulepress.compendium.loader import load_compendium
from rulepress.compendium.model import Compendium, Entry, Ruleset
from rulepress.compendium.writer import dump_data
from rulepress.compendium.yaml_source import parse_yaml
from rulepress.errors import Level, RulepressError
from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.weapon import WeaponProfile, WeaponSection
from rulepress.kinds.builtin import SKILL_CATEGORIES
from rulepress.output_names import safe_child, slug
from rulepress.validators import run_checks

MAX_ID = 80  # the models' longest slug


def _ruleset(compendium: Path, ruleset_id: str | None, model: type) -> Ruleset:
    """The ruleset named, or the one `choose_ruleset` finds for a new `model` document."""
    return choose_ruleset(load_compendium(compendium).compendium, ruleset_id, model)


def _create(ruleset: Ruleset, parts: tuple[str, ...], data: dict) -> Path:
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


def _free_id(ruleset: Ruleset, name: str) -> str:
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


def new_weapon(
    compendium: Path, ruleset_id: str | None, name: str, section: str, tier: int
) -> Path:
    """Write a draft weapon, last in its section: the new file's path."""
    ruleset = _ruleset(compendium, ruleset_id, WeaponProfile)
    if not isinstance(ruleset.get(section), WeaponSection):
        known = ", ".join(s.id for s in ruleset.all(WeaponSection, drafts=True))
        raise RulepressError(f"no weapon section '{section}' (known: {known})")
    order = 1 + max(
        (w.order for w in ruleset.all(WeaponProfile, drafts=True) if w.section == section),
        default=0,
    )
    weapon_id = _free_id(ruleset, name)
    data = {
        "kind": "weapon",
        "id": weapon_id,
        "status": "draft",
        "name": name,
        "header": name,
        "tier": tier,
        "section": section,
        "order": order,
    }
    return _create(ruleset, ("weapons", section, f"{weapon_id}.yaml"), data)


def new_skill(
    compendium: Path, ruleset_id: str | None, name: str, category: str, traits: list[str]
) -> Path:
    """Write a skill, last in the skills' order: the new file's path."""
    ruleset = _ruleset(compendium, ruleset_id, Skill)
    order = 1 + max((s.order for s in ruleset.all(Skill, drafts=True)), default=0)
    skill_id = _free_id(ruleset, name)
    data = {
        "kind": "skill",
        "id": skill_id,
        "name": name,
        "category": category,
        "order": order,
        "traits": traits,
    }
    return _create(ruleset, ("skills", f"{skill_id}.yaml"), data)


# The kinds' `new` commands (rulepress.kinds.builtin names them; rulepress.cli loads them).


NAME = Text("cannot make an id from ''")
"""A document's name: its id is made from it."""


@click.command("weapon")
@click.argument("name", type=NAME)
@click.option(
    "--section", type=TEXT, required=True, help="Weapon section id (pistols, shotguns...)."
)
@click.option(
    "--tier", type=click.IntRange(1, 10), default=1, show_default=True, help="The weapon's tier."
)
@ruleset_option(WeaponProfile)
@compendium_option
def new_weapon_command(name, section, tier, ruleset_id, compendium):
    """A draft weapon profile NAME, to fill in with its stats and AP table."""
    click.echo(f"wrote {new_weapon(compendium, ruleset_id, name, section, tier)}")


@click.command("skill")
@click.argument("name", type=NAME)
@click.option(
    "--category", type=click.Choice(list(SKILL_CATEGORIES)), required=True, help="Its list."
)
@click.option("--traits", type=TEXT, required=True, help="The two trait ids: agility,acuity.")
@ruleset_option(Skill)
@compendium_option
def new_skill_command(name, category, traits, ruleset_id, compendium):
    """A skill NAME with its category and two traits."""
    trait_ids = [t.strip() for t in traits.split(",") if t.strip()]
    click.echo(f"wrote {new_skill(compendium, ruleset_id, name, category, trait_ids)}")
