"""RP229's count of rising and falling steps (by bisection) is the count pair by pair."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from rulepress.validators.tiers import _rises_and_falls

values = st.one_of(st.integers(-5, 5), st.floats(allow_infinity=True, allow_nan=True))
tiers = st.dictionaries(st.integers(0, 6), st.lists(values, min_size=1, max_size=8), max_size=5)


def pair_by_pair(by_tier: dict[int, list[float]]) -> tuple[int, int]:
    steps = [
        (a, b)
        for lower, higher in itertools.pairwise(sorted(by_tier))
        for a in by_tier[lower]
        for b in by_tier[higher]
        if a != b
    ]
    rises = sum(b > a for a, b in steps)
    return rises, len(steps) - rises


@given(tiers)
def test_the_steps_counted_by_bisection_are_those_counted_pair_by_pair(by_tier) -> None:
    assert _rises_and_falls(by_tier) == pair_by_pair(by_tier)


def test_a_tier_of_equal_values_takes_no_step() -> None:
    assert _rises_and_falls({1: [3, 3], 2: [3], 3: [4, 2]}) == (1, 1)
