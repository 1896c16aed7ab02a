"""Coolness Under Fire's calculator: the threat check (a kind's `calculator` hook; its
script is `calculator.js, beside it`)."""

from __future__ import annotations

from rulepress.games.cuf import rules as cuf_rules
from rulepress.games.cuf.models.cuf import ThreatThreshold
from rulepress.plugin.site import Calculator, calculator_form, chance_cells, number_input

CUF_RATINGS = 40
"""The CUF and Willpower the CUF calculator takes, 0 to 40 each (as `roll cuf`)."""
CUF_TCS = 200
"""The TC totals the CUF calculator precomputes, 0 to 200: past three times the highest
CUF, every total is in the last state; `roll cuf` takes up to 500."""


def _result_cells(result) -> dict:
    return {
        "text": result.text.strip(),
        "bane": result.bane,
        "flee": result.flee_or_surrender,
        "skill": result.skill_penalty,
        "initiative": result.initiative_penalty,
    }


def cuf_calculator(ruleset) -> Calculator:
    """CUF and Willpower (0-CUF_RATINGS) and TC total (0-CUF_TCS): the state, its check's
    target and chance, and what failing or passing brings. Bounded: a situation index per
    (CUF, TCs) pair (41 x 201 numbers) into the distinct situations they give, and each
    state's check target and chance per (CUF, Willpower) pair (41 x 41 numbers each)."""
    thresholds = sorted(ruleset.all(ThreatThreshold), key=lambda t: t.exceeds)
    situations: list[list] = []
    known: dict[tuple, int] = {}
    grid = []
    for cuf in range(CUF_RATINGS + 1):
        row = []
        for tcs in range(CUF_TCS + 1):
            threshold = cuf_rules.state(ruleset, tcs, cuf=cuf).threshold
            situation = (
                (-1, 0, 0, 0, False)
                if threshold is None
                else (
                    thresholds.index(threshold),
                    threshold.threshold(cuf),
                    threshold.suppression_rounds(tcs, cuf, False),
                    threshold.suppression_rounds(tcs, cuf, True),
                    threshold.penalties_last(tcs, cuf),
                )
            )
            if situation not in known:
                known[situation] = len(situations)
                situations.append(list(situation))
            row.append(known[situation])
        grid.append(row)
    chances: list[list[str]] = []
    chance_index: dict[tuple, int] = {}
    states = []
    for threshold in thresholds:
        targets, passing = [], []
        for cuf in range(CUF_RATINGS + 1):
            target_row, chance_row = [], []
            for willpower in range(CUF_RATINGS + 1):
                ratings = {"cuf": cuf, "willpower": willpower}
                target_row.append(threshold.check.target(ratings))
                cells = tuple(chance_cells(threshold.check.chance(ratings)))
                chance_index.setdefault(cells, len(chances))
                if chance_index[cells] == len(chances):
                    chances.append(list(cells))
                chance_row.append(chance_index[cells])
            targets.append(target_row)
            passing.append(chance_row)
        states.append(
            {
                "name": threshold.display_name,
                "exceeds": threshold.exceeds,
                "difficulty": threshold.check.difficulty,
                "targets": targets,
                "chances": passing,
                "failure": _result_cells(threshold.on_failure),
                "success": _result_cells(threshold.on_success),
                "penaltiesEnd": threshold.penalties_end.text.strip(),
            }
        )
    form = calculator_form(
        "cuf",
        "Threat check",
        [
            number_input("cuf", "cuf", "CUF", 0, CUF_RATINGS, 4),
            number_input("cuf", "willpower", "Willpower", 0, CUF_RATINGS, 6),
            number_input("cuf", "tcs", "TC total", 0, CUF_TCS, 9),
        ],
    )
    text = (
        "Give a character's CUF and Willpower and the TCs they have: the calculator shows "
        "the threat state, the check it calls for, the chance of passing it, and what "
        f"failing or passing brings. TC totals above {CUF_TCS} are not precomputed (past "
        "three times the highest CUF they change only the rounds of suppression)."
    )
    data = {
        "grid": grid,
        "situations": situations,
        "states": states,
        "chances": chances,
        "calm": cuf_rules.calm(ruleset).name,
    }
    return Calculator("cuf", "Threat check", text, form, data)
