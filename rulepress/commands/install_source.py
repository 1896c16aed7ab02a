"""Where a content repository gets rulepress from: `rulepress init --rulepress-from SPEC`.

One requirement serves every place that installs rulepress there: `requirements.txt`
(which the workflows and the contributors install) and the pre-commit hooks'
`additional_dependencies`. A SPEC is a version on the package index (`0.1.0`), a
requirement on it (`rulepress>=0.1,<0.2`), a git repository at a revision
(`git+https://host/owner/rulepress@v0.1.0`), or a wheel (its https URL, or a path on this
machine). Without one, the running rulepress says where it came from: its PEP 610
`direct_url.json` (written by pip for an install from a URL, a repository or a folder),
else its version on the package index.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

from rulepress import __version__
from rulepress.errors import RulepressError

PACKAGE = "rulepress"
INDEX_PAGE = "https://pypi.org/project/rulepress/"
"""The package index's page; `INDEX_PAGE + version + "/"` is one release's."""
VERSION = re.compile(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?")
"""A PEP 440 public version, as rulepress's releases are numbered."""
SPECIFIER = r"(===|==|~=|!=|>=|<=|>|<)\s*[A-Za-z0-9.*+!]+"
REQUIREMENT = re.compile(rf"rulepress\s*(?P<specifiers>{SPECIFIER}(\s*,\s*{SPECIFIER})*)", re.I)
DIRECT = re.compile(r"rulepress\s*@\s*(?P<url>\S+)", re.I)
URL_CHARACTERS = re.compile(r"[A-Za-z0-9._~:/?#\[\]@!$&()*+,;=%-]+")
"""What an URL may hold here: no space, quote, backslash or control character, which would
end or change the line of requirements.txt or the YAML of the pre-commit config."""
GIT_URL = re.compile(r"git\+https://(?P<host>[^/@]+)(?P<path>/[^@]+)@(?P<revision>[^@/]\S*)")
WHEEL_NAME = re.compile(r"rulepress-[^-]+-.+\.whl")
SDIST_NAME = re.compile(r"rulepress-[^-]+\.tar\.gz")
FORMS = (
    "give a version (0.1.0), a requirement (rulepress>=0.1,<0.2), a git repository at a "
    "revision (git+https://github.com/OWNER/rulepress@v0.1.0), or a rulepress wheel's "
    "https URL or path"
)


@dataclass(frozen=True)
class RulepressSource:
    """Where rulepress comes from, as a content repository's files name it."""

    requirement: str
    """The requirement line (PEP 508): `rulepress==0.1.0`, `rulepress @ git+https://...`."""
    described: str
    """What it is, for the contributors' README: "rulepress 0.1.0 from the package index"."""
    link: str | None
    """A page that exists once the source does: the index's, the repository's, the wheel."""
    warning: str | None = None
    """What the user should know: a source other machines cannot reach."""

    @property
    def markdown_link(self) -> str:
        """`[rulepress](link)`, or plain `rulepress` for a source with no page."""
        if not self.link:
            return "rulepress"
        return f"[rulepress]({self.link.replace('(', '%28').replace(')', '%29')})"


def rulepress_source(spec: str | None) -> RulepressSource:
    """The source `spec` names (see the module's docstring), or the running rulepress's."""
    if spec is None:
        return running_source()
    spec = spec.strip()
    if VERSION.fullmatch(spec):
        return _from_index(f"=={spec}")
    if match := REQUIREMENT.fullmatch(spec):
        return _from_index(re.sub(r"\s+", "", match["specifiers"]))
    if match := DIRECT.fullmatch(spec):
        spec = match["url"]
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", spec):
        return _from_url(spec)
    return _from_path(Path(spec), spec)


def _from_index(specifiers: str) -> RulepressSource:
    if specifiers.startswith("==") and VERSION.fullmatch(version := specifiers[2:]):
        return RulepressSource(
            f"{PACKAGE}=={version}",
            f"rulepress {version} from the package index",
            f"{INDEX_PAGE}{version}/",
        )
    return RulepressSource(
        f"{PACKAGE}{specifiers}", f"rulepress {specifiers} from the package index", INDEX_PAGE
    )


def _refused(spec: str, reason: str) -> RulepressError:
    return RulepressError(f"--rulepress-from {spec!r}: {reason}")


def _from_url(url: str) -> RulepressSource:
    if not URL_CHARACTERS.fullmatch(url):
        raise _refused(url, "an URL may hold no space, quote or control character")
    parts = urlsplit(url)
    if parts.scheme == "file":
        return _from_path(Path(unquote(parts.path)), url)
    if parts.scheme not in ("https", "git+https"):
        reason = "over https: the one scheme any runner fetches untampered and with no key"
        raise _refused(url, f"{FORMS} ({reason})")
    if parts.username or parts.password:
        raise _refused(url, "an URL with credentials would be committed with them")
    if parts.scheme == "git+https":
        if not (match := GIT_URL.fullmatch(url)):
            raise _refused(url, "name the revision: git+https://HOST/OWNER/rulepress@TAG")
        repository = f"https://{match['host']}{match['path'].removesuffix('.git')}"
        return RulepressSource(
            f"{PACKAGE} @ {url}",
            f"rulepress at {match['revision']} of the repository {repository}",
            repository,
        )
    name = parts.path.rsplit("/", 1)[-1]
    if not (WHEEL_NAME.fullmatch(name) or SDIST_NAME.fullmatch(name)):
        raise _refused(url, f"{name!r} is not the name of a rulepress wheel or sdist")
    return RulepressSource(f"{PACKAGE} @ {url}", f"the rulepress of {url}", url)


def _from_path(path: Path, spec: str) -> RulepressSource:
    if not (WHEEL_NAME.fullmatch(path.name) and path.is_file()):
        raise _refused(spec, f"no such rulepress wheel; {FORMS}")
    uri = path.resolve().as_uri()
    if not URL_CHARACTERS.fullmatch(uri):
        raise _refused(spec, "the wheel's path holds a character a requirement cannot")
    return RulepressSource(
        f"{PACKAGE} @ {uri}",
        f"the rulepress wheel {path.name} on the machine that ran `rulepress init`",
        None,
        f"{path} is on this machine only: GitHub's runners and other contributors cannot "
        "install it (publish it, and give its https URL)",
    )


def running_source() -> RulepressSource:
    """The running rulepress's source: its PEP 610 record when pip installed it from an
    URL or a repository; its version on the package index otherwise (a warning when it
    came from a folder, which no other machine has)."""
    # pip's record of this version (a checkout's rulepress.egg-info, found first from the
    # checkout, has none)
    records = (
        dist.read_text("direct_url.json")
        for dist in metadata.distributions(name=PACKAGE)
        if dist.version == __version__
    )
    record = next((text for text in records if text), None)
    if not record:
        return _from_index(f"=={__version__}")
    direct = json.loads(record)
    url = direct.get("url", "")
    vcs = direct.get("vcs_info")
    try:
        if vcs and vcs.get("vcs") == "git" and url.startswith("https://"):
            revision = vcs.get("requested_revision") or vcs["commit_id"]
            return _from_url(f"git+{url}@{revision}")
        if "archive_info" in direct:
            return _from_url(url)
    except RulepressError:
        pass  # a source no requirement here can name: as a folder's
    origin = unquote(urlsplit(url).path) if url.startswith("file:") else url
    how = "an editable install" if direct.get("dir_info", {}).get("editable") else "installed"
    source = _from_index(f"=={__version__}")
    return RulepressSource(
        source.requirement,
        source.described,
        source.link,
        f"this rulepress is {how} from {origin}, which other machines cannot install: the "
        f"repository asks the package index for {source.requirement} (give --rulepress-from "
        "if that version is not published there)",
    )
