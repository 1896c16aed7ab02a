"""`rulepress odds`: exact distributions and tables, computed from the rules.

Chances are exact fractions; `--json` gives each as "numerator/denominator" beside its
percentage.
"""

from __future__ import annotations

from fractions import Fraction

from rulepress.commands.options import (
    table_lines,
)


def chance_json(chance: Fraction) -> dict:
    """A chance as `odds --json` gives it: the exact fraction, and a percent rounded for reading."""
    return {
        "fraction": f"{chance.numerator}/{chance.denominator}",
        # int / int is correctly rounded, without reducing a Fraction of 2,000-digit parts
        "percent": round(chance.numerator * 100 / chance.denominator, 4),
    }


def format_distribution(rows: list[tuple[str, dict]], title: str, outcome: str) -> str:
    """A distribution as an aligned text table: each outcome's chance, in percent and exact."""
    cells = [[label, f"{chance['percent']:.4f}%", chance["fraction"]] for label, chance in rows]
    table = table_lines([outcome, "chance", "exactly"], cells, ragged_last=True)
    return "\n".join([title, *table])
