"""`rulepress new`: write a valid skeleton document in the right place.

A new weapon is a draft (its figures are not written yet), so the compendium stays valid
and the draft check reminds everyone it is unfinished.
"""

from __future__ import annotations

from pathlib import Path

from rulepress.compendium.loader import load_compendium
from rulepress.compendium.writer import dump_document
from rulepress.errors import RulepressError
from rulepress.exporters.guide import slug
from rulepress.exporters.output import safe_child
from rulepress.models import Skill, TcSource, WeaponProfile, WeaponSection


def _ruleset(compendium: Path, ruleset_id: str):
    loaded = load_compendium(compendium)
    try:
        return loaded.compendium.ruleset(ruleset_id)
    except KeyError as exc:
        raise RulepressError(exc.args[0]) from None


def _write(folder: Path, parts: tuple[str, ...], document) -> Path:
    path = safe_child(folder, *parts)
    if path.exists():
        raise RulepressError(f"{path} already exists")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_document(document), encoding="utf-8")
    return path


def _free_id(ruleset, name: str) -> str:
    document_id = slug(name)
    if not document_id:
        raise RulepressError(f"cannot make an id from {name!r}")
    if ruleset.get(document_id) is not None:
        raise RulepressError(f"id '{document_id}' is already used in ruleset '{ruleset.id}'")
    return document_id


def new_weapon(compendium: Path, ruleset_id: str, name: str, section: str, tier: int) -> Path:
    ruleset = _ruleset(compendium, ruleset_id)
    if not isinstance(ruleset.get(section), WeaponSection):
        known = ", ".join(s.id for s in ruleset.all(WeaponSection, drafts=True))
        raise RulepressError(f"no weapon section '{section}' (known: {known})")
    order = 1 + max(
        (w.order for w in ruleset.all(WeaponProfile, drafts=True) if w.section == section),
        default=0,
    )
    weapon = WeaponProfile(
        kind="weapon",
        id=_free_id(ruleset, name),
        status="draft",
        name=name,
        header=name,
        tier=tier,
        section=section,
        order=order,
    )
    return _write(ruleset.folder, ("weapons", section, f"{weapon.id}.yaml"), weapon)


def new_skill(
    compendium: Path, ruleset_id: str, name: str, category: str, traits: list[str]
) -> Path:
    ruleset = _ruleset(compendium, ruleset_id)
    order = 1 + max((s.order for s in ruleset.all(Skill, drafts=True)), default=0)
    skill = Skill(
        kind="skill",
        id=_free_id(ruleset, name),
        name=name,
        category=category,
        order=order,
        traits=traits,
    )
    return _write(ruleset.folder, ("skills", f"{skill.id}.yaml"), skill)


def new_tc_source(compendium: Path, ruleset_id: str, name: str, tc: int) -> Path:
    ruleset = _ruleset(compendium, ruleset_id)
    order = 1 + max((s.order for s in ruleset.all(TcSource, drafts=True)), default=0)
    source = TcSource(
        kind="tc-source",
        id=_free_id(ruleset, name),
        name=name,
        effect="adds" if tc >= 0 else "reduces",
        order=order,
        tc=tc,
    )
    return _write(ruleset.folder, ("tc-sources", f"{source.id}.yaml"), source)
