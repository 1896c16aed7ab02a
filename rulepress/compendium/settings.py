"""Loading the publisher's settings (`rulepress.yaml`) as the compendium's files are loaded.

The file is read like a document (a regular file of at most 2 MiB, safe YAML, strict
model), so its problems are findings at `path:line:col`. The files it names (logo,
favicon, stylesheets, scripts) are read here, once, as regular files inside the content
repository: exporters write these bytes and never open a path the settings name.
The settings file and every file it names are found through `rulepress.files.inside`,
below the settings file's folder (the repository): a link out of it, or into `.git`,
is refused before a byte is read, so no finding can echo a foreign file.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from pydantic import ValidationError

from rulepress.caching import digest
from rulepress.compendium.findings import file_problem, finding_at, schema_findings
from rulepress.compendium.yaml_source import SourceMap, YamlProblem, decode_utf8, parse_yaml
from rulepress.errors import Code, Finding, Level
from rulepress.files import OutsideRepository, read_inside
from rulepress.kinds.systems import item_systems, unknown_system
from rulepress.models.settings import SETTINGS_FILE, Settings

ASSET_SUFFIXES = {
    "logo": (".svg", ".png", ".jpg", ".jpeg", ".webp", ".gif"),
    "favicon": (".ico", ".png", ".svg"),
    "extra_css": (".css",),
    "extra_javascript": (".js",),
}


@dataclass(frozen=True)
class PublisherSettings:
    """The settings a build uses, where they came from, and the files they name."""

    settings: Settings = field(default_factory=Settings)
    file: Path | None = None
    """The settings file, or None when the defaults apply (no file)."""
    assets: Mapping[str, bytes] = field(default_factory=lambda: MappingProxyType({}))
    """The bytes of each file the settings name, by the path the settings give."""

    @property
    def repository_folder(self) -> Path | None:
        """The content repository's folder: the settings file's, which paths are relative to."""
        return self.file.parent if self.file else None

    def asset_digests(self) -> dict[str, str]:
        """Each named file's absolute path -> digest of the bytes this build uses."""
        folder = self.repository_folder
        if folder is None:
            return {}
        return {str((folder / name).absolute()): digest(data) for name, data in self.assets.items()}


def settings_file(compendium_root: Path, given: Path | None = None) -> Path:
    """The settings file a compendium is built with: the one `given` (on the command
    line), else `rulepress.yaml` in the folder holding the compendium."""
    return given if given is not None else compendium_root.absolute().parent / SETTINGS_FILE


def load_settings(path: Path, *, required: bool = False) -> tuple[PublisherSettings, list[Finding]]:
    """The settings in `path`, and the problems found in it. A missing file gives the
    defaults, unless `required` (a file named on the command line must exist)."""
    if not path.exists() and not path.is_symlink():
        if required:
            return PublisherSettings(), [
                file_problem(path, Code.UNREADABLE, "settings file not found")
            ]
        return PublisherSettings(), []
    try:
        data, source = parse_yaml(decode_utf8(read_inside(path.parent, path.name)), path)
    except OutsideRepository as refused:  # before it is parsed: its keys are never findings
        return PublisherSettings(), [
            file_problem(path, Code.OUTSIDE_COMPENDIUM, f"settings file {refused}; refused")
        ]
    except OSError as exc:
        return PublisherSettings(), [
            file_problem(path, Code.UNREADABLE, f"cannot read file: {exc.strerror or exc}")
        ]
    except YamlProblem as problem:
        if problem.code == Code.EMPTY_FILE:  # only comments: every default
            return PublisherSettings(file=path), []
        return PublisherSettings(), [
            file_problem(path, problem.code, problem.message, problem.position)
        ]
    if not isinstance(data, dict):
        return PublisherSettings(), [
            file_problem(path, Code.NOT_A_MAPPING, "the settings file must hold a mapping")
        ]
    try:
        settings = Settings.model_validate(data)
    except ValidationError as exc:
        return PublisherSettings(), schema_findings(exc, source, Settings)
    findings = _language_findings(settings, source) + _system_findings(settings, source)
    assets = _read_assets(settings, path.parent, source, findings)
    return PublisherSettings(settings, path, MappingProxyType(assets)), findings


def _named_files(settings: Settings) -> list[tuple[tuple, str, str]]:
    """(data path, file, setting name) of every file the settings name."""
    site = settings.site
    named = [(("site", "logo"), site.logo, "logo"), (("site", "favicon"), site.favicon, "favicon")]
    named += [(("site", "extra_css", i), css, "extra_css") for i, css in enumerate(site.extra_css)]
    named += [
        (("site", "extra_javascript", i), js, "extra_javascript")
        for i, js in enumerate(site.extra_javascript)
    ]
    return [(where, name, setting) for where, name, setting in named if name]


def _read_assets(
    settings: Settings, folder: Path, source: SourceMap, findings: list[Finding]
) -> dict[str, bytes]:
    """Read each named file: a regular file inside `folder` (links followed only while
    they stay in it, never into `.git`), of a kind the setting takes. Anything else is a
    finding at the setting."""
    assets = {}
    for where, name, setting in _named_files(settings):
        problem = None
        if not name.lower().endswith(ASSET_SUFFIXES[setting]):
            problem = f"must be a {', '.join(ASSET_SUFFIXES[setting])} file"
        else:
            try:
                assets[name] = read_inside(folder, name)
            except OutsideRepository as refused:
                problem = f"{refused}; refused"
            except FileNotFoundError:
                problem = f"no such file beside {SETTINGS_FILE}"
            except OSError as exc:
                problem = f"cannot be read: {exc.strerror or exc}"
        if problem:
            message = f"{'.'.join(map(str, where))}: {name}: {problem}"
            findings.append(
                finding_at(source, Code.UNUSABLE_NAMED_FILE, Level.ERROR, message, where)
            )
    return assets


def _language_findings(settings: Settings, source: SourceMap) -> list[Finding]:
    """A language the Material theme has no words for would fail the site's build."""
    spec = importlib.util.find_spec("material")
    if spec is None or spec.origin is None:
        return []
    languages = Path(spec.origin).parent / "templates" / "partials" / "languages"
    language = settings.site.language
    if not languages.is_dir() or (languages / f"{language}.html").is_file():
        return []
    known = ", ".join(sorted(p.stem for p in languages.glob("*.html") if p.stem != "custom"))
    message = f"site.language: the Material theme has no language {language!r}; known: {known}"
    return [finding_at(source, Code.INVALID_VALUE, Level.ERROR, message, ("site", "language"))]


def _system_findings(settings: Settings, source: SourceMap) -> list[Finding]:
    """A Foundry system no installed game registers could not be built for."""
    systems = item_systems()
    if settings.foundry.system in systems:
        return []
    message = f"foundry.system: {unknown_system(settings.foundry.system, list(systems))}"
    return [finding_at(source, Code.INVALID_VALUE, Level.ERROR, message, ("foundry", "system"))]
