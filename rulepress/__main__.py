from rulepress.launch import main

main()
