"""IRIS weapon sections and weapon profiles with their AP 1-30 tables (seed 003)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NamedTuple

from pydantic import ConfigDict, Field, GetCoreSchemaHandler, with_config
from pydantic_core import PydanticKnownError, core_schema
from typing_extensions import TypedDict

from rulepress.plugin import Document, Name, NonNegative, Text, ref

ApValue = Annotated[int, Field(ge=1, le=30)]
Tier = Annotated[int, Field(ge=1, le=10)]
Rarity = Literal["Ubiquitous", "Common", "Uncommon", "Rare", "Legendary"]
Move = Annotated[int, Field(ge=-100, le=100)] | Literal["Base"]


class WeaponSection(Document):
    """A section of the weapon list (Pistols, Shotguns...) and the skill its weapons use."""

    KIND = "weapon-section"
    kind: Literal["weapon-section"]
    name: Name
    group: Name | None = None
    """The heading above the section, where the source nests it ("High-Caliber Weapons")."""
    order: int
    skill: ref("skill")
    """The weapon skill that tests with these weapons."""


class _RowData:
    """What a row of a weapon table is in the data: its fields, their limits, its JSON
    Schema (`$defs/ApRow`). A namespace, so that the schema keeps the name ApRow."""

    @with_config(ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True))
    class ApRow(TypedDict):
        """One row of a weapon table: what the weapon does at this many AP."""

        ap: ApValue
        damage: NonNegative
        defense: NonNegative
        move: Move
        """Movement modifier; `Base` means no change (0, ruling `base-move-is-no-change`
        on the skill test)."""
        range: NonNegative


class ApRow(NamedTuple):
    """One row of a weapon table: what the weapon does at this many AP.

    A named tuple checked against `_RowData.ApRow`, not a pydantic model: rows are many
    (300,000 in 10,000 weapons) and a model keeps, besides its values, a set of the
    fields given (700 bytes, most of a row). A tuple is immutable like the frozen models
    and dumps as the same mapping."""

    ap: int
    damage: int
    defense: int
    move: int | Literal["Base"]
    """Movement modifier; `Base` means no change (0)."""
    range: int

    @property
    def move_value(self) -> int:
        """The movement modifier as a number (`Base` is 0: ruling `base-move-is-no-change`
        on the skill test), for sums and comparisons."""
        return 0 if self.move == "Base" else self.move

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """Check a row as the model `_RowData.ApRow` (its errors said as a model's) but keep it
        a plain tuple, cheap for the thousands of rows a compendium holds."""
        data = handler.generate_schema(_RowData.ApRow)

        def validate(value: Any, check: core_schema.ValidatorFunctionWrapHandler) -> ApRow:
            if isinstance(value, cls):
                return value
            if not isinstance(value, dict):  # said as a model says it
                raise PydanticKnownError("model_type", {"class_name": cls.__name__})
            return cls(**check(value))

        return core_schema.no_info_wrap_validator_function(
            validate,
            data,
            serialization=core_schema.plain_serializer_function_ser_schema(
                cls._asdict, return_schema=data
            ),
        )


class WeaponProfile(Document):
    """A weapon profile: the printed header, the stats line and the AP 1-30 table.

    The header ("Weapon Profile - Scattergun (Tier 1)") and the name under it are kept
    apart because the source does not always agree with itself; a check compares them,
    and the name under the header names the weapon (ruling `name-under-the-header` on the
    weapon section). Drafts are the source's empty placeholder profiles: a header and
    nothing else (ruling `placeholder-profile-is-draft` on the weapon section).
    """

    KIND = "weapon"
    kind: Literal["weapon"]
    name: Name | None = None
    """The name printed under the header; drafts may have none."""
    header: Name | None = None
    """The name in the "Weapon Profile - ... (Tier N)" header, as printed."""
    tier: Tier
    section: ref("weapon-section")
    order: int
    magazine: NonNegative | None = None
    """Rounds per reload, for weapons whose stats line says "Magazine"."""
    attacks: NonNegative | None = None
    """Attacks per reload, for weapons whose stats line says "Attacks"."""
    reload: NonNegative | None = None
    weight: NonNegative | None = None
    cost: NonNegative | None = None
    """Price in the ruleset's currency (Bar)."""
    rarity: Rarity | None = None
    move_column: Literal["Move", "Speed"] = "Move"
    """What the table's movement column is headed, as printed; Speed is read as Move
    (ruling `speed-is-move` on the weapon section)."""
    description: Text | None = None
    table: Annotated[list[ApRow], Field(max_length=60)] = []
    """One row per AP from 1 to 30, in order."""

    @property
    def capacity(self) -> tuple[str, str, int | None]:
        """(key, label, value) of what the stats line prints: Magazine, or else Attacks."""
        if self.magazine is not None:
            return "magazine", "Magazine", self.magazine
        return "attacks", "Attacks", self.attacks

    def row_at(self, ap: int) -> ApRow | None:
        """The row for exactly `ap`, if the table has one."""
        return next((row for row in self.table if row.ap == ap), None)

    def row_for(self, ap: int) -> ApRow | None:
        """The row a test scoring `ap` uses, what the weapon does in the action (ruling
        `combat-actions-on-the-weapon-profile` on the rule). Below the table's first row
        the weapon does nothing (None); above its last row the last row applies (ruling
        `ap-outside-table` on the skill test)."""
        if not self.table or ap < self.table[0].ap:
            return None
        return self.row_at(min(ap, self.table[-1].ap))


def weapons_by_section(ruleset) -> list[tuple[WeaponSection, list[WeaponProfile]]]:
    """Published sections with their published weapons, in order (one pass over the
    weapons: a large ruleset has many sections)."""
    by_section: dict[str, list[WeaponProfile]] = {}
    for weapon in ruleset.all(WeaponProfile):
        by_section.setdefault(weapon.section, []).append(weapon)
    return [
        (section, by_section[section.id])
        for section in ruleset.all(WeaponSection)
        if section.id in by_section
    ]
