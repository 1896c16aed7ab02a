"""What the site's modules share: the shipped files, the page names kept for
themselves, the search boosts, and the record of a project being written (`SiteProject`)."""

from __future__ import annotations

from pathlib import Path

# The site's own files (mkdocs.yml, home-page text, stylesheet, script, theme overrides):
# package data, so an installed rulepress builds a site without this repository.
SITE = Path(__file__).resolve().parent / "assets"


HOOKS = Path(__file__).resolve().parent / "mkdocs_hooks.py"


REDIRECT = """# {title}

<meta http-equiv="refresh" content="0; url={target}">

This page has moved to {link}.
"""


DOWNLOADS = "downloads"
"""The site's folder of each ruleset's guide, Foundry module zip and JSON."""


RULE_BOOST = 2
"""Search weight of a page of rules (a chapter, a weapon section): a rule's own section
ranks above the rulings and contributors' pages that mention its words."""


ASIDE_BOOST = 0.5
"""Search weight of the pages about the rules rather than the rules themselves: rulings,
known problems, sources, changes, contributing."""


PUBLISHER_FILES = "_publisher"
"""Where the files the settings name (logo, favicon, stylesheets, scripts) go: no ruleset's id,
which is a slug, can be this name."""


class SiteProject:
    """Writes the project's files, touching only those whose text changed (so a live
    preview, whose mkdocs rebuilds the pages newer than their HTML, rebuilds only those)."""

    def __init__(self, folder: Path):
        """The project goes in `folder`; its pages in `docs/` there, as mkdocs expects."""
        self.folder = folder
        self.docs = folder / "docs"
        self.written: set[Path] = set()
        """The files this run rendered (and wrote, if their bytes changed)."""
        self.changed: set[Path] = set()
        """The files this run wrote other bytes into (new ones among them)."""
        self.added: set[Path] = set()
        """The files this run created."""
        self.removed: set[Path] = set()
        """The files `remove_stale` deleted."""
        self.downloads = DOWNLOADS
        """The way from the home page to the downloads folder (a translation's site
        links the source site's)."""
        self.language: str | None = None
        """A translation's site: its language, whose editions its home page links
        (`downloads_of`) where a ruleset has one."""
        self.scripts: list[tuple[str, bytes]] = []
        """The games' calculator scripts the pages need, in load order (`write_pages`
        writes them, `write_config` lists them)."""

    def write(self, relative: str, text: str, *, docs: bool = True) -> None:
        """Write a page (or, with `docs=False`, a project file) unless it already holds `text`."""
        self.write_bytes(relative, text.encode("utf-8"), docs=docs)

    def write_bytes(self, relative: str, data: bytes, *, docs: bool = True) -> None:
        """Write a file of the site as it is (an image, a stylesheet), unless it already
        holds `data`."""
        path = (self.docs if docs else self.folder) / relative
        if path in self.written:  # a page named like another would silently replace it
            raise RuntimeError(f"two pages of the site would be written to {relative}")
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.is_file()
        if not existed or path.read_bytes() != data:
            path.write_bytes(data)
            self.changed.add(path)
            if not existed:
                self.added.add(path)
        self.written.add(path)

    def remove_stale(self) -> None:
        """Delete the pages an earlier run wrote that this one did not."""
        for path in sorted(self.docs.rglob("*"), reverse=True):
            if path.is_file() and path not in self.written:
                path.unlink()
                self.removed.add(path)
