"""Checks that run the rules: printed figures the rules determine, and worked examples."""

from __future__ import annotations

from rulepress.compendium.model import Ruleset
from rulepress.errors import Level, PluginError
from rulepress.rules.examples import UNREPLAYABLE, examples_index, replay
from rulepress.validators.registry import Report, check


@check("RP302", "example-disagrees", Level.WARNING, index=examples_index)
def example_disagrees(ruleset: Ruleset):
    """A worked example printed in the source does not come out as the source says when
    replayed through its own rule.

    Example: an example that says rolling 1-6 on six dice gives 5 AP (the rule gives 4)."""
    for entry in ruleset.entries:
        for index, example in enumerate(getattr(entry.document, "examples", ())):
            try:
                computed = replay(entry.document, example, ruleset)
            except PluginError as failed:  # the plugin's fault, not the example's
                yield Report(entry, str(failed), ("examples", index), level=Level.ERROR)
                continue
            except UNREPLAYABLE as problem:
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
