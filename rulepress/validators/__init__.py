"""Cross-document checks. Importing this package registers every check."""

from rulepress.validators import computed, consistency, names, references, tables  # noqa: F401
from rulepress.validators.acknowledgements import apply_acknowledgements
from rulepress.validators.registry import CHECKS, Check, Report, check, run_checks

__all__ = ["CHECKS", "Check", "Report", "apply_acknowledgements", "check", "run_checks"]
