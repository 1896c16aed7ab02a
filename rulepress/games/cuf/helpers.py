"""What the TC sources' and ladders' section templates may call besides the usual
filters (their kinds' `helpers` hook): helpers(ruleset, env) -> the names a template sees."""

from __future__ import annotations

import jinja2

from rulepress.games.cuf.models.threat import TcSource
from rulepress.plugin import Ruleset


def tc_amounts(ruleset: Ruleset, env: jinja2.Environment) -> dict:
    """TC sources' and ladders' `tc_amount(source)`."""
    return {"tc_amount": tc_amount}


def tc_amount(source: TcSource) -> str:
    """A TC source's amount as a player reads it: `2 TC`, `1 to 4 TC`, `-1 TC per ally`."""
    if source.tc == "referee":
        text = "set by the referee"
    elif isinstance(source.tc, int):
        text = f"{source.tc} TC"
    else:
        text = f"{source.tc.min} to {source.tc.max} TC"
    if source.per:
        text += f" per {source.per.replace('-', ' ')}"
    if source.outstanding_success_tc is not None:
        text += f" ({source.outstanding_success_tc} TC on an Outstanding Success)"
    return text
