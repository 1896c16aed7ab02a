"""`python -m rulepress`: the `rulepress` command, for an environment without its script."""

from rulepress.launch import main

main()
