"""Coolness Under Fire between the sides (seed 000): the Inspirational Leadership test,
the TCs of the sides' numbers, and the enemies that count for the per-enemy sources."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rulepress.games.cuf.models.cuf import Check, CheckResult, CheckRoll
from rulepress.games.cuf.models.threat import EnemyCondition, TcEvent, TcSource
from rulepress.plugin import Ruleset


@dataclass(frozen=True)
class LeadershipTest:
    """A side's Inspirational Leadership test resolved: the check rolled (one of the
    source's `tests`), the roll, whether it was an Outstanding Success, the TCs it brings
    every member of the side (-1, -2 on an Outstanding Success, 0 when failed) and the
    event for `end_of_round` (None when failed)."""

    source: str
    check: Check
    roll: CheckRoll
    outstanding: bool
    tcs: int
    event: TcEvent | None

    @property
    def passed(self) -> bool:
        """Whether the test passed."""
        return self.roll.passed


def _tested_source(ruleset: Ruleset, source: str | None) -> TcSource:
    if source is not None:
        found = ruleset.get(source)
        if not isinstance(found, TcSource) or not found.tests:
            raise ValueError(f"no TC source with a test {source!r}")
        return found
    tested = [s for s in ruleset.all(TcSource) if s.tests]
    if len(tested) != 1:
        raise ValueError(f"name the source: {len(tested)} TC sources have a test")
    return tested[0]


def leadership_test(
    ruleset: Ruleset,
    faces: Sequence[int],
    ratings: dict[str, int],
    *,
    form: int | None = None,
    outstanding: bool = False,
    effects: CheckResult | None = None,
    source: str | None = None,
) -> LeadershipTest:
    """Resolve "Inspirational LEADERSHIP! Your side makes an AVERAGE:[LEADERSHIP+ CHA] or
    a DIFFICULT:[PERSUASION+CHA] test. = -1TC or -2TC (outstanding success)" for the d20
    `faces` and the roller's `ratings`. `form` picks one of the source's `tests` by
    position; by default the one with the higher target for the ratings given, the first
    printed on a tie (ruling `leadership-better-form` on the tc source). One test is rolled
    for the side and its reduction applies to each member (ruling
    `leadership-one-test-per-side` on the tc source). The source does not define an
    Outstanding Success: the caller says whether a passed test was one (ruling
    `outstanding-success-called` on the tc source). It is a Skill roll, so the roller's
    own threshold `effects` apply (`Check.resolve`)."""
    tested = _tested_source(ruleset, source)
    if form is None:
        usable = [c for c in tested.tests if all(name in ratings for name in c.asset)]
        if not usable:
            needs = " or ".join("+".join(c.asset) for c in tested.tests)
            raise ValueError(f"the test needs {needs}")
        check = max(usable, key=lambda c: c.target(ratings))  # max keeps the first of a tie
    elif not 0 <= form < len(tested.tests):
        raise ValueError(f"{tested.id} has {len(tested.tests)} forms, not form {form}")
    else:
        check = tested.tests[form]
    roll = check.resolve(faces, ratings, effects=effects)
    if not roll.passed:
        return LeadershipTest(tested.id, check, roll, False, 0, None)
    event = TcEvent(tested.id, outstanding=outstanding)
    amount = tested.outstanding_success_tc if outstanding else tested.tc
    if not isinstance(amount, int):
        raise ValueError(f"{tested.id} has no fixed amount")
    return LeadershipTest(tested.id, check, roll, outstanding, amount, event)


def surplus_allies(side: int, opponents: int) -> int:
    """The surplus allies of a side of `side` (the character and their allies) against
    `opponents`: how many more the side has, never below 0 (ruling
    `surplus-is-side-minus-opponents` on the tc source)."""
    if side < 1 or opponents < 0:
        raise ValueError(f"a side of {side} against {opponents} cannot be counted")
    return max(side - opponents, 0)


def numbers_events(ruleset: Ruleset, side: int, opponents: int) -> tuple[TcEvent, ...]:
    """The events the sides' numbers bring a character whose side is `side` strong
    (themselves included) against `opponents`: the highest "You are outnumbered" ratio the
    opponents reach, at least that many times the side (ruling
    `outnumbered-ratio-at-least` on the tc source; one ladder: ruling
    `outnumbered-one-ladder` on the tc ladder), or, outnumbering them, "Opponents
    outnumbered = -1TC per surplus ally" (ruling `surplus-is-side-minus-opponents` on the
    tc source). No opponents bring neither."""
    surplus = surplus_allies(side, opponents)
    if opponents == 0:
        return ()
    ratios = [s for s in ruleset.all(TcSource) if s.outnumbered is not None]
    reached = [s for s in ratios if opponents > side and opponents >= s.outnumbered * side]
    if reached:
        return (TcEvent(max(reached, key=lambda s: s.outnumbered).id),)
    surplus_sources = [s for s in ruleset.all(TcSource) if s.per == "surplus-ally"]
    if surplus and surplus_sources:
        return (TcEvent(surplus_sources[0].id, count=surplus),)
    return ()


@dataclass(frozen=True)
class EnemiesCounted:
    """The per-enemy events of a round, and every enemy counted so far (this round's
    included), to pass to the next round's `enemy_events`."""

    events: tuple[TcEvent, ...]
    counted: frozenset[str]


def enemy_events(
    ruleset: Ruleset,
    enemies: Mapping[str, EnemyCondition],
    *,
    counted: Collection[str] = (),
) -> EnemiesCounted:
    """The per-enemy events of a round from what became of each enemy (`{name:
    condition}`): "Tango Down! = -1TC per enemy taken down (dead or wounded)", "Tango
    Skips = -1TC per enemy who flees", as each source's `counts` lists. An enemy counts
    once, under the first source in order that counts its condition, and never again in a
    later round (`counted`: ruling `enemy-counts-once` on the tc source)."""
    sources = sorted((s for s in ruleset.all(TcSource) if s.counts), key=lambda s: s.order)
    already = frozenset(counted)
    tallies: dict[str, int] = {}
    newly: set[str] = set()
    for name, condition in enemies.items():
        if name in already:
            continue
        source = next((s for s in sources if condition in s.counts), None)
        if source is None:
            raise ValueError(f"no TC source counts an enemy who is {condition!r}")
        tallies[source.id] = tallies.get(source.id, 0) + 1
        newly.add(name)
    events = tuple(TcEvent(s.id, count=tallies[s.id]) for s in sources if s.id in tallies)
    return EnemiesCounted(events, already | newly)
