"""The check that cells a table's construction makes equal are equal (RP306)."""

from __future__ import annotations

from rulepress.compendium.model import Ruleset
from rulepress.errors import Level
from rulepress.validators.plugin_calls import stated
from rulepress.validators.registry import Report, check


@check("RP306", "equal-cells-differ", Level.WARNING, reads="document")
def equal_cells_differ(ruleset: Ruleset):
    """Cells that a table's own construction makes equal hold different figures. A kind
    names such cells with an `equal_cells()` method, yielding (why, cells), each cell a
    (label, value, data path): an odds table of an attribute die by a skill die is
    symmetric, since a d6 skill with a d8 attribute is the same two dice as a d8 skill
    with a d6 attribute. Each cell that differs from the first of its set is named,
    with that first cell.

    Example: an odds table printing 49% for a d6 skill with a d8 attribute, and 47% for
    a d8 skill with a d6 attribute."""
    for entry in ruleset.entries:
        if entry.document.is_draft:
            continue
        sets, failed = stated(entry, "equal_cells")
        if failed is not None:
            yield failed
        for why, cells in sets:
            (label, value, _), *others = cells
            for other, theirs, path in others:
                if theirs != value:
                    yield Report(
                        entry,
                        f"{other} is {theirs}, but {label} is {value}, and {why} makes them equal",
                        path,
                    )
