"""A small exact dice engine: distributions as {outcome: Fraction}, combined by convolution.

The models resolve and roll with it, so it imports nothing from rulepress.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

T = TypeVar("T", bound=Hashable)
Distribution = dict[T, Fraction]


def die(sides: int) -> Distribution[int]:
    """A fair die: each face 1..sides equally likely."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


def point(value: T) -> Distribution[T]:
    """A certain outcome."""
    return {value: Fraction(1)}


def mapped(distribution: Mapping[T, Fraction], function: Callable[[T], Hashable]) -> Distribution:
    """The distribution of function(outcome)."""
    result: dict = {}
    for outcome, chance in distribution.items():
        key = function(outcome)
        result[key] = result.get(key, 0) + chance
    return result


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Distribution[int]:
    """The distribution of the sum of two independent outcomes."""
    result: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            result[x + y] = result.get(x + y, 0) + px * py
    return result


def total(parts: Iterable[Mapping[int, Fraction]]) -> Distribution[int]:
    """The sum of independent outcomes."""
    result: Distribution[int] = point(0)
    for part in parts:
        result = convolve(result, part)
    return result


def repeated(part: Mapping[int, Fraction], times: int) -> Distribution[int]:
    """The sum of `times` independent copies of `part`, exactly, in time linear in `times`
    times the outcomes' spread: 600 d20s in a fraction of a second, where squaring the
    distribution (millions of Fraction products) took minutes."""
    if times < 0:
        raise ValueError("cannot repeat a roll a negative number of times")
    if times == 0:
        return point(0)
    lowest, weights, denominator = _whole_weights(part)
    if not weights:
        return {}
    scale = denominator**times
    return {
        lowest * times + offset: Fraction(count, scale)
        for offset, count in enumerate(power_coefficients(weights, times))
        if count
    }


def repeated_at_least(
    part: Mapping[int, Fraction], times: int, thresholds: Sequence[int]
) -> list[Fraction]:
    """P(the sum of `times` copies of `part` >= t) for each threshold t. Only the counts
    below the highest threshold are worked out: a table of P(AP >= k) for small k does not
    pay for every outcome of hundreds of dice."""
    if times < 0:
        raise ValueError("cannot repeat a roll a negative number of times")
    lowest, weights, denominator = _whole_weights(part)
    if not weights or not thresholds:
        return [Fraction(0) for _ in thresholds]
    start = lowest * times  # the lowest sum; counts[i] is the count of the sum start + i
    counts = power_coefficients(weights, times, below=max(thresholds) - start)
    below = [0, *itertools.accumulate(counts)]  # below[i]: the count of sums under start + i
    mass = sum(weights.values()) ** times
    return [
        Fraction(mass - below[min(max(t - start, 0), len(counts))], denominator**times)
        for t in thresholds
    ]


def _whole_weights(part: Mapping[int, Fraction]) -> tuple[int, dict[int, int], int]:
    """`part` as whole-number weights over a common denominator, each outcome counted
    from the lowest: (lowest outcome, {outcome - lowest: weight}, denominator)."""
    part = {value: chance for value, chance in part.items() if chance}
    if not part:
        return 0, {}, 1
    lowest = min(part)
    denominator = math.lcm(*(chance.denominator for chance in part.values()))
    weights = {value - lowest: int(chance * denominator) for value, chance in part.items()}
    return lowest, weights, denominator


def power_coefficients(
    weights: Mapping[int, int], times: int, below: int | None = None
) -> list[int]:
    """The coefficients of P(x)**times for P(x) = sum(weight * x**power), weights[0] != 0
    (those of the powers under `below` only, if given), one at a time by J. C. P. Miller's
    recurrence for the power of a power series:
    k * w0 * c[k] = sum over j of ((times + 1) * j - k) * w[j] * c[k - j].
    The division is exact, as every c[k] is a whole number."""
    first = weights[0]
    terms = sorted((power, weight) for power, weight in weights.items() if power and weight)
    last = max(weights) * times
    if below is not None:
        last = min(last, below - 1)
    coefficients = [first**times] if last >= 0 else []
    for k in range(1, last + 1):
        total = sum(
            ((times + 1) * power - k) * weight * coefficients[k - power]
            for power, weight in terms
            if power <= k
        )
        coefficients.append(total // (k * first))
    return coefficients


def at_least(distribution: Mapping[int, Fraction], threshold: int) -> Fraction:
    """P(outcome >= threshold)."""
    return sum((p for value, p in distribution.items() if value >= threshold), Fraction(0))


def at_most(distribution: Mapping[int, Fraction], threshold: int) -> Fraction:
    """P(outcome <= threshold)."""
    return sum((p for value, p in distribution.items() if value <= threshold), Fraction(0))


def tails(distribution: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """P(outcome >= v) for every outcome v, in one pass from the highest (at_least for
    each outcome in turn would add up the whole distribution each time)."""
    result: dict[int, Fraction] = {}
    running = Fraction(0)
    for value in sorted(distribution, reverse=True):
        running += distribution[value]
        result[value] = running
    return result


def roll(sides: int, rng: random.Random) -> int:
    """One die of `sides` faces rolled with `rng`: a seeded `rng` replays a roll."""
    return rng.randint(1, sides)


def ordered(distribution: Mapping[T, Fraction]) -> list[tuple[T, Fraction]]:
    """Outcomes in ascending order, for printing."""
    return sorted(distribution.items(), key=lambda item: item[0])


def percent(chance: Fraction) -> float:
    """A chance in percent, for printing."""
    return float(chance * 100)
