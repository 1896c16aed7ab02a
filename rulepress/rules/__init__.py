"""The games' rules that span documents: TC totals (cuf), acting order (cool), the odds
against printed tables (odds) and the replay of worked examples (examples).

They read models and a Ruleset, so they sit above both; the exact dice engine that the
models themselves use is rulepress.dice, below the models. Every function is pure.
"""
