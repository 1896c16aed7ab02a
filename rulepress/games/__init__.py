"""rulepress's own games, each a package that registers one `Game` through the
`rulepress.games` entry point of rulepress's pyproject.toml, as any publisher's game does,
and imports only the public API (`rulepress.plugin`). The core never imports this package:
it finds the games through their entry points.
"""
