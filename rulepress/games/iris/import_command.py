"""`rulepress import wiki`: weapon profiles from a wiki page into canonical YAML files.

Re-importing updates the figures and keeps what the page does not carry (a weapon's
description, rulings and previous ids; a section's skill and rulings), so the wiki can
stay an authoring source beside the YAML.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import ValidationError

from rulepress.games.iris.importer import (
    ParsedProfile,
    ParsedSection,
    WikiFormatError,
    parse_page,
    whole_number,
)
from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.weapon import WeaponProfile, WeaponSection
from rulepress.plugin import SourceFormatError, ascii_slug
from rulepress.plugin.cli import (
    RulepressError,
    dump_document,
    load_compendium,
    model_reason,
    read_regular,
    safe_child,
    write_all,
)

COST = re.compile(r"^(?P<amount>[0-9]+)\s*(?P<unit>[A-Za-z]*)$")
KEPT_FIELDS = ("description", "rulings", "previous_ids")
MAX_PAGE_BYTES = 64 << 20
"""The most a wiki page may hold (the IRIS page is 21 KB)."""


def import_wiki(page: Path, ruleset_folder: Path) -> list[Path]:
    """Write one YAML file per section and per weapon profile found on `page`: all of
    them or, on any error, none. Every file is rendered and validated first."""
    try:
        sections, profiles = parse_page(_read_page(page), page)
    except SourceFormatError as exc:  # a WikiFormatError, or a Markdown table's
        raise RulepressError(str(exc)) from None
    if not profiles:
        raise RulepressError(f"{page}: no 'Weapon Profile - NAME (Tier N)' headers found")
    existing = _existing(ruleset_folder)
    section_docs = [_section(s, order, existing) for order, s in enumerate(sections, 1)]
    section_ids = {doc.name: doc.id for doc in section_docs}
    files = [(("weapon-sections", f"{doc.id}.yaml"), doc) for doc in section_docs]
    taken: set[str] = set()
    order_in_section: dict[str, int] = {}
    for profile in profiles:
        section_id = section_ids[profile.section]
        order_in_section[section_id] = order_in_section.get(section_id, 0) + 1
        weapon_id = _weapon_id(profile, section_id, taken)
        order = order_in_section[section_id]
        doc = _weapon(page, profile, weapon_id, section_id, order, existing)
        files.append((("weapons", section_id, f"{weapon_id}.yaml"), doc))
    planned = [(safe_child(ruleset_folder, *parts), dump_document(doc)) for parts, doc in files]
    try:
        return write_all(planned)
    except OSError as exc:
        raise RulepressError(f"cannot write {exc.filename}: {exc.strerror or exc}") from None


def _read_page(page: Path) -> str:
    """The page's text: only a regular file of a bounded size is read (a named pipe
    would block the read)."""
    try:
        return read_regular(page, MAX_PAGE_BYTES).decode("utf-8")
    except OSError as exc:  # RefusedFile says why; others have their strerror
        raise RulepressError(f"cannot read wiki page {page}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise RulepressError(f"cannot read wiki page {page}: not UTF-8 ({exc.reason})") from None


def _existing(folder: Path) -> dict[str, object]:
    """Documents already in the ruleset folder, by id (a broken file is simply not kept)."""
    if not folder.is_dir():
        return {}
    loaded = load_compendium(folder)
    return {entry.document.id: entry.document for _, entry in loaded.compendium.entries()}


def _section(parsed: ParsedSection, order: int, existing: dict) -> WeaponSection:
    section_id = ascii_slug(parsed.name)
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
    words = {ascii_slug(name).split("-")[0] for name in (parsed.group, parsed.name) if name}
    for doc in existing.values():
        if (
            isinstance(doc, Skill)
            and doc.category == "weapon"
            and ascii_slug(doc.name).split("-")[0] in words
        ):
            return doc.id
    return None


def _weapon_id(profile: ParsedProfile, section_id: str, taken: set[str]) -> str:
    base = ascii_slug(profile.name or profile.header)
    candidate = base if base and base not in taken else f"{section_id}-{base or 'unnamed'}"
    suffix = 2
    while candidate in taken:
        candidate = f"{section_id}-{base}-{suffix}"
        suffix += 1
    taken.add(candidate)
    return candidate


def _weapon(
    page: Path,
    profile: ParsedProfile,
    weapon_id: str,
    section_id: str,
    order: int,
    existing: dict,
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
            data[label.lower()] = _number(page, profile, label, stats[label])
    if stats.get("Cost"):
        match = COST.match(stats["Cost"])
        if not match:
            where = f"{page}:{profile.stats_line}:1"
            raise RulepressError(f"{where}: cannot read cost {stats['Cost']!r}")
        data["cost"] = _number(page, profile, "Cost", match["amount"])
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
        raise RulepressError(
            f"{page}:{profile.line}:1: {profile.header}: {first_problem(exc)}"
        ) from None


def first_problem(exc: ValidationError) -> str:
    """A model's refusal in one line: where in the document, and why."""
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in error["loc"]) or "document"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {model_reason(error)}{more}"


def _number(page: Path, profile: ParsedProfile, label: str, value: str) -> int:
    try:
        return whole_number(value, page, profile.stats_line, label)
    except WikiFormatError as exc:
        raise RulepressError(str(exc)) from None
