"""`rulepress serve`: preview the rules site, updated live as the compendium changes.

The validated compendium stays in memory (rulepress.live) and mkdocs runs in this
process: its live-reload server serves a site built into a temporary folder and watches
the compendium folder and the settings file. On a save the compendium is updated, only
the pages the changed documents feed are rendered again (a page whose bytes did not
change is not touched), and mkdocs rebuilds only the pages newer than their HTML (a
dirty build); the whole site when pages were added or removed or the navigation
changed. The browser reloads by itself. A compendium with errors keeps the last good
site, prints why, and shows it on every page served until it is fixed (serve_findings).
When rulesets declare languages, each language's site is served below its folder
(`/de/`), as the build writes it, with the language switcher on every page: it is built
whole (by the build's own code) beside the served site after each change, once the
source's site is, and only its files whose bytes changed are copied into the site.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import jinja2
from material.plugins.offline.plugin import OfflinePlugin
from material.plugins.search.plugin import SearchPlugin
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import MkDocsException
from mkdocs.livereload import _serve_url
from mkdocs.structure.files import File
from watchdog.events import FileSystemEvent, FileSystemEventHandler

from rulepress.commands.serve_findings import FindingsServer, Problems
from rulepress.commands.serve_languages import build_translations
from rulepress.commands.validate import format_findings
from rulepress.commands.watch_events import BURST_PATHS
from rulepress.compendium.model import Compendium
from rulepress.compendium.settings import settings_file
from rulepress.errors import RulepressError
from rulepress.exporters.site import site_plan
from rulepress.exporters.site.languages import SiteLanguage
from rulepress.exporters.site.pages import site_environments, write_pages
from rulepress.exporters.site.places import PageInputs, changed_own_pages
from rulepress.exporters.site.project import SiteProject
from rulepress.exporters.site.site_config import write_config
from rulepress.git import git_output
from rulepress.history import Revision, history
from rulepress.live import LiveCompendium

GLOSSARY = "includes/glossary.md"
"""Appended to every page (pymdownx.snippets): a change rebuilds the whole site."""


def check_address(address: str) -> None:
    """Refuse, in one line, an address mkdocs could not serve on (it would print a
    traceback): not HOST:PORT, a port out of range, a host that does not resolve, a port
    in use. The port is tried by binding it, as the server will."""
    host, _, port = address.rpartition(":")
    if not host or not re.fullmatch(r"[0-9]{1,5}", port) or not 1 <= int(port) <= 65535:
        raise RulepressError(f"--address: {address!r} is not HOST:PORT with a port from 1 to 65535")
    try:
        found = socket.getaddrinfo(host.strip("[]"), int(port), type=socket.SOCK_STREAM)
        family, kind, protocol, _, place = found[0]
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(place)
    except OSError as exc:
        raise RulepressError(f"cannot serve on {address}: {exc.strerror or exc}") from None


class ChangedPaths(FileSystemEventHandler):
    """The files saved, created, deleted or moved (both names) since the last rebuild:
    what `LiveCompendium.update` is told. It shares the server's watches, so every event
    that starts a rebuild has been noted before the rebuild starts."""

    def __init__(self, root: Path) -> None:
        """Nothing noted yet; the lock because watchdog calls from its own thread."""
        self._lock = threading.Lock()
        self._paths: set[Path] = set()
        self.root = root

    def on_any_event(self, event: FileSystemEvent) -> None:
        """Note the file (or files) of one event; a folder's own events name no file.
        Past BURST_PATHS only the compendium folder: it is read whole, as a watch does."""
        if event.is_directory:
            return
        with self._lock:
            if len(self._paths) > BURST_PATHS:
                return
            for name in (event.src_path, getattr(event, "dest_path", "")):
                if name:
                    self._paths.add(Path(os.fsdecode(name)))

    def take(self) -> list[Path]:
        """The paths noted since the last call, sorted, and forget them."""
        with self._lock:
            paths, self._paths = sorted(self._paths), set()
        return paths if len(paths) <= BURST_PATHS else [self.root]


def theme_environment_kept(config: MkDocsConfig) -> None:
    """Make the theme's Jinja environment once for every build of `config`: mkdocs makes
    it anew each build, compiling the theme's templates again (about a second of each
    rebuild) and listing the theme's files to copy (half a second), though the theme does
    not change while serving."""
    theme = config.theme
    environment = theme.get_env()
    listed: dict[object, list[str]] = {}

    def list_templates(extensions=None, filter_func=None) -> list[str]:
        """The theme's static files, chosen once: mkdocs's filter depends only on the
        configuration (a new function every build, so not a key)."""
        key = (tuple(extensions) if extensions else None, filter_func is None)
        if key not in listed:
            listed[key] = jinja2.Environment.list_templates(environment, extensions, filter_func)
        return listed[key]

    environment.list_templates = list_templates  # type: ignore[method-assign]
    theme.get_env = lambda: environment  # type: ignore[method-assign]


class Preview:
    """The live preview's state: the compendium in memory, the generated mkdocs project,
    mkdocs's configuration and the search index mkdocs keeps between builds."""

    def __init__(
        self, compendium: Path, settings: Path | None, folder: Path, host: str, port: int
    ) -> None:
        """Load the compendium into memory; the site is built by `first_build`."""
        self.live = LiveCompendium(compendium, settings=settings)
        self.project_folder = folder / "project"
        self.site_dir = folder / "site"
        self.languages_dir = folder / "languages"  # each translation's site, built whole
        self.host, self.port = host, port
        self.paths = ChangedPaths(self.live.root.absolute())
        self.config: MkDocsConfig | None = None
        self.serve_url = self.mount_path = "/"
        self._history: tuple[str | None, list[Revision]] | None = None
        self._whole = False  # a failed rebuild leaves pages behind: the next one does all
        self.environments = site_environments()
        self._words = "en"  # the language of the environments' words: the settings' site's
        self.sites: list[SiteLanguage] = []  # every language's site, when rulesets declare any
        self.views: dict[str, Compendium] = {}  # the compendium as each language's reader sees it
        self.page_inputs = PageInputs()  # what the overview, rulings... were rendered from
        self._written_config: tuple | None = None  # navigation, site settings, game scripts
        self.problems = Problems()  # why the last good site is shown, for the browser

    def first_build(self) -> bool:
        """Build the whole site; False (the findings printed) if the compendium has errors."""
        validation = self.live.validation
        if not validation.ok:
            print(format_findings(validation, "text", relative_to=Path.cwd()), flush=True)
            return False
        compendium = validation.compendium
        project, nav = self.write_pages(compendium, None)
        project.remove_stale()
        self.load_config(self.write_config(project, nav, compendium))
        build(self.mkdocs_config, serve_url=self.serve_url, dirty=False)
        self.build_translations(compendium)
        return True

    def build_translations(self, compendium: Compendium) -> None:
        """Each translation's site into its folder of the served site (serve_languages)."""
        build_translations(
            self.sites, self.views, self.languages_dir, self.site_dir, self.history(compendium)
        )

    @property
    def mkdocs_config(self) -> MkDocsConfig:
        """The loaded configuration (loaded by `first_build`)."""
        assert self.config is not None
        return self.config

    def load_config(self, path: Path) -> None:
        """Load the project's mkdocs.yml (again, when its navigation or settings changed),
        set to serve, as `mkdocs serve` does: the site's own sub-folder kept, the search
        index kept between builds (plugins start as for `mkdocs serve --dirty`), the
        theme's templates compiled once. The offline plugin is off: it copies the whole
        search index into a script only a site opened from disk reads (pages served over
        HTTP read the index itself, and the plugin changes nothing else the mkdocs.yml
        does not already set)."""
        config = load_config(config_file=str(path), site_dir=str(self.site_dir))
        if self.config is None:
            self.mount_path = urlsplit(config.site_url or "/").path
            self.serve_url = _serve_url(self.host, self.port, self.mount_path)
        config.site_url = self.serve_url
        for plugin in config.plugins.values():
            if isinstance(plugin, OfflinePlugin):
                plugin.config.enabled = False
        theme_environment_kept(config)
        config.plugins.on_startup(command="serve", dirty=True)
        self.config = config

    def history(self, compendium: Compendium) -> list[Revision]:
        """The Changes page's history: read from git once per commit checked out (it shows
        commits, so an edit of the working tree does not change it)."""
        head = git_output(compendium.root, "rev-parse", "HEAD")
        if self._history is None or self._history[0] != head:
            self._history = (head, history(compendium))
        return self._history[1]

    def rebuild(self) -> None:
        """The live-reload server's builder, run after files changed: update the
        compendium, write the pages the change feeds, let mkdocs rebuild them. Errors in the
        compendium keep the last good site; they and a failed build are printed."""
        started = time.perf_counter()
        update = self.live.update(self.paths.take())
        if update.changes is None:
            findings = format_findings(update.attempt, "text", relative_to=Path.cwd())
            print(findings, flush=True)
            headline = "rulepress: the compendium has errors; showing the last good pages"
            print(headline, flush=True)
            self.problems.show(headline, findings)
            return
        self.problems.clear()
        if update.changes.empty and not self._whole:
            return
        updated = time.perf_counter()
        compendium = update.changes.current
        only = None if self._whole else changed_own_pages(update.changes, self.page_inputs)
        self._whole = True
        try:
            project, nav = self.write_pages(compendium, only)
            if only is not None and nav != (self._written_config or ([],))[0]:
                # a page came or went (known problems, a page of rulings): write the site
                # whole, so that no page the navigation left stays in the project
                only = None
                project, nav = self.write_pages(compendium, None)
            if only is None:
                project.remove_stale()
            config = self.write_config(project, nav, compendium)
            written = time.perf_counter()
            whole = bool(project.added or project.removed) or not project.changed.isdisjoint(
                {config, self.project_folder / GLOSSARY}
            )
            if config in project.changed:
                self.load_config(config)
            self.build(project, whole)
            self.build_translations(compendium)
        except (OSError, RulepressError, MkDocsException) as exc:
            print(f"rulepress: the site could not be rebuilt: {exc}", flush=True)
            self.problems.show("rulepress: the site could not be rebuilt", str(exc))
            return
        self._whole = False
        pages = sum(1 for path in project.changed if path.suffix == ".md")
        print(
            f"rulepress: {pages} page(s) changed, {'whole site' if whole else 'dirty'} build;"
            f" update {updated - started:.2f} s, pages {written - updated:.2f} s,"
            f" mkdocs {time.perf_counter() - written:.2f} s",
            flush=True,
        )

    def write_pages(
        self, compendium: Compendium, only: dict[str, frozenset[str]] | None
    ) -> tuple[SiteProject, list]:
        """Write the pages `only` names (every page if None) into the project; return it
        and the navigation. The languages' sites are planned again (`site_plan`)."""
        self.sites, self.views = site_plan(compendium)
        language = compendium.settings.settings.site.language
        if language != self._words:
            self.environments, self._words = site_environments(None, language), language
        project = SiteProject(self.project_folder)
        nav = write_pages(
            project,
            compendium,
            None,
            self.history(compendium),
            only,
            self.environments,
            self.page_inputs,
        )
        return project, nav

    def write_config(self, project: SiteProject, nav: list, compendium: Compendium) -> Path:
        """Write mkdocs.yml unless its navigation, site settings and game scripts are those
        last written (dumping a thousand pages' navigation as YAML costs more than the rest
        of an update); return its path."""
        site = compendium.settings.settings.site
        scripts = [where for where, _ in project.scripts]
        wanted = (nav, site, scripts, [(s.code, s.name, s.pages) for s in self.sites])
        path = project.folder / "mkdocs.yml"
        if wanted != self._written_config:
            language = (self.sites[0], self.sites) if self.sites else None
            path = write_config(project, nav, (), site, language)
            self._written_config = wanted
        return path

    def build(self, project: SiteProject, whole: bool) -> None:
        """Run mkdocs: a dirty build (the pages newer than their HTML) unless `whole`. The
        search index keeps the other pages' entries: those of the pages rebuilt are
        dropped first (Material's own merge drops only one page's)."""
        config = self.mkdocs_config
        search = next((p for p in config.plugins.values() if isinstance(p, SearchPlugin)), None)
        if search is not None:
            if whole:
                search.search_index_prev = None
            elif search.search_index_prev is not None:
                docs = Path(config.docs_dir)
                rebuilt = {
                    File(
                        path.relative_to(docs).as_posix(),
                        str(docs),
                        str(self.site_dir),
                        config.use_directory_urls,
                    ).url
                    for path in project.changed
                    if path.suffix == ".md" and path.is_relative_to(docs)
                }
                index = search.search_index_prev
                index.entries = [
                    entry
                    for entry in index.entries
                    if entry["location"].partition("#")[0] not in rebuilt
                ]
        build(config, serve_url=self.serve_url, dirty=not whole)

    def error_page(self, code: int) -> bytes | None:
        """The site's own 404 (or 500) page, as `mkdocs serve` shows it."""
        page = self.site_dir / f"{code}.html"
        return page.read_bytes() if code in (404, 500) and page.is_file() else None


def _not_the_dirty_warning(record: logging.LogRecord) -> bool:
    """mkdocs warns that a dirty build may leave other pages' navigation and links out of
    date: the preview builds dirty only when neither changed."""
    return not record.getMessage().startswith("A 'dirty' build is being performed")


def _show_mkdocs_log() -> None:
    """mkdocs logs what it serves and builds; print it as `mkdocs serve` does."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)-8s-  %(message)s"))
    handler.addFilter(_not_the_dirty_warning)
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def _interrupt(*_) -> None:
    raise KeyboardInterrupt


def serve(compendium: Path, address: str, settings: Path | None = None) -> int:
    """Run the preview until interrupted (Ctrl-C or SIGTERM); return the exit code (1 if
    the compendium has errors at the start). `settings` names the settings file (default:
    rulepress.yaml beside the compendium); it is watched too."""
    check_address(address)
    compendium = compendium.resolve()
    named = settings is not None
    # not resolved: the settings file is read through rulepress.files.inside, which must
    # see its links (one leading out of its folder is refused, never read)
    settings = settings_file(compendium, settings).absolute()
    host, _, port = address.rpartition(":")
    _show_mkdocs_log()
    with tempfile.TemporaryDirectory(prefix="rulepress-serve-") as folder:
        preview = Preview(compendium, settings if named else None, Path(folder), host, int(port))
        if not preview.first_build():
            return 1
        config = preview.mkdocs_config
        server = FindingsServer(
            problems=preview.problems,
            builder=preview.rebuild,
            host=host.strip("[]"),
            port=int(port),
            root=str(preview.site_dir),
            mount_path=preview.mount_path,
        )
        server.error_handler = preview.error_page
        for watched in [compendium, settings] if settings.is_file() else [compendium]:
            server.watch(str(watched))
            server.observer.schedule(preview.paths, str(watched), recursive=True)
        config.plugins.on_serve(server, config=config, builder=preview.rebuild)
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            server.serve()
        except KeyboardInterrupt:
            pass
        finally:
            server.shutdown()
            preview.mkdocs_config.plugins.on_shutdown()
    return 0
