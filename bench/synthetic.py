"""Synthetic compendia for benchmarks: N weapon documents in canonical YAML, one per file,
each with a 30-row AP table, a description and a section whose skill they reference."""

from __future__ import annotations

import random
from pathlib import Path

from rulepress.compendium.writer import dump_document
from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.trait import Trait
from rulepress.games.iris.models.weapon import WeaponProfile, WeaponSection
from rulepress.models import RulesetInfo

# A section offers one weapon per tier (tiers 1-10), as in the sources, so the corpus
# is clean: every figure measures a build, not the reporting of thousands of warnings.
WEAPONS_PER_SECTION = 10
RARITIES = ("Ubiquitous", "Common", "Uncommon", "Rare")


def weapon_fields(index: int, section: str, generator: random.Random) -> dict:
    """The fields of the `index`th weapon, drawn from `generator`."""
    tier = 1 + index % WEAPONS_PER_SECTION  # higher tiers cost more and are rarer
    # and never have a weaker table (RP225) than a lower tier of their section
    base_damage = 2 * tier + generator.randint(0, 1)
    base_defense = 2 * tier + generator.randint(0, 1)
    rows = []
    for ap in range(1, 31):
        rows.append(
            {
                "ap": ap,
                "damage": base_damage + ap // 2,
                "defense": base_defense + ap // 3,
                "move": "Base" if ap > 10 else -5,
                "range": 10 + 5 * ((ap - 1) // 5),
            }
        )
    return {
        "kind": "weapon",
        "id": f"weapon-{index:05d}",
        "name": f"Weapon {index:05d}",
        "header": f"Weapon {index:05d}",
        "tier": tier,
        "section": section,
        "order": index,
        "magazine": generator.randint(1, 12),
        "reload": generator.randint(1, 5),
        "weight": generator.randint(1, 20),
        "cost": 10 * tier + generator.randint(0, 9),
        "rarity": RARITIES[(tier - 1) * len(RARITIES) // WEAPONS_PER_SECTION],
        "table": rows,
        "description": "A synthetic weapon for benchmarks. " * generator.randint(2, 6),
    }


def weapon_text(fields: dict) -> str:
    """The weapon's canonical YAML, as `dump_document` writes it, without ruamel: 10,000
    weapons took 4 minutes through it, and take 2.5 s so (`write_compendium` checks the
    two agree)."""
    head = "".join(f"{key}: {fields[key]}\n" for key in _HEAD_KEYS)
    rows = "".join(
        f"  - {{ap: {r['ap']}, damage: {r['damage']}, defense: {r['defense']}, "
        f"move: {r['move']}, range: {r['range']}}}\n"
        for r in fields["table"]
    )
    return f"{head}description: '{fields['description']}'\ntable:\n{rows}"


_HEAD_KEYS = (
    "kind", "id", "name", "header", "tier", "section", "order",
    "magazine", "reload", "weight", "cost", "rarity",
)  # fmt: skip
CHECKED_BY_DUMP = 20
"""How many weapons `write_compendium` also writes through `dump_document`, to check
`weapon_text` against it."""


def write_compendium(root: Path, count: int, seed: int = 1) -> Path:
    """Write a one-ruleset compendium of `count` weapons under `root`; return its folder."""
    generator = random.Random(seed)
    folder = root / "bench"
    documents = [
        RulesetInfo.model_validate(
            {
                "kind": "ruleset",
                "id": "bench",
                "title": "Benchmark",
                "version": "1.0.0",
                "game": "Benchmark",
                "system": "iris-ap",
                "summary": "Synthetic weapons.",
                "currency": "Bar",
                "sources": [{"title": "Generated", "author": "bench", "credit": "Synthetic."}],
            }
        ),
        Trait(kind="trait", id="acuity", name="Acuity", order=1),
        Trait(kind="trait", id="vigor", name="Vigor", order=2),
        Skill(
            kind="skill",
            id="gunnery",
            name="Gunnery",
            category="weapon",
            order=1,
            traits=["acuity", "vigor"],
        ),
    ]
    paths = ["ruleset.yaml", "traits/acuity.yaml", "traits/vigor.yaml", "skills/gunnery.yaml"]
    sections = (count + WEAPONS_PER_SECTION - 1) // WEAPONS_PER_SECTION
    for number in range(sections):
        section = WeaponSection(
            kind="weapon-section",
            id=f"section-{number:03d}",
            name=f"Section {number:03d}",
            order=number,
            skill="gunnery",
        )
        documents.append(section)
        paths.append(f"weapon-sections/{section.id}.yaml")
    texts = [dump_document(document) for document in documents]
    for index in range(count):
        section = f"section-{index // WEAPONS_PER_SECTION:03d}"
        fields = weapon_fields(index, section, generator)
        text = weapon_text(fields)
        if index < CHECKED_BY_DUMP:
            written = dump_document(WeaponProfile.model_validate(fields, strict=False))
            assert text == written, f"weapon_text differs from dump_document:\n{text}\n{written}"
        texts.append(text)
        paths.append(f"weapons/{section}/weapon-{index:05d}.yaml")
    for relative, text in zip(paths, texts, strict=True):
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
