"""Checks that run the rules: printed figures the rules determine, and worked examples."""

from __future__ import annotations

from rulepress.compendium.model import Ruleset
from rulepress.errors import Level
from rulepress.models import OddsTable, PushRule, StepDice
from rulepress.rules.examples import replay
from rulepress.rules.odds import best_reading, exact_percent, push_reading, within_rounding
from rulepress.validators.registry import Report, check


@check("RP301", "printed-odds-differ", Level.WARNING)
def printed_odds_differ(ruleset: Ruleset):
    """A printed odds cell differs from the chance the rules give by more than rounding
    (a whole point or more). For a pushed table the check also names the reading of the
    push rule the printed table follows, and reports when it is not the text's.

    Example: the initial-roll table prints 49% for d6 + d8, where the rules give 47.9%."""
    step_dice, push = ruleset.one(StepDice), ruleset.one(PushRule)
    if step_dice is None:
        return
    text_reading = push_reading(push)
    for entry in ruleset.entries:
        table = entry.document
        if not isinstance(table, OddsTable):
            continue
        reading, agreeing = (
            best_reading(step_dice, table) if table.roll == "pushed" else (text_reading, 0)
        )
        if table.roll == "pushed" and reading != text_reading:
            yield Report(
                entry,
                f"the printed {table.roll} table follows the '{reading}' "
                f"reading of the push ({agreeing} cells agree), not the rule "
                f"text's '{text_reading}'",
                ("roll",),
            )
        for r, row in enumerate(table.rows):
            for c, (column, printed) in enumerate(zip(table.columns, row.percent, strict=False)):
                exact = exact_percent(step_dice, table, row.skill, column, reading)
                if not within_rounding(printed, exact):
                    pool = f"attribute {column}" + (
                        f" + skill {row.skill}" if row.skill else " alone"
                    )
                    by = f" ({reading} reading)" if table.roll == "pushed" else ""
                    yield Report(
                        entry,
                        f"{pool}: printed {printed}%, the rules give {float(exact):.1f}%{by}",
                        ("rows", r, "percent", c),
                    )


@check("RP302", "example-disagrees", Level.WARNING)
def example_disagrees(ruleset: Ruleset):
    """A worked example printed in the source does not come out as the source says when
    replayed through its own rule.

    Example: an example that says rolling 1-6 on six dice gives 5 AP (the rule gives 4)."""
    for entry in ruleset.entries:
        for index, example in enumerate(getattr(entry.document, "examples", ())):
            try:
                computed = replay(entry.document, example, ruleset)
            except (KeyError, ValueError, TypeError) as problem:
                yield Report(
                    entry,
                    f"example '{example.id}' cannot be replayed: {problem}",
                    ("examples", index, "given"),
                    level=Level.INFO,
                )
                continue
            for key, expected in example.expect.items():
                if key not in computed:
                    yield Report(
                        entry,
                        f"example '{example.id}' expects '{key}', which the rule does not compute",
                        ("examples", index, "expect", key),
                        level=Level.INFO,
                    )
                elif computed[key] != expected:
                    yield Report(
                        entry,
                        f"example '{example.id}': the source says {key} "
                        f"{expected!r}, the rule gives {computed[key]!r}",
                        ("examples", index, "expect", key),
                    )
