"""The shapes a game's site hooks return (stable: see rulepress.plugin): a kind's
`calculator` hook gives a `Calculator`, its `chart` hook charts by file name (`Chart`)."""

from __future__ import annotations

from rulepress.exporters.site.calculators import (
    Calculator,
    calculator_form,
    chance_cells,
    number_input,
    select,
)
from rulepress.exporters.site.charts import Chart

__all__ = ["Calculator", "Chart", "calculator_form", "chance_cells", "number_input", "select"]
