"""Cross-document checks. Importing this package registers rulepress's own checks; the
games' are read from the registry (`registered_checks`)."""

from rulepress.validators import (  # noqa: F401
    computed,
    consistency,
    durations,
    example_figures,
    fields,
    ladders,
    mirrors,
    name_spellings,
    names,
    prose,
    references,
    rich_text,
    tables,
    text_quality,
    thresholds,
    tiers,
    translations,
)
from rulepress.validators.acknowledgements import apply_acknowledgements
from rulepress.validators.registry import (
    CHECKS,
    Check,
    Report,
    check,
    registered_checks,
    run_checks,
)

__all__ = [
    "CHECKS",
    "Check",
    "Report",
    "apply_acknowledgements",
    "check",
    "registered_checks",
    "run_checks",
]
