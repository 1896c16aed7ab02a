"""The games' rules as code: an exact dice engine and each ruleset's resolution functions.

Every function is pure. Given dice faces it resolves them; given a `random.Random` it
rolls; given neither it returns the exact distribution as fractions.
"""
