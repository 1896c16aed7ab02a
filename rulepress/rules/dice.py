"""A small exact dice engine: distributions as {outcome: Fraction}, combined by convolution."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping
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
    """The sum of `times` independent copies of `part`, by squaring (fast for large counts)."""
    if times < 0:
        raise ValueError("cannot repeat a roll a negative number of times")
    result: Distribution[int] = point(0)
    square = dict(part)
    while times:
        if times & 1:
            result = convolve(result, square)
        times >>= 1
        if times:
            square = convolve(square, square)
    return result


def at_least(distribution: Mapping[int, Fraction], threshold: int) -> Fraction:
    return sum((p for value, p in distribution.items() if value >= threshold), Fraction(0))


def at_most(distribution: Mapping[int, Fraction], threshold: int) -> Fraction:
    return sum((p for value, p in distribution.items() if value <= threshold), Fraction(0))


def roll(sides: int, rng: random.Random) -> int:
    return rng.randint(1, sides)


def ordered(distribution: Mapping[T, Fraction]) -> list[tuple[T, Fraction]]:
    """Outcomes in ascending order, for printing."""
    return sorted(distribution.items(), key=lambda item: item[0])


def percent(chance: Fraction) -> float:
    return float(chance * 100)
