"""The shapes a game's site hooks return (stable: see rulepress.plugin): a kind's
`calculator` hook gives a `Calculator`, its `chart` hook charts by file name (`Chart`)."""

from __future__ import annotations

from rulepress.exporters.site.calculators import Calculator, chance_cells
from rulepress.exporters.site.charts import Chart

__all__ = ["Calculator", "Chart", "chance_cells"]
