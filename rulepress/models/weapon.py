"""IRIS weapon sections and weapon profiles with their AP 1-30 tables (seed 003)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from rulepress.models.base import Document, Model, Name, NonNegative, Text, ref

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


_FIELD_SETS: dict[frozenset[str], set[str]] = {}


class ApRow(Model):
    """One row of a weapon table: what the weapon does at this many AP."""

    ap: ApValue
    damage: NonNegative
    defense: NonNegative
    move: Move
    """Movement modifier; `Base` means no change (0)."""
    range: NonNegative

    def model_post_init(self, context: Any) -> None:
        # pydantic gives each instance its own set of the fields given (700 bytes, most of
        # a row); rows are many (300,000 in 10,000 weapons), so rows share one. Every
        # field is required, so the set is always all of them: nothing can change it
        # (`model_copy(update=...)` adds names already in it).
        fields = self.__pydantic_fields_set__
        shared = _FIELD_SETS.setdefault(frozenset(fields), fields)
        object.__setattr__(self, "__pydantic_fields_set__", shared)

    @property
    def move_value(self) -> int:
        return 0 if self.move == "Base" else self.move


class WeaponProfile(Document):
    """A weapon profile: the printed header, the stats line and the AP 1-30 table.

    The header ("Weapon Profile - Scattergun (Tier 1)") and the name under it are kept
    apart because the source does not always agree with itself; a check compares them.
    Drafts are the source's empty placeholder profiles: a header and nothing else.
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
    """What the table's movement column is headed, as printed."""
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
        """The row a test scoring `ap` uses. Below the table's first row the weapon does
        nothing (None); above its last row the last row applies (ruling `ap-outside-table`
        on the skill test)."""
        if not self.table or ap < self.table[0].ap:
            return None
        return self.row_at(min(ap, self.table[-1].ap))
