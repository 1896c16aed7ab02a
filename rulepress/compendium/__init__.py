"""The compendium in memory: reading its YAML files into checked documents, caching them,
and writing documents back as canonical YAML."""
