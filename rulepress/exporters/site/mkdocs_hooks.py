"""mkdocs hooks of every rules site: loaded by mkdocs (`hooks:` in the generated
mkdocs.yml), never imported by rulepress.

Material prints the site's name, description and copyright line into its pages as they
are, unescaped in some places and escaped in others. They come from the publisher's
settings, so they are made markup-safe once here: escaped text that Jinja's `e` filter
leaves alone, so every place shows the text, and none runs it as HTML.
"""

from __future__ import annotations

import html

from markupsafe import Markup


def on_config(config):
    """Escape the settings' texts that Material prints."""
    for name in ("site_name", "site_description", "copyright"):
        text = config.get(name)
        if isinstance(text, str) and not isinstance(text, Markup):
            config[name] = Markup(html.escape(text, quote=True))
    return config


def on_page_markdown(markdown, page, config, files):
    """A page's edit link is the YAML file it was built from (`edit_url` in the front
    matter that rulepress wrote), or none: mkdocs would point at the generated Markdown."""
    page.edit_url = page.meta.get("edit_url") or None
    return markdown
