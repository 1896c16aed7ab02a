"""IRIS's Presence at the table (seed 003, "Corruption"): a Character's state, what a
choice or a test result changes in it, what the Presence does for that state, and the
game session a passed resist dispels it for."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from rulepress.plugin import Model, Text

if TYPE_CHECKING:
    from rulepress.games.iris.models.corruption import PresenceTrigger, TargetRaise


class Effect(Model):
    """What a choice or a test result changes (Stamina, Corruption, obedience)."""

    text: Text
    stamina: int = 0
    corruption: int = 0
    must_obey: bool = False
    dispels_for_session: bool = False


@dataclass(frozen=True)
class CharacterState:
    """What the Presence rules look at in a Character: Corruption, current and maximum
    Stamina, Health, whether they blacked out and whether IRIS is being extracted."""

    corruption: int
    stamina: int
    maximum_stamina: int
    health: int
    blacked_out: bool = False
    extracting_iris: bool = False

    def apply(self, effect: Effect) -> CharacterState:
        """The state after an effect: its Corruption added; its Stamina gained up to the
        maximum Stamina, or drained with no floor, so Stamina may drop below 0 (ruling
        `stamina-gain-up-to-maximum` on the corruption rules)."""
        stamina = self.stamina + effect.stamina
        if effect.stamina > 0:
            stamina = max(self.stamina, min(stamina, self.maximum_stamina))
        return replace(self, corruption=self.corruption + effect.corruption, stamina=stamina)


@dataclass(frozen=True)
class PresenceSession:
    """One game session's Presence: `dispelled` once a Character passed the test to
    resist it ("dispells it for the rest of the game session"); while dispelled no trigger
    makes it manifest (ruling `dispel-lasts-the-session` on the corruption rules)."""

    dispelled: bool = False

    def apply(self, effect: Effect) -> PresenceSession:
        """The session after an effect: dispelled if the effect dispels for the session
        (a passed resist), else as it was (obeying or failing dispels nothing)."""
        return PresenceSession(True) if effect.dispels_for_session else self

    def expire(self) -> PresenceSession:
        """The session ends: the dispel with it, so the next session starts undispelled."""
        return PresenceSession()


@dataclass(frozen=True)
class Presence:
    """The Presence for a Character's state: the triggers that fire, whether the
    once-a-day test at midnight applies, when the test is taken, and the Willpower test's
    target AP with the raises that apply (they do not stack)."""

    triggers: tuple[PresenceTrigger, ...]
    once_a_day: bool
    target: int
    raises: tuple[TargetRaise, ...]
    tested: Literal["now", "end-of-turn", "midnight"] | None
    """When the test is taken: at once out of combat, at the end of the turn in combat, at
    midnight when only the once-a-day trigger fires; None when nothing fires or the session
    has dispelled the Presence."""
    dispelled: bool = False
    """Whether the session's Presence is dispelled, so the triggers that hold do not make
    it manifest (ruling `dispel-lasts-the-session` on the corruption rules)."""

    @property
    def manifests(self) -> bool:
        """Whether any trigger fires in a session that has not dispelled the Presence, so
        the Character must resist or obey."""
        return bool(self.triggers) and not self.dispelled
