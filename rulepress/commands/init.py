"""`rulepress init DIR`: a new content repository that validates and builds at once.

The files come from the package's `skeleton/` folder: a ruleset with one small document of
each built-in kind, the publisher's settings, the checks and workflows a content
repository needs. Names that start with a dot ship as `dot-...` (package data globs and
tools that scan this repository would otherwise skip or read them) and get their dot
back here. Everything is written into a new folder beside DIR, then renamed into place:
on any failure nothing is left behind, and no file is written through a link.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import string
from importlib.resources import as_file, files
from pathlib import Path

import yaml
from pydantic import TypeAdapter, ValidationError

from rulepress import __version__
from rulepress.compendium.writer import dump_data
from rulepress.errors import RulepressError
from rulepress.models.base import Name, Slug
from rulepress.models.settings import SETTINGS_FILE

SAMPLE_RULESET = "my-rules"
"""The skeleton's ruleset folder and id, renamed to `--ruleset`."""
RENDERED = {SETTINGS_FILE, "README.md", "requirements.txt", "dot-pre-commit-config.yaml"}
"""Skeleton files with `$name` placeholders; the others are copied as they are."""
GITHUB_REPOSITORY = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})$")


def default_title(folder: Path) -> str:
    """A title from the folder's name: `my-rules` gives "My Rules"."""
    words = re.sub(r"[-_.\s]+", " ", folder.absolute().name).strip()
    return words.title() if words else "My Rules"


def _checked(adapter_type, value: str, what: str) -> str:
    try:
        return TypeAdapter(adapter_type).validate_python(value)
    except ValidationError as exc:
        reason = exc.errors()[0]["msg"]
        raise RulepressError(f"{what} {value!r} cannot be used: {reason}") from None


def _placeholders(title: str, ruleset_id: str, github: str | None) -> dict[str, str]:
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
    }


def _target_name(relative: Path, ruleset_id: str) -> Path:
    parts = list(relative.parts)
    if parts[:2] == ["compendium", SAMPLE_RULESET]:
        parts[1] = ruleset_id
    return Path(*(("." + part[4:]) if part.startswith("dot-") else part for part in parts))


def _ruleset_text(text: str, ruleset_id: str, title: str) -> str:
    """The sample ruleset.yaml named and titled for this repository, in canonical form."""
    data = yaml.safe_load(text)
    data.update(id=ruleset_id, title=title, game=title)
    for source in data["sources"]:
        source.update(
            title=title,
            author=f"The authors of {title}",
            credit=source["credit"].replace("My Rules", title),
        )
    return dump_data(data)


def skeleton_files(title: str, ruleset_id: str, github: str | None) -> dict[Path, str]:
    """Each file `init` writes, by its path in the new repository, with its text."""
    values = _placeholders(title, ruleset_id, github)
    written: dict[Path, str] = {}
    with as_file(files("rulepress") / "skeleton") as skeleton:
        for path in sorted(skeleton.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            relative = path.relative_to(skeleton)
            text = path.read_text(encoding="utf-8")
            if relative.as_posix() in RENDERED:
                text = string.Template(text).substitute(values)
            elif relative.name == "ruleset.yaml":
                text = _ruleset_text(text, ruleset_id, title)
            written[_target_name(relative, ruleset_id)] = text
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
    folder: Path, *, title: str | None = None, ruleset_id: str = SAMPLE_RULESET, github=None
) -> list[Path]:
    """Write a new content repository into `folder` (new or empty): the files written."""
    title = _checked(Name, title if title is not None else default_title(folder), "the title")
    ruleset_id = _checked(Slug, ruleset_id, "the ruleset id")
    _refuse_unless_empty(folder)
    texts = skeleton_files(title, ruleset_id, github)
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
