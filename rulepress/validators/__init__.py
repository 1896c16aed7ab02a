"""Cross-document checks. Importing this package registers every check."""

from rulepress.validators import (  # noqa: F401
    computed,
    consistency,
    names,
    prose,
    references,
    rich_text,
    tables,
    thresholds,
)
from rulepress.validators.acknowledgements import apply_acknowledgements
from rulepress.validators.registry import CHECKS, Check, Report, check, run_checks

__all__ = ["CHECKS", "Check", "Report", "apply_acknowledgements", "check", "run_checks"]
