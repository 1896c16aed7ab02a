"""Turning other sources of the rules into compendium documents (a wiki page of weapons)."""
