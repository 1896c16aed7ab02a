"""Threat conditions (seed 000): the sources of TCs and the "includes above" ladders."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from rulepress.games.cuf.models.cuf import SkillCheck
from rulepress.plugin import (
    Document,
    IntRange,
    LadderStep,
    Name,
    StatesLadder,
    Text,
    ref,
    says_includes_below,
)

Per = Literal["ally", "surplus-ally", "enemy-down", "enemy-fled"]

EnemyCondition = Literal["dead", "wounded", "fled"]
"""What became of an enemy this round, for the per-enemy sources: "Tango Down! = -1TC per
enemy taken down (dead or wounded)", "Tango Skips = -1TC per enemy who flees"."""


@dataclass(frozen=True)
class TcEvent:
    """Something that happened this round: a TC source, how many times (allies arriving,
    enemies down), the amount the referee chose for a ranged source, and whether an
    Intimidation or Leadership check was an Outstanding Success."""

    source: str
    count: int = 1
    amount: int | None = None
    outstanding: bool = False


class TcSource(Document):
    """Something that adds threat conditions (positive `tc`) or reduces them (negative).

    `tc` is a fixed amount, a range the referee picks from (`{min: 1, max: 4}`), or
    `referee` where the source leaves the amount to the referee.
    """

    KIND = "tc-source"
    kind: Literal["tc-source"]
    name: Name
    """As printed."""
    effect: Literal["adds", "reduces"]
    order: int
    tc: int | IntRange | Literal["referee"]
    per: Per | None = None
    """The amount applies once per ally, enemy... rather than once."""
    outstanding_success_tc: int | None = None
    """The amount on an Outstanding Success, where the source gives one."""
    note: Text | None = None
    """The source's parenthetical remark, kept as printed."""
    counts: list[EnemyCondition] = []
    """For a per-enemy source, the enemies it counts: "(dead or wounded)"."""
    outnumbered: Annotated[int, Field(ge=1, le=100)] | None = None
    """For a source of being outnumbered, the ratio it names ("outnumbered 5 to 1": 5;
    plain "outnumbered": 1)."""
    tests: list[SkillCheck] = []
    """The checks that bring the source, any one of them ("an AVERAGE:[LEADERSHIP+ CHA] or
    a DIFFICULT:[PERSUASION+CHA] test")."""


class TcLadder(Document, StatesLadder):
    """Sources that are steps of one condition: only the highest step that applies counts.

    `stated_in_source` is true where the text says "includes above"; otherwise the ladder
    is a ruling (see `rulings`).
    """

    KIND = "tc-ladder"
    kind: Literal["tc-ladder"]
    name: Name
    steps: Annotated[list[ref("tc-source")], Field(min_length=2)]
    """From lowest to highest step."""
    stated_in_source: bool
    text: Text | None = None
    """The source's lines of the ladder, one per step, as printed."""

    def ladder_steps(self) -> list[LadderStep]:
        """Each step above the first, with whether its line of `text` says it includes
        the steps below. Without a line per step, each step takes the whole text's word
        (and `stated_in_source`)."""
        lines = [line for line in (self.text or "").splitlines() if line.strip()]
        if len(lines) != len(self.steps):
            whole = self.stated_in_source or says_includes_below(self.text or "")
            return [
                LadderStep(step, whole, "", ("steps", number))
                for number, step in enumerate(self.steps)
                if number
            ]
        return [
            LadderStep(step, says_includes_below(line), line.strip(), ("steps", number))
            for number, (step, line) in enumerate(zip(self.steps, lines, strict=True))
            if number
        ]
