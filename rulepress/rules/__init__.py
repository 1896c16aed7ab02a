"""The core's rules that span documents: the replay of worked examples (examples). Each
game's own rules are in its package (rulepress.games.<game>.rules).

They read models and a Ruleset, so they sit above both; the exact dice engine that the
models themselves use is rulepress.dice, below the models. Every function is pure.
"""
