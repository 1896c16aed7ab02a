from rulepress.cli import main

main()
