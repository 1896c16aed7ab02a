"""How long the exact rules take: every IRIS rank up to 30 and every T2K4e pool.

Run: .venv/bin/python bench/bench_rules.py   (prints a table; medians of repeated runs)
Caches are not involved: each call recomputes its distribution from the rule data.
"""

from __future__ import annotations

import itertools
import statistics
import time
from pathlib import Path

import rulepress
from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.games.t2k4e.models.step_dice import StepDice

REPEATS = 15


def median_ms(function) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    compendium = rulepress.load(Path(__file__).resolve().parents[1] / "compendium")
    skill_test = compendium.ruleset("iris").one(SkillTest)
    step_dice = compendium.ruleset("t2k4e").one(StepDice)

    iris = {
        rank: median_ms(lambda r=rank: skill_test.distribution(r, trait_bonus=5))
        for rank in range(0, 31)
    }
    pools = [[a] for a in ("d6", "d8", "d10", "d12")] + [
        list(p) for p in itertools.product(("d6", "d8", "d10", "d12"), repeat=2)
    ]
    t2k = {}
    for pool in pools:
        for pushed, reading in (
            (False, "neither-one-nor-success"),
            (True, "neither-one-nor-success"),
            (True, "every-non-success"),
        ):
            key = f"{'+'.join(pool)} {'pushed ' + reading if pushed else 'initial'}"
            t2k[key] = median_ms(
                lambda p=pool, x=pushed, r=reading: step_dice.distribution(p, pushed=x, reading=r)
            )

    print(f"median of {REPEATS} runs, milliseconds per exact distribution")
    print(
        f"IRIS skill test, rank 0-30: max {max(iris.values()):.3f} ms "
        f"(rank {max(iris, key=iris.get)}), rank 30 {iris[30]:.3f} ms, "
        f"mean {statistics.mean(iris.values()):.3f} ms"
    )
    print(
        f"T2K4e, {len(t2k)} pool/roll combinations: max {max(t2k.values()):.3f} ms "
        f"({max(t2k, key=t2k.get)}), mean {statistics.mean(t2k.values()):.3f} ms"
    )


if __name__ == "__main__":
    main()
