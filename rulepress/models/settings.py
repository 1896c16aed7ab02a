"""The publisher's settings: `rulepress.yaml` beside the compendium.

Every setting has a default, so a compendium without the file builds as it always did.
The file is data from the content repository like the compendium itself: strict,
unknown keys refused, every text free of control characters; a path it names is read
only as a regular file inside the repository (see rulepress.compendium.settings).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Discriminator, Field, StringConstraints, Tag

from rulepress.models.base import Model, Name, Slug, Text
from rulepress.models.patterns import fill, pattern_of

SETTINGS_FILE = "rulepress.yaml"
"""The settings file's name, looked for beside the compendium folder."""

PLACEHOLDERS = {
    "ruleset": "the ruleset's title",
    "ruleset_id": "the ruleset's id",
    "module": "the Foundry module's id (`<id_prefix>-<ruleset id>`)",
    "version": "the ruleset's version (`version` in its ruleset.yaml)",
}
"""What a text setting marked as a pattern may name in braces, for each ruleset."""


Pattern = pattern_of(Name, tuple(PLACEHOLDERS))
"""One line of text that may name `{ruleset}`, `{ruleset_id}` or `{module}`."""
# Written in the regex syntax JSON Schema validators share (ECMAScript's, with the `u`
# flag): pydantic copies a pattern into the schema as it is, and its Rust engine also takes
# escapes ECMAScript refuses (`\"` here once made every validator reject the schema).
_HTTP_URL_PATTERN = r"""^https?://[^\s<>"'`\\]+$"""
_HTTP_URL = Annotated[str, StringConstraints(pattern=_HTTP_URL_PATTERN, max_length=2000)]
Url = pattern_of(_HTTP_URL, ())
"""An http(s) URL, the same for every ruleset (it names no placeholders)."""
UrlPattern = pattern_of(_HTTP_URL, tuple(PLACEHOLDERS))
"""An http(s) URL that may name the placeholders (a module's release URLs do)."""


def _plain_relative_path(value: str) -> str:
    """A path below the settings file's folder, spelled one way: no `/` at the start, no
    empty, `.`, `..` or hidden part (a hidden file is nothing to publish)."""
    if any(not part or part.startswith(".") for part in value.split("/")):
        raise ValueError(
            "a path relative to the settings file, with no empty, '.', '..' or hidden part"
        )
    return value


RepositoryPath = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z0-9_\-. /]+$", max_length=500),
    AfterValidator(_plain_relative_path),
]
"""A file of the content repository, relative to the settings file's folder."""
MATERIAL_COLOURS = (
    "red",
    "pink",
    "purple",
    "deep purple",
    "indigo",
    "blue",
    "light blue",
    "cyan",
    "teal",
    "green",
    "light green",
    "lime",
    "yellow",
    "amber",
    "orange",
    "deep orange",
    "brown",
    "grey",
    "blue grey",
    "black",
    "white",
)
"""The colour names of the Material theme's palette, which `colours` may name."""
Colour = Literal[MATERIAL_COLOURS]  # type: ignore[valid-type]
"""A colour the Material theme names (`deep orange`); another is refused."""


class Colours(Model):
    """The site's colours, by the Material theme's names; the same in light and dark mode."""

    primary: Colour = "indigo"
    """The header's and the links' colour."""
    accent: Colour = "indigo"
    """The colour of what is hovered or focused."""


class SiteSettings(Model):
    """The rules website."""

    title: Name = "rulepress rules reference"
    """The site's name, in its header and every page's title."""
    description: Text = "Tabletop rules published from a validated compendium."
    """The site's description, for search engines and link previews."""
    url: Url | None = None
    """Where the site is published (`https://me.github.io/my-rules/`): gives the sitemap
    and every page's canonical link, and lets the 404 page work in a sub-folder."""
    repository: Url | None = None
    """The content repository's web page (`https://github.com/me/my-rules`): the header
    links it, and each page built from one YAML file gets an "edit this page" link."""
    edit_path: Annotated[
        str, StringConstraints(pattern=r"^[A-Za-z0-9_\-./]*/$", max_length=200)
    ] = "edit/main/"
    """The path of an edit link below `repository`, before the file's own path
    (`edit/main/` on GitHub and GitLab, for the branch `main`)."""
    logo: RepositoryPath | None = None
    """An image shown in the header (SVG, PNG, JPEG or WebP)."""
    favicon: RepositoryPath | None = None
    """The browser tab's icon (ICO, PNG or SVG)."""
    colours: Colours = Colours()
    """The Material theme's primary and accent colours."""
    language: Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(-[A-Za-z]{2,4})?$")] = "en"
    """The language of the site's own words (search, navigation), a code the Material
    theme knows (`en`, `de`, `fr`, `pt-BR`...)."""
    copyright: Name | None = None
    """The line at the foot of every page (shown as text, not HTML)."""
    extra_css: list[RepositoryPath] = Field(default=[], max_length=20)
    """Stylesheets added to every page, after the site's own."""
    extra_javascript: list[RepositoryPath] = Field(default=[], max_length=20)
    """Scripts added to every page, after the site's own and the games' calculator scripts."""


class Author(Model):
    """A Foundry module author, as module.json lists them."""

    name: Name
    """The author's name, as Foundry's module list shows it."""
    email: Annotated[str, StringConstraints(pattern=r"^[^\s@<>]+@[^\s@<>]+$", max_length=200)] = ""
    """An address to write to about the module."""
    url: Url | None = None
    """The author's web page."""
    discord: Name | None = None
    """The author's Discord name."""


class FoundrySettings(Model):
    """The Foundry VTT modules, one per ruleset."""

    id_prefix: Slug = "rulepress"
    """The start of each module's id and folder: `<id_prefix>-<ruleset id>`."""
    title: Pattern = "{ruleset}"
    """Each module's title in Foundry's module list."""
    authors: list[Author] = Field(default=[], max_length=50)
    """The modules' authors; when none are given, the sources' authors."""
    url: UrlPattern | None = None
    """The modules' web page (`url` in module.json)."""
    manifest: UrlPattern | None = None
    """Where Foundry fetches the latest module.json to update a module (`manifest`):
    name the module with `{module}`, and keep it at the latest release."""
    download: UrlPattern | None = None
    """Where this release's zip is downloaded from (`download`): the release's own URL,
    with `{version}` in it (`.../releases/download/v{version}/{module}.zip`), so that an
    older release's manifest installs its own zip, never the newest one."""
    license: UrlPattern | None = None
    """The modules' license (`license`): the URL of its text."""
    readme: UrlPattern | None = None
    """The modules' read-me page (`readme`)."""
    bugs: UrlPattern | None = None
    """Where players report a problem (`bugs`): the repository's issues."""
    changelog: UrlPattern | None = None
    """What changed in each release (`changelog`): the repository's releases page."""
    system: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]+$", max_length=100)] = (
        "worldbuilding"
    )
    """The Foundry game system the modules' Items and macros are made for: Simple
    Worldbuilding (`worldbuilding`), or one an installed game registers."""

    def module_id(self, ruleset_id: str) -> str:
        """The id (and folder name) of a ruleset's module."""
        return f"{self.id_prefix}-{ruleset_id}"


def _front_matter_kind(value: object) -> str:
    """Which of FrontMatterValue's kinds a value is read as (a true is no integer)."""
    kinds = {bool: "truth", int: "integer", float: "number", list: "list"}
    return kinds.get(type(value), "text")


class _AnyOfInSchema:
    """The JSON Schema lists FrontMatterValue's kinds as `anyOf`: its `oneOf` would refuse
    an integer, which is a number too."""

    @staticmethod
    def __get_pydantic_json_schema__(core_schema, handler):
        schema = handler(core_schema)
        if "oneOf" in schema:
            schema["anyOf"] = schema.pop("oneOf")
        return schema


FrontMatterValue = Annotated[
    Annotated[Pattern, Tag("text")]
    | Annotated[int, Field(ge=-(10**15), le=10**15), Tag("integer")]
    | Annotated[float, Field(allow_inf_nan=False, ge=-1e15, le=1e15), Tag("number")]
    | Annotated[bool, Tag("truth")]
    | Annotated[list[Pattern], Field(max_length=50), Tag("list")],
    Discriminator(_front_matter_kind),
    _AnyOfInSchema,
]
"""A value of a guide's YAML front matter: text (which may name `{ruleset}`), a number
(finite, at most 10^15 either side of 0), a truth value or a list of at most 50 texts."""


class GuideSettings(Model):
    """The Markdown quick-reference guides, one per ruleset."""

    title: Pattern = "{ruleset}"
    """Each guide's first heading."""
    front_matter: dict[Slug, FrontMatterValue] = Field(default={}, max_length=50)
    """YAML front matter put at the top of each guide (for a static site generator or a
    wiki that reads it); values may be patterns."""


class Settings(Model):
    """Everything a publisher may set; each part may be left out."""

    site: SiteSettings = SiteSettings()
    """The rules website: its title, address, repository links and looks."""
    foundry: FoundrySettings = FoundrySettings()
    """The Foundry modules: their ids, titles, authors and release addresses."""
    guides: GuideSettings = GuideSettings()
    """The Markdown guides: their title and front matter."""

    def placeholders(self, ruleset_id: str, ruleset_title: str, version: str) -> dict[str, str]:
        """What each of PLACEHOLDERS stands for in a ruleset's outputs."""
        return {
            "ruleset": ruleset_title,
            "ruleset_id": ruleset_id,
            "module": self.foundry.module_id(ruleset_id),
            "version": version,
        }

    def release_links(self, ruleset_id: str, ruleset_title: str, version: str) -> dict[str, str]:
        """A ruleset's module's RELEASE_LINKS (module.json's names), those the settings
        give, each pattern filled in for the ruleset."""
        values = self.placeholders(ruleset_id, ruleset_title, version)
        given = {name: getattr(self.foundry, name) for name in RELEASE_LINKS}
        return {name: fill(url, **values) for name, url in given.items() if url}


RELEASE_LINKS = ("url", "manifest", "download", "license", "readme", "bugs", "changelog")
"""The URLs of module.json that FoundrySettings sets, in the order module.json lists them."""
