"""The shapes a game's site hooks return (stable: see rulepress.plugin): a kind's
`calculator` hook gives a `Calculator`, its `chart` hook charts by file name (`Chart`),
drawn as the site's own are (`chart_frame`, `chart_y`, the plot's `WIDTH`, `HEIGHT` and
margins, `COLOURS`) with their figures as a Markdown table (`figures_table`, `percent`)."""

from __future__ import annotations

from rulepress.exporters.escaping import html_text
from rulepress.exporters.markdown_text import percent
from rulepress.exporters.site.calculators import (
    Calculator,
    calculator_form,
    chance_cells,
    number_input,
    select,
)
from rulepress.exporters.site.charts import (
    BOTTOM,
    COLOURS,
    HEIGHT,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    Chart,
    chart_frame,
    chart_y,
    figures_table,
)

__all__ = [
    "BOTTOM",
    "COLOURS",
    "HEIGHT",
    "LEFT",
    "RIGHT",
    "TOP",
    "WIDTH",
    "Calculator",
    "Chart",
    "calculator_form",
    "chance_cells",
    "chart_frame",
    "chart_y",
    "figures_table",
    "html_text",
    "number_input",
    "percent",
    "select",
]
