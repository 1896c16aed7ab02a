"""Issue 30's table: each figure of a bench run beside its target, with a pass mark.

`report(result, bundled)` takes one size's figures (bench_build.measure) and the bundled
compendium's (bench_build.bundled_noop), all taken in the same run, and gives one line
per figure: the measured values, their ratio, the target and ✔ (met), ✘ (missed) or
"not measured: <why>" (a figure the run could not take).
"""

from __future__ import annotations

from dataclasses import dataclass

TARGET_DOCUMENTS = 10_000
"""The size issue 30 sets its targets at."""
MEMORY_EDITS = 100
HISTORY_COMMITS = 6


@dataclass(frozen=True)
class Figure:
    """One row of the table: its name, the two figures it divides (keys of the size's
    result, or of the bundled one's when `bundled`), the unit shown and the most it may be."""

    name: str
    numerator: str
    denominator: str | None
    most: float
    unit: str = "s"
    bundled: bool = False
    strict: bool = False
    """The target is "< most" (else "<= most")."""


FIGURES = (
    Figure(
        "cold build (Foundry + Markdown + JSON) / libyaml floor",
        "cold build",
        "floor: libyaml parse",
        1.5,
    ),
    Figure(
        "Foundry export / official CLI's `fvtt package pack`",
        "foundry",
        "anchor: fvtt package pack",
        1.5,
    ),
    Figure("site: pages + mkdocs build / libyaml floor", "site build", "floor: libyaml parse", 2),
    Figure(
        f"site pages with a {HISTORY_COMMITS}-commit history, no cache / cold build",
        "site pages + history, no cache",
        "cold build",
        0.25,
    ),
    Figure(
        f"watch: peak memory after {MEMORY_EDITS} edits / the build's peak",
        f"watch: MB after {MEMORY_EDITS} edits (peak)",
        "peak memory MB",
        1.25,
        unit="MB",
    ),
    Figure(
        "bundled no-op rebuild / bare `import rulepress`",
        "bundled no-op rebuild",
        "bare import",
        1.5,
        bundled=True,
    ),
    Figure(
        "watch one-file update / CLI pack",
        "watch: one-file update",
        "anchor: fvtt package pack",
        0.25,
    ),
    Figure(
        "serve: changed page / CLI pack",
        "serve: changed page served",
        "anchor: fvtt package pack",
        2,
    ),
    Figure("peak memory of a build", "peak memory MB", None, 500, unit="MB", strict=True),
)


def _value(figures: dict, key: str | None) -> float | str:
    """The figure, or why it is missing ("not measured: ..." or "not measured")."""
    value = figures.get(key) if key else None
    if isinstance(value, int | float):
        return float(value)
    return value if isinstance(value, str) else "not measured"


def _shown(value: float, unit: str) -> str:
    return f"{value:.0f} MB" if unit == "MB" else f"{value:.3g} s"


def row(figure: Figure, result: dict, bundled: dict) -> tuple[str, str, str, str]:
    """(figure, measured, target, mark) of one row."""
    figures = bundled if figure.bundled else result
    top = _value(figures, figure.numerator)
    bottom = _value(figures, figure.denominator) if figure.denominator else 1.0
    comparison = "<" if figure.strict else "<="
    if figure.denominator is None:
        target = f"{comparison} {_shown(figure.most, figure.unit)}"
    else:
        target = f"{comparison} {figure.most:g}x"
    for missing in (top, bottom):
        if isinstance(missing, str):
            return figure.name, missing, target, "?"
    if figure.denominator is None:
        measured, ratio = _shown(top, figure.unit), top
    else:
        ratio = top / bottom if bottom else float("inf")
        parts = f"{_shown(top, figure.unit)} / {_shown(bottom, figure.unit)}"
        measured = f"{parts} = {ratio:.2f}x"
    met = ratio < figure.most if figure.strict else ratio <= figure.most
    return figure.name, measured, target, "✔" if met else "✘"


def report(result: dict, bundled: dict, figures: tuple[Figure, ...] = FIGURES) -> str:
    """The table of one size's figures against their targets, as Markdown."""
    rows = [row(figure, result, bundled) for figure in figures]
    lines = [
        f"| figure at {result['documents']:,} documents | measured | target | |",
        "| --- | --- | --- | --- |",
    ]
    lines += [
        f"| {name} | {measured} | {target} | {mark} |" for name, measured, target, mark in rows
    ]
    met = sum(mark == "✔" for *_, mark in rows)
    lines.append(f"\n{met} of {len(rows)} targets met at {result['documents']:,} documents")
    if result["documents"] < TARGET_DOCUMENTS:
        lines.append(
            f"(the targets are set at {TARGET_DOCUMENTS:,} documents; with fewer, what every "
            "build costs whatever its size, Python's start, the imports, mkdocs's theme, "
            "weighs more)"
        )
    return "\n".join(lines)
