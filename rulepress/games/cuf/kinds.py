"""Coolness Under Fire's document kinds, in the order their sections and packs appear:
the CUF rating, the threat thresholds, the TC sources and the "includes above" ladders."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rulepress.games.cuf.models.cuf import DIFFICULTY, CufRating, ThreatThreshold
from rulepress.games.cuf.models.threat import TcLadder, TcSource
from rulepress.plugin import DiffWording, Guide, Kind, Macro, Part

TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The game's templates (`markdown/sections/...`, `foundry/macros/...`)."""

# Hooks named as "module:attr", imported only where used (a command, a section, a page).
PACKAGE = "rulepress.games.cuf"
COMMANDS, HELPERS, RULES = f"{PACKAGE}.commands", f"{PACKAGE}.helpers", f"{PACKAGE}.rules"

EFFECTS = (
    ("adds", "sources-that-add-tcs", "Sources That Add TCs"),
    ("reduces", "sources-that-reduce-tcs", "Sources That Reduce TCs"),
)
"""The TC sources' sections: the effect, the section's id (its title's slug) and title."""


def _tc_sources_by_effect(sources: Sequence[TcSource], ruleset) -> list[Part]:
    """A section of the sources that add TCs, then one of those that reduce them."""
    parts = []
    for position, (effect, id_, title) in enumerate(EFFECTS):
        chosen = tuple(source for source in sources if source.effect == effect)
        if chosen:
            parts.append(Part(id_, title, chosen, 20 * position))
    return parts


def _ladders_in_one(ladders: Sequence[TcLadder], ruleset) -> list[Part]:
    """Every ladder in one section."""
    title = '"Includes Above" Ladders'
    return [Part("includes-above-ladders", title, tuple(ladders))] if ladders else []


def _threat_check_rules(ruleset) -> dict:
    thresholds = sorted(ruleset.all(ThreatThreshold), key=lambda t: t.exceeds)
    rating = ruleset.one(CufRating)
    calm = rating.calm if rating else CufRating.model_fields["calm"].default
    return {
        "calm": {"id": calm.id, "name": calm.name},
        "multipliers": {name: float(value) for name, value in DIFFICULTY.items()},
        "thresholds": [
            {
                "id": t.id,
                "name": t.name,
                "exceeds": t.exceeds,
                "difficulty": t.check.difficulty,
                "asset": t.check.asset,
                "onFailure": t.on_failure.model_dump(),
                "onSuccess": t.on_success.model_dump(),
            }
            for t in thresholds
        ],
    }


KINDS = (
    Kind(
        CufRating,
        guide=Guide("Coolness Under Fire", "cuf-rating", 180),
        macro=Macro("cuf-threat-check", "Threat Check", _threat_check_rules),
        roll=f"{COMMANDS}:roll_cuf",
        odds=f"{COMMANDS}:odds_cuf",
        calculator=f"{PACKAGE}.calculator:cuf_calculator",
        templates=TEMPLATES,
    ),
    Kind(
        ThreatThreshold,
        guide=Guide("Coolness Under Fire", "threat-threshold", 190),
        example=f"{RULES}:threat_threshold_example",
        example_reads=("threat-threshold",),
        templates=TEMPLATES,
    ),
    Kind(
        TcSource,
        new=f"{COMMANDS}:new_tc_source_command",
        guide=Guide(
            "Threat Conditions",
            "tc-sources",
            parts=_tc_sources_by_effect,
            helpers=f"{HELPERS}:tc_amounts",
        ),
        changes=DiffWording("TC source"),
        templates=TEMPLATES,
    ),
    Kind(
        TcLadder,
        guide=Guide(
            "Threat Conditions",
            "tc-ladders",
            order=140,
            parts=_ladders_in_one,
            helpers=f"{HELPERS}:tc_amounts",
        ),
        changes=DiffWording("TC ladder"),
        templates=TEMPLATES,
    ),
)
"""The game's kinds, in the registry's order."""
