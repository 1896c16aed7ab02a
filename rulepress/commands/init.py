"""`rulepress init DIR`: a new content repository that validates and builds at once.

The files come from the package's `skeleton/` folder: the publisher's settings, the checks
and workflows a content repository needs, and a bare ruleset (its `ruleset.yaml`, named
after the folder, and one rule). Samples, one small document of each kind of a game, are
written only when asked for: the core's roll table (`tables`, in the skeleton too) and each
installed game's (`Game.samples`, read by rulepress.commands.samples). Names that start
with a dot ship as `dot-...` (package data globs and tools that scan this repository would
otherwise skip or read them) and get their dot back here. Everything is written into a new
folder beside DIR, then renamed into place: on any failure nothing is left behind, and no
file is written through a link.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import string
import unicodedata
from collections.abc import Iterable
from importlib.resources import as_file, files
from pathlib import Path

import yaml
from pydantic import TypeAdapter, ValidationError

from rulepress import __version__
from rulepress.commands.install_source import RulepressSource, rulepress_source
from rulepress.commands.samples import Samples, available_samples, chosen_samples
from rulepress.compendium.writer import dump_data
from rulepress.errors import RulepressError, model_reason
from rulepress.models.base import Name, Slug
from rulepress.models.settings import SETTINGS_FILE
from rulepress.output_names import ascii_slug

SAMPLE_RULESET = "my-rules"
"""The skeleton's ruleset folder, renamed to the ruleset's id."""
BARE = ("ruleset.yaml", "rules/welcome.yaml")
"""The skeleton's ruleset files every repository gets; the others are the core's sample."""
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


def _checked(adapter_type, value: str, what: str) -> str:
    try:
        return TypeAdapter(adapter_type).validate_python(value)
    except ValidationError as exc:
        reason = model_reason(exc.errors()[0])
        raise RulepressError(f"{what} {value!r} cannot be used: {reason}") from None


DEFAULT_ID_PREFIX = "rulepress"
"""The Foundry module ids' prefix of a repository `init` is given no GitHub owner for."""


def module_id_prefix(owner: str) -> str:
    """The Foundry module ids' prefix `init --github OWNER/NAME` writes: the owner as a
    slug (`Acme-Games` gives `acme-games`), so each module's id, `<owner>-<ruleset id>`,
    is the publisher's own and two publishers' rulesets of one name never collide.
    A slug is a valid Foundry package id (lowercase letters, digits and hyphens)."""
    return ascii_slug(owner) or DEFAULT_ID_PREFIX


def _placeholders(
    title: str,
    ruleset_id: str,
    github: str | None,
    chosen: tuple[str, ...],
    rulepress: RulepressSource,
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
        "requirement": rulepress.requirement,
        # a YAML scalar quoted as JSON: a URL's `#`, `,` or `: ` stays in the flow sequence
        "requirement_yaml": json.dumps(rulepress.requirement),
        "rulepress_link": rulepress.markdown_link,
        "rulepress_source": rulepress.described,
        "github": "" if github is not None else "# ",
        "owner": owner,
        "repo": repo,
        "id_prefix": module_id_prefix(owner) if github is not None else DEFAULT_ID_PREFIX,
        "id_prefix_note": " (the GitHub owner's)" if github is not None else "",
        "pages_host": pages_host,
        "pages_path": pages_path,
        "samples_note": SAMPLES_NOTE if chosen else BARE_NOTE,
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
    text: str, ruleset_id: str, title: str, chosen: list[Samples], every: bool, kinds: set[str]
) -> str:
    """The skeleton's ruleset.yaml named and titled for this repository, in canonical
    form, with the chapters of the samples' `kinds` and the glossary of the `chosen`
    samples (in the order of their first documents); `every`: all the samples there are,
    so the skeleton's own summary."""
    data = yaml.safe_load(text)
    data.update(id=ruleset_id, title=title, game=title)
    if not every:
        data["summary"] = _summary(chosen)
    data["chapters"] = [
        {**chapter, "kinds": [k for k in chapter["kinds"] if k in kinds]}
        if "kinds" in chapter
        else chapter
        for chapter in data["chapters"]
        if not chapter.get("kinds") or kinds & set(chapter["kinds"])
    ]
    first = {samples.name: min(samples.documents, key=_path_order) for samples in chosen}
    in_order = sorted(chosen, key=lambda samples: _path_order(first[samples.name]))
    glossary = {term: text for samples in in_order for term, text in samples.glossary.items()}
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


def _path_order(relative: str) -> tuple[str, ...]:
    """Where a document is written among the others: paths sort by their parts."""
    return Path(relative).parts


def _summary(chosen: list[Samples]) -> str:
    if not chosen:
        return "A ruleset written by `rulepress init` with its first rule; add your own rules."
    names = ", ".join(samples.title for samples in chosen)
    return (
        f"A ruleset written by `rulepress init`, with one small document of each kind of "
        f"{names}; replace them with your own rules."
    )


def _skeleton_texts(skeleton: Path, values: dict[str, str]) -> dict[Path, str]:
    """The skeleton's files by path in it, placeholders filled in: of its ruleset folder,
    only the bare ruleset (the rest is the core's sample)."""
    texts = {}
    for path in sorted(skeleton.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        relative = path.relative_to(skeleton)
        in_ruleset = relative.parts[:2] == ("compendium", SAMPLE_RULESET)
        if in_ruleset and Path(*relative.parts[2:]).as_posix() not in BARE:
            continue
        text = path.read_text(encoding="utf-8")
        if relative.as_posix() in RENDERED:
            text = string.Template(text).substitute(values)
        texts[relative] = text
    return texts


def every_sample() -> dict[str, Samples]:
    """Every sample set `--samples` can name: the core's roll table, then the games'."""
    with as_file(files("rulepress") / "skeleton") as skeleton:
        return available_samples(skeleton / "compendium" / SAMPLE_RULESET, BARE)


def skeleton_files(
    title: str,
    ruleset_id: str,
    github: str | None,
    chosen: tuple[str, ...] = (),
    available: dict[str, Samples] | None = None,
    rulepress: RulepressSource | None = None,
) -> dict[Path, str]:
    """Each file `init` writes, by its path in the new repository, with its text: the
    bare repository, and the `chosen` samples (names of `available`, by default
    `every_sample()`); `rulepress`: where it installs rulepress from (by default the
    running rulepress's source)."""
    available = every_sample() if available is None else available
    rulepress = rulepress_source(None) if rulepress is None else rulepress
    values = _placeholders(title, ruleset_id, github, chosen, rulepress)
    with as_file(files("rulepress") / "skeleton") as skeleton:
        texts = _skeleton_texts(skeleton, values)
    # each sample where it would be in the skeleton's ruleset folder, so that the files
    # are written (and listed) in one order of paths whichever set they come from
    ruleset_folder = Path("compendium", SAMPLE_RULESET)
    samples = set()
    for name in chosen:
        for relative, text in available[name].documents.items():
            texts[ruleset_folder / relative] = text
            samples.add(ruleset_folder / relative)
    written = {}
    for relative in sorted(texts):
        if relative in samples:  # a sample's name is its own: no `dot-` made a dot
            written[Path("compendium", ruleset_id, *relative.parts[2:])] = texts[relative]
        else:
            written[_target_name(relative, ruleset_id)] = texts[relative]
    sets = [available[name] for name in chosen]
    kinds = {kind for samples in sets for kind in samples.kinds}
    kinds |= {yaml.safe_load(texts[ruleset_folder / name])["kind"] for name in BARE[1:]}
    ruleset_file = _target_name(ruleset_folder / BARE[0], ruleset_id)
    written[ruleset_file] = _ruleset_text(
        written[ruleset_file], ruleset_id, title, sets, chosen == tuple(available), kinds
    )
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
    rulepress: RulepressSource | None = None,
) -> list[Path]:
    """Write a new content repository into `folder` (new or empty), with the samples of
    the games `samples` names (`all` for every one), installing rulepress from `rulepress`
    (by default where the running one came from): the files written."""
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
    available = every_sample()
    chosen = chosen_samples(samples, available)
    _refuse_unless_empty(folder)
    texts = skeleton_files(title, ruleset_id, github, chosen, available, rulepress)
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
