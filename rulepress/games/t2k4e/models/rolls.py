"""T2K4e group and opposed rolls (seed 001, "Group Rolls", "Opposed Rolls"): who helps
and the bonus they give, and how two sides' successes compare."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from rulepress.plugin import Document, Name, Text


@dataclass(frozen=True)
class Helper:
    """One of the others in a group roll: whether they are able to act (present, conscious,
    free to take part) and their level or die in the task's skill, if any."""

    name: str
    able: bool = True
    skill: str | None = None


class GroupRoll(Document):
    """One character rolls for a group and gains a bonus per helper, to a maximum."""

    KIND = "group-roll"
    kind: Literal["group-roll"]
    name: Name
    text: Text
    bonus_per_helper: Annotated[int, Field(ge=0, le=10)]
    max_bonus: Annotated[int, Field(ge=0, le=10)]
    capable: Literal["able-to-act", "has-skill"]
    """Who among the others is "capable of helping" (ruling `capable-of-helping`): anyone
    able to act, or only those with a level in the task's skill."""

    def helping(self, others: Sequence[Helper], *, needs_skill: bool | None = None) -> int:
        """How many of the others (the roller left out) are capable of helping: each one
        able to act, and, when the task needs the skill (`needs_skill`, by default as
        `capable` says), with a level in it (ruling `capable-of-helping`)."""
        if needs_skill is None:
            needs_skill = self.capable == "has-skill"
        return sum(1 for o in others if o.able and (o.skill is not None or not needs_skill))

    def bonus_for(self, others: Sequence[Helper], *, needs_skill: bool | None = None) -> int:
        """The roller's bonus from the others who are capable of helping."""
        return self.bonus(self.helping(others, needs_skill=needs_skill))

    def bonus(self, helpers: int) -> int:
        """+1 per helper, to a maximum of +3 on the helpers' bonus alone (ruling
        `group-bonus-and-other-modifiers`)."""
        if helpers < 0:
            raise ValueError("helpers cannot be negative")
        return min(helpers * self.bonus_per_helper, self.max_bonus)


class OpposedRoll(Document):
    """Both sides roll; the side with more successes wins, the loser's successes cancel."""

    KIND = "opposed-roll"
    kind: Literal["opposed-roll"]
    name: Name
    text: Text
    cancel_per_success: Annotated[int, Field(ge=0, le=10)]
    normal_roll_needs: Annotated[int, Field(ge=1, le=10)]
    """Successes a normal (unopposed) roll needs: "For normal rolls, 1 success is
    sufficient to succeed at your task"."""

    def succeeds(self, successes: int) -> bool:
        """Whether a normal roll with these successes succeeds: at least `normal_roll_needs`."""
        if successes < 0:
            raise ValueError("successes cannot be negative")
        return successes >= self.normal_roll_needs

    def compare(self, acting: int, opposing: int) -> OpposedResult:
        """Compare both sides' successes: the side with more wins, with its successes less
        one per success of the loser's (`cancel_per_success`); equal successes are a tie
        that no one wins (ruling `opposed-tie`)."""
        if acting < 0 or opposing < 0:
            raise ValueError("successes cannot be negative")
        if acting == opposing:
            return OpposedResult("tie", 0)
        winner, loser = max(acting, opposing), min(acting, opposing)
        net = max(winner - loser * self.cancel_per_success, 0)
        return OpposedResult("acting-wins" if acting > opposing else "opposing-wins", net)


@dataclass(frozen=True)
class OpposedResult:
    """An opposed roll settled: who won (the outcome), and the winner's successes left
    after the loser's cancelled theirs (0 on a tie)."""

    outcome: Literal["acting-wins", "opposing-wins", "tie"]
    successes: int
