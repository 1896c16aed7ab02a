"""IRIS's cross-document checks, in code order: the game's `Game.checks` (codes RP...,
the prefix rulepress's own games share)."""

from __future__ import annotations

from rulepress.games.iris.checks.corruption import level_order
from rulepress.games.iris.checks.weapon_consistency import (
    column_named_two_ways,
    header_mismatch,
    tier_order,
    tier_repeated,
    tier_weaker_table,
)
from rulepress.games.iris.checks.weapon_tables import (
    ap_row_missing,
    ap_row_order,
    ap_row_repeated,
    figure_falls,
    incomplete_profile,
    off_band_step,
)

CHECKS = (
    ap_row_missing,
    ap_row_repeated,
    ap_row_order,
    figure_falls,
    off_band_step,
    incomplete_profile,
    header_mismatch,
    column_named_two_ways,
    tier_order,
    level_order,
    tier_repeated,
    tier_weaker_table,
)
"""RP206-210, RP212 (weapon tables), RP213, 215, 217, 221, 225 (weapons), RP218 (corruption)."""
