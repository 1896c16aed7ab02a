"""`rulepress init DIR`: a new content repository that validates and builds at once.

The files come from the package's `skeleton/` folder: the publisher's settings, the checks
and workflows a content repository needs, and a bare ruleset (its `ruleset.yaml`, named
after the folder, and one rule). The bundled games' samples, one small document of each of
their kinds, are written only when asked for (`SAMPLES`, by game id). Names that start
with a dot ship as `dot-...` (package data globs and tools that scan this repository would
otherwise skip or read them) and get their dot back here. Everything is written into a new
folder beside DIR, then renamed into place: on any failure nothing is left behind, and no
file is written through a link.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import string
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import as_file, files
from pathlib import Path

import yaml
from pydantic import TypeAdapter, ValidationError

from rulepress import __version__
from rulepress.compendium.writer import dump_data
from rulepress.errors import RulepressError
from rulepress.models.base import Name, Slug
from rulepress.models.settings import SETTINGS_FILE
from rulepress.output_names import ascii_slug

SAMPLE_RULESET = "my-rules"
"""The skeleton's ruleset folder, renamed to the ruleset's id."""
BARE = ("ruleset.yaml", "rules/welcome.yaml")
"""The skeleton's ruleset files every repository gets; the others are samples."""


@dataclass(frozen=True)
class GameSamples:
    """What `--samples GAME` adds to the bare ruleset."""

    title: str
    """The game's name, for the ruleset's summary."""
    files: tuple[str, ...]
    """Its sample documents, by path in the skeleton's ruleset folder."""
    glossary: tuple[str, ...] = ()
    """The skeleton glossary's terms its samples use."""


SAMPLES = {
    "tables": GameSamples("Tables", ("tables/oracle.yaml",)),
    "iris": GameSamples(
        "IRIS",
        (
            "character-points/cp-earning.yaml",
            "character-points/cp-spending.yaml",
            "corruption/corruption-rules.yaml",
            "corruption/corruption-triggers.yaml",
            "corruption/obedience-consequences.yaml",
            "skill-test.yaml",
            "skills/marksmanship.yaml",
            "traits/grit.yaml",
            "traits/wits.yaml",
            "weapon-sections/sidearms.yaml",
            "weapons/sidearms/service-pistol.yaml",
        ),
        ("AP",),
    ),
    "t2k4e": GameSamples(
        "Twilight: 2000 4e",
        (
            "dice/group-roll.yaml",
            "dice/modifiers.yaml",
            "dice/odds-initial.yaml",
            "dice/opposed-roll.yaml",
            "dice/push.yaml",
            "dice/step-dice.yaml",
            "time-units.yaml",
        ),
        ("STR", "AGL", "INT", "EMP"),
    ),
    "cuf": GameSamples(
        "Coolness Under Fire",
        (
            "cuf-rating.yaml",
            "threat/better-armed.yaml",
            "threat/far-better-armed.yaml",
            "threat/fight-or-flight.yaml",
            "threat/firepower-ladder.yaml",
            "threat/wounded.yaml",
        ),
        ("Average",),
    ),
    "cool": GameSamples(
        "Cool",
        ("cool/critical-failure.yaml", "cool/fear-roll.yaml", "cool/shock-roll.yaml"),
    ),
}
"""The bundled games' samples by game id, and the core's roll table (`tables`): the one
table `--samples` reads."""
RENDERED = {SETTINGS_FILE, "README.md", "requirements.txt", "dot-pre-commit-config.yaml"}
"""Skeleton files with `$name` placeholders; the others are copied as they are."""
GITHUB_REPOSITORY = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})$")


def default_title(folder: Path) -> str:
    """A title from the folder's name: `my-rules` gives "My Rules"."""
    words = re.sub(r"[-_.\s]+", " ", folder.absolute().name).strip()
    return words.title() if words else "My Rules"


def default_ruleset_id(folder: Path) -> str:
    """The ruleset's id from the folder's name: `Iron Oath` and `iron_oath` give
    `iron-oath`, accents are dropped (`Café` gives `cafe`); a name with no ASCII letter or
    digit left (`日本語`) gives nothing, and `init` then asks for `--ruleset`."""
    decomposed = unicodedata.normalize("NFKD", folder.absolute().name)
    return ascii_slug(decomposed.encode("ascii", "ignore").decode("ascii"))


def chosen_samples(names: Iterable[str]) -> tuple[str, ...]:
    """The game ids `--samples` names (`iris,cool`, or `all`), in `SAMPLES`' order."""
    wanted = {name.strip() for name in names if name.strip()}
    if "all" in wanted:
        return tuple(SAMPLES)
    unknown = sorted(wanted - SAMPLES.keys())
    if unknown:
        known = ", ".join([*SAMPLES, "all"])
        raise RulepressError(f"--samples: no samples of {', '.join(unknown)}; choose from {known}")
    return tuple(game for game in SAMPLES if game in wanted)


def _checked(adapter_type, value: str, what: str) -> str:
    try:
        return TypeAdapter(adapter_type).validate_python(value)
    except ValidationError as exc:
        reason = exc.errors()[0]["msg"]
        raise RulepressError(f"{what} {value!r} cannot be used: {reason}") from None


def _placeholders(
    title: str, ruleset_id: str, github: str | None, games: tuple[str, ...]
) -> dict[str, str]:
    owner, repo = ("OWNER", "REPO")
    if github is not None:
        match = GITHUB_REPOSITORY.match(github)
        if not match or match.group(2) in (".", ".."):
            raise RulepressError(f"--github {github!r}: give the repository as OWNER/NAME")
        owner, repo = match.groups()
    pages_host = f"{owner.lower()}.github.io"
    pages_path = "" if repo.lower() == pages_host else f"{repo}/"
    return {
        "title_yaml": dump_data({"t": title}).removeprefix("t: ").rstrip("\n"),
        "title_comment": title,
        "ruleset": ruleset_id,
        "version": __version__,
        "github": "" if github is not None else "# ",
        "owner": owner,
        "repo": repo,
        "pages_host": pages_host,
        "pages_path": pages_path,
        "samples_note": SAMPLES_NOTE if games else BARE_NOTE,
    }


SAMPLES_NOTE = """`rulepress init` wrote one small example of each kind: change them, delete
  the kinds your game does not use, and add your own (`rulepress new --help`)."""
BARE_NOTE = """Add yours beside `rules/welcome.yaml`; `rulepress init --samples all`
  writes one small example of each kind of the bundled games, to copy from."""


def _target_name(relative: Path, ruleset_id: str) -> Path:
    parts = list(relative.parts)
    if parts[:2] == ["compendium", SAMPLE_RULESET]:
        parts[1] = ruleset_id
    return Path(*(("." + part[4:]) if part.startswith("dot-") else part for part in parts))


def _ruleset_text(
    text: str, ruleset_id: str, title: str, games: tuple[str, ...], kinds: set[str]
) -> str:
    """The skeleton's ruleset.yaml named and titled for this repository, in canonical
    form, with the chapters and glossary terms of the samples written (`kinds`, `games`)."""
    data = yaml.safe_load(text)
    data.update(id=ruleset_id, title=title, game=title)
    if games != tuple(SAMPLES):
        data["summary"] = _summary(games)
        data["chapters"] = [
            {**chapter, "kinds": [k for k in chapter["kinds"] if k in kinds]}
            if "kinds" in chapter
            else chapter
            for chapter in data["chapters"]
            if not chapter.get("kinds") or kinds & set(chapter["kinds"])
        ]
        terms = {term for game in games for term in SAMPLES[game].glossary}
        glossary = {t: d for t, d in data.get("glossary", {}).items() if t in terms}
        data.pop("glossary", None)
        if glossary:
            data["glossary"] = glossary
    for source in data["sources"]:
        source.update(
            title=title,
            author=f"The authors of {title}",
            credit=source["credit"].replace("My Rules", title),
        )
    return dump_data(data)


def _summary(games: tuple[str, ...]) -> str:
    if not games:
        return "A ruleset written by `rulepress init` with its first rule; add your own rules."
    names = ", ".join(SAMPLES[game].title for game in games)
    return (
        f"A ruleset written by `rulepress init`, with one small document of each kind of "
        f"{names}; replace them with your own rules."
    )


def _wanted(relative: Path, games: tuple[str, ...]) -> bool:
    """Whether the skeleton file `relative` is written with the samples of `games`."""
    parts = relative.parts
    if parts[:2] != ("compendium", SAMPLE_RULESET):
        return True
    inside = Path(*parts[2:]).as_posix()
    return inside in BARE or any(inside in SAMPLES[game].files for game in games)


def skeleton_files(
    title: str, ruleset_id: str, github: str | None, games: tuple[str, ...] = ()
) -> dict[Path, str]:
    """Each file `init` writes, by its path in the new repository, with its text: the
    bare repository, and the samples of `games` (ids of `SAMPLES`)."""
    values = _placeholders(title, ruleset_id, github, games)
    written: dict[Path, str] = {}
    ruleset_file = None
    with as_file(files("rulepress") / "skeleton") as skeleton:
        for path in sorted(skeleton.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            relative = path.relative_to(skeleton)
            if not _wanted(relative, games):
                continue
            text = path.read_text(encoding="utf-8")
            if relative.as_posix() in RENDERED:
                text = string.Template(text).substitute(values)
            elif relative.name == "ruleset.yaml":
                ruleset_file = relative
            written[_target_name(relative, ruleset_id)] = text
        target = _target_name(ruleset_file, ruleset_id)
        kinds = {
            yaml.safe_load(text)["kind"]
            for name, text in written.items()
            if name.parts[:2] == ("compendium", ruleset_id) and name != target
        }
        written[target] = _ruleset_text(written[target], ruleset_id, title, games, kinds)
    return written


def _refuse_unless_empty(folder: Path) -> None:
    if folder.is_symlink():
        raise RulepressError(f"{folder} is a symbolic link; give a new or empty folder")
    if folder.exists():
        if not folder.is_dir():
            raise RulepressError(f"{folder} exists and is not a folder")
        if any(folder.iterdir()):
            raise RulepressError(f"{folder} is not empty; nothing was written")
    if not folder.absolute().parent.is_dir():
        raise RulepressError(f"no folder {folder.absolute().parent} to create {folder.name} in")


def init_repository(
    folder: Path,
    *,
    title: str | None = None,
    ruleset_id: str | None = None,
    github=None,
    samples: Iterable[str] = (),
) -> list[Path]:
    """Write a new content repository into `folder` (new or empty), with the samples of
    the games `samples` names (`all` for every one): the files written."""
    title = _checked(Name, title if title is not None else default_title(folder), "the title")
    if ruleset_id is None:
        ruleset_id = default_ruleset_id(folder)
        if not ruleset_id:
            raise RulepressError(
                f"cannot make a ruleset id from the folder's name {folder.absolute().name!r} "
                "(no ASCII letter or digit in it): give one with --ruleset"
            )
        ruleset_id = _checked(Slug, ruleset_id, "the ruleset id made from the folder's name")
    else:
        ruleset_id = _checked(Slug, ruleset_id, "the ruleset id")
    games = chosen_samples(samples)
    _refuse_unless_empty(folder)
    texts = skeleton_files(title, ruleset_id, github, games)
    # For editors: the schemas and .vscode/settings.json mapping files onto them, as
    # `rulepress schema` writes and keeps them in step.
    from rulepress.commands.schema import repository_files

    texts.update(repository_files())
    absolute = folder.absolute()
    staging = absolute.parent / f".{absolute.name}.rulepress-init-{secrets.token_hex(4)}"
    try:
        staging.mkdir()  # a new folder: nothing in it can be a link
        for relative, text in texts.items():
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "x", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
        _refuse_unless_empty(folder)  # again: something may have appeared meanwhile
        os.replace(staging, absolute)  # onto a missing or empty folder only
    except OSError as exc:
        raise RulepressError(
            f"cannot write {folder}: {exc.strerror or exc}; nothing was written"
        ) from None
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return [folder / relative for relative in texts]
