"""The `rulepress` command, which `python -m rulepress` runs too. The working folder is
dropped from `sys.path` first (rulepress.environment). A no-op build is answered from its
stamp (rulepress.build_stamp) before the CLI and its libraries load; everything else goes
to the CLI."""

from __future__ import annotations

import sys

from rulepress.environment import leave_working_folder

# Before anything Python had not loaded at start is imported: no module and no plugin
# comes from the working folder (see rulepress.environment).
leave_working_folder()

from rulepress.build_stamp import up_to_date  # noqa: E402


def main() -> None:
    """The `rulepress` script: a build with nothing to do says so from its stamp; anything else
    runs the CLI."""
    report = up_to_date(sys.argv[1:])
    if report is not None:
        print("\n".join(report))
        return
    from rulepress.cli import main as cli_main

    cli_main()
