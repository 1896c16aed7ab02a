"""`rulepress import wiki`: weapon profiles from a wiki page into canonical YAML files.

Re-importing updates the figures and keeps what the page does not carry (a weapon's
description, rulings and previous ids; a section's skill and rulings), so the wiki can
stay an authoring source beside the YAML.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import ValidationError

from rulepress.compendium.loader import load_compendium
from rulepress.compendium.writer import dump_document
from rulepress.errors import RulepressError
from rulepress.exporters.output import safe_child
from rulepress.importers.wiki import ParsedProfile, ParsedSection, WikiFormatError, parse_page
from rulepress.models import Skill, WeaponProfile, WeaponSection

COST = re.compile(r"^(?P<amount>\d+)\s*(?P<unit>[A-Za-z]*)$")
KEPT_FIELDS = ("description", "rulings", "previous_ids")


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def import_wiki(page: Path, ruleset_folder: Path) -> list[Path]:
    """Write one YAML file per section and per weapon profile found on `page`."""
    try:
        text = page.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RulepressError(f"cannot read wiki page {page}: {exc}") from None
    try:
        sections, profiles = parse_page(text, page)
    except WikiFormatError as exc:
        raise RulepressError(str(exc)) from None
    if not profiles:
        raise RulepressError(f"{page}: no 'Weapon Profile - NAME (Tier N)' headers found")
    existing = _existing(ruleset_folder)
    section_docs = [_section(s, order, existing) for order, s in enumerate(sections, 1)]
    section_ids = {doc.name: doc.id for doc in section_docs}
    written = []
    for doc in section_docs:
        written.append(_write(ruleset_folder, ("weapon-sections", f"{doc.id}.yaml"), doc))
    taken: set[str] = set()
    order_in_section: dict[str, int] = {}
    for profile in profiles:
        section_id = section_ids[profile.section]
        order_in_section[section_id] = order_in_section.get(section_id, 0) + 1
        weapon_id = _weapon_id(profile, section_id, taken)
        doc = _weapon(profile, weapon_id, section_id, order_in_section[section_id], existing)
        written.append(_write(ruleset_folder, ("weapons", section_id, f"{weapon_id}.yaml"), doc))
    return written


def _existing(folder: Path) -> dict[str, object]:
    """Documents already in the ruleset folder, by id (a broken file is simply not kept)."""
    if not folder.is_dir():
        return {}
    loaded = load_compendium(folder)
    return {entry.document.id: entry.document for _, entry in loaded.compendium.entries()}


def _section(parsed: ParsedSection, order: int, existing: dict) -> WeaponSection:
    section_id = slugify(parsed.name)
    old = existing.get(section_id)
    if isinstance(old, WeaponSection):
        return old.model_copy(update={"name": parsed.name, "group": parsed.group, "order": order})
    skill = _guess_skill(parsed, existing)
    if skill is None:
        raise RulepressError(
            f"section '{parsed.name}' is new and no weapon skill's name matches it; create "
            f"weapon-sections/{section_id}.yaml with its `skill` and import again"
        )
    return WeaponSection(
        kind="weapon-section",
        id=section_id,
        name=parsed.name,
        group=parsed.group,
        order=order,
        skill=skill,
    )


def _guess_skill(parsed: ParsedSection, existing: dict) -> str | None:
    """The weapon skill sharing its first word with the group or section ("High-Caliber")."""
    words = {slugify(name).split("-")[0] for name in (parsed.group, parsed.name) if name}
    for doc in existing.values():
        if (
            isinstance(doc, Skill)
            and doc.category == "weapon"
            and slugify(doc.name).split("-")[0] in words
        ):
            return doc.id
    return None


def _weapon_id(profile: ParsedProfile, section_id: str, taken: set[str]) -> str:
    base = slugify(profile.name or profile.header)
    candidate = base if base and base not in taken else f"{section_id}-{base or 'unnamed'}"
    suffix = 2
    while candidate in taken:
        candidate = f"{section_id}-{base}-{suffix}"
        suffix += 1
    taken.add(candidate)
    return candidate


def _weapon(
    profile: ParsedProfile, weapon_id: str, section_id: str, order: int, existing: dict
) -> WeaponProfile:
    stats = profile.stats
    data: dict = {
        "kind": "weapon",
        "id": weapon_id,
        "name": profile.name,
        "header": profile.header or None,
        "tier": profile.tier,
        "section": section_id,
        "order": order,
        "move_column": profile.move_column,
        "table": profile.rows,
    }
    if profile.is_draft:
        data["status"] = "draft"
    for label in ("Magazine", "Attacks", "Reload", "Weight"):
        if stats.get(label):
            data[label.lower()] = _number(stats[label], profile, label)
    if stats.get("Cost"):
        match = COST.match(stats["Cost"])
        if not match:
            raise RulepressError(f"line {profile.line}: cannot read cost {stats['Cost']!r}")
        data["cost"] = int(match["amount"])
    if stats.get("Rarity"):
        data["rarity"] = stats["Rarity"]
    old = existing.get(weapon_id)
    if isinstance(old, WeaponProfile):
        data.update({k: getattr(old, k) for k in KEPT_FIELDS if getattr(old, k)})
    try:
        return WeaponProfile.model_validate(
            {k: v for k, v in data.items() if v is not None}, strict=False
        )
    except ValidationError as exc:
        raise RulepressError(f"line {profile.line}: {profile.header}: {exc}") from None


def _number(value: str, profile: ParsedProfile, label: str) -> int:
    if not value.isdigit():
        raise RulepressError(f"line {profile.line}: {label} {value!r} is not a whole number")
    return int(value)


def _write(folder: Path, parts: tuple[str, ...], document) -> Path:
    path = safe_child(folder, *parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_document(document), encoding="utf-8")
    return path
