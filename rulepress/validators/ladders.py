"""A check over the ladders the rules state (models.common.StatesLadder): ladders of one
kind whose source says of some steps that they include the ones below, and not of
others (RP235 ladder-inclusion)."""

from __future__ import annotations

from collections import defaultdict

from rulepress.compendium.model import Entry, Ruleset
from rulepress.errors import Level
from rulepress.models.common import LadderStep, StatesLadder
from rulepress.validators.registry import Report, check


def _ladder_index(document) -> object:
    """What ladder-inclusion reads of a document: a published ladder's steps."""
    if not isinstance(document, StatesLadder) or document.is_draft:
        return None
    return (document.id, document.kind, document.ladder_steps())


@check("RP235", "ladder-inclusion", Level.WARNING, index=_ladder_index)
def ladder_inclusion(ruleset: Ruleset):
    """Ladders of one kind disagree on inclusion: the source says of a step of one that
    it includes the steps below it ("= 2TC (includes above)"), and of a comparable step
    (above the first, of a ladder of the same kind, the same ladder too) says nothing,
    so a reader cannot tell whether the silent steps stack. One finding per ladder, at
    its first silent step, naming its silent steps and a step that says it; a ladder's
    kind says how its steps read (`ladder_steps`).

    Example: a ladder "wounded = 1TC / incapacitated = 2TC (includes above) / killed =
    4TC", whose killed step does not say it includes the ones below."""
    by_kind: dict[str, list[tuple[Entry, list[LadderStep]]]] = defaultdict(list)
    for entry in ruleset.entries:
        document = entry.document
        if isinstance(document, StatesLadder) and not document.is_draft:
            by_kind[document.kind].append((entry, document.ladder_steps()))
    for ladders in by_kind.values():
        saying = [
            (entry, step) for entry, steps in ladders for step in steps if step.includes_below
        ]
        if not saying:
            continue
        for entry, steps in ladders:
            silent = [step for step in steps if not step.includes_below]
            if not silent:
                continue
            example_entry, example = next(((e, s) for e, s in saying if e is entry), saying[0])
            where = "" if example_entry is entry else f" of '{example_entry.document.id}'"
            words = f" ({example.words!r})" if example.words else ""
            names = ", ".join(f"'{step.step}'" for step in silent)
            yield Report(
                entry,
                f"step{'s' if len(silent) > 1 else ''} {names} of '{entry.document.id}' "
                f"{'do' if len(silent) > 1 else 'does'} not say whether "
                f"{'they include' if len(silent) > 1 else 'it includes'} the steps below, "
                f"where step '{example.step}'{where} says it does{words}",
                silent[0].path,
            )
