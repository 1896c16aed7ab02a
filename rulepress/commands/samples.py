"""The samples `rulepress init --samples` can write: the core's roll table, kept in the
skeleton, and each installed game's (`Game.samples`, a folder of sample documents laid
out as inside a ruleset's folder, with the glossary they use in its `glossary.yaml`).

A game's samples are content from its package, so they are read as any content is: only
regular `.yaml` files of folders that are no links; a link or a special file anywhere in
the folder, a document with no `kind`, or a path another sample set (or the bare ruleset)
has too, is refused with one error naming the game's package.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

import yaml

from rulepress.errors import PluginError, RulepressError
from rulepress.files import read_regular

CORE_SAMPLES = "tables"
"""The name `--samples` gives the core's own sample, a roll table, kept in the skeleton."""
ALL = "all"
"""The name `--samples` gives every sample set at once."""
GLOSSARY = "glossary.yaml"
"""The file of a game's samples folder that holds the glossary its samples use (a mapping of
term to definition), written into the new ruleset's `ruleset.yaml`; it is no document."""


@dataclass(frozen=True)
class Samples:
    """One sample set: what `--samples NAME` adds to the bare ruleset."""

    name: str
    """Its name for `--samples`: a game's id, or `tables`."""
    title: str
    """The game's name, for the ruleset's summary."""
    package: str
    """The distribution it comes from, for the messages."""
    documents: dict[str, str]
    """Its documents' texts by path inside the ruleset's folder (`skills/grit.yaml`)."""
    kinds: frozenset[str]
    """The kinds of its documents."""
    glossary: dict[str, str]
    """The glossary terms its documents use, with their definitions, in order."""


def available_samples(skeleton_ruleset: Path, bare: tuple[str, ...]) -> dict[str, Samples]:
    """Every sample set by name: the core's roll table (the files of the skeleton's ruleset
    folder `skeleton_ruleset` that are not `bare`), then every installed game's that has
    samples, in the registry's order. A path two sets (or a set and `bare`) share is refused."""
    from rulepress import kinds

    core = {
        path.relative_to(skeleton_ruleset).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(skeleton_ruleset.rglob("*.yaml"))
    }
    for name in bare:
        core.pop(name)
    found = {CORE_SAMPLES: _samples(CORE_SAMPLES, "Tables", "rulepress", core)}
    for game in kinds.games():
        if game.samples is None:
            continue
        if game.id in (CORE_SAMPLES, ALL):
            raise PluginError(
                f"game {game.id!r} of {game.package} has samples, but `--samples {game.id}` "
                "names the core's own: samples need a game of another id"
            )
        documents, glossary = _read_folder(Path(game.samples), game.package)
        found[game.id] = _samples(game.id, game.title, game.package, documents, glossary)
    _refuse_shared_paths(found.values(), bare)
    return found


def _samples(
    name: str, title: str, package: str, documents: dict[str, str], glossary=None
) -> Samples:
    """A sample set, each document's `kind` read (a document without one is refused)."""
    found = set()
    for relative, text in documents.items():
        try:
            kind = yaml.safe_load(text).get("kind")
        except (yaml.YAMLError, AttributeError):
            kind = None
        if not isinstance(kind, str):
            raise PluginError(f"sample {relative} of {package} is no YAML document with a `kind`")
        found.add(kind)
    return Samples(name, title, package, documents, frozenset(found), glossary or {})


def _read_folder(folder: Path, package: str) -> tuple[dict[str, str], dict[str, str]]:
    """The documents of a game's samples folder by relative path, and its glossary."""
    documents: dict[str, str] = {}
    for relative in _regular_files(folder, folder, package):
        if not relative.endswith(".yaml"):
            raise PluginError(f"sample {relative} of {package}: samples are `.yaml` documents")
        try:
            documents[relative] = read_regular(folder / relative, follow_links=False).decode()
        except (OSError, UnicodeDecodeError) as exc:
            raise PluginError(f"sample {relative} of {package} cannot be read: {exc}") from None
    glossary = yaml.safe_load(documents.pop(GLOSSARY, "")) or {}
    if not isinstance(glossary, dict) or not all(
        isinstance(term, str) and isinstance(text, str) for term, text in glossary.items()
    ):
        raise PluginError(f"{GLOSSARY} of {package}'s samples must map each term to its text")
    return dict(sorted(documents.items())), glossary


def _regular_files(root: Path, folder: Path, package: str) -> list[str]:
    """The files below `folder` by path relative to `root`; a link, a special file or a
    hidden name anywhere is refused."""
    what = f"samples folder {folder} of {package}"
    try:
        mode = os.lstat(folder).st_mode
    except OSError as exc:
        raise PluginError(f"the {what} cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        raise PluginError(f"the {what} is not a folder (a link or a file); refused")
    found = []
    for entry in sorted(os.scandir(folder), key=lambda entry: entry.name):
        relative = Path(entry.path).relative_to(root).as_posix()
        if entry.name.startswith("."):
            raise PluginError(f"sample {relative} of {package}: a hidden name; refused")
        if entry.is_dir(follow_symlinks=False):
            found += _regular_files(root, Path(entry.path), package)
        elif entry.is_file(follow_symlinks=False):
            found.append(relative)
        else:
            raise PluginError(
                f"sample {relative} of {package} is a link or a special file; refused"
            )
    return found


def _refuse_shared_paths(sets, bare: tuple[str, ...]) -> None:
    """Two sample sets never write one file, nor one the bare ruleset has."""
    owners = dict.fromkeys(bare, "the bare ruleset")
    for samples in sets:
        for relative in samples.documents:
            if relative in owners:
                raise PluginError(
                    f"sample {relative} of {samples.package} (game {samples.name!r}) is a "
                    f"file {owners[relative]} writes too; each sample needs a path of its own"
                )
            owners[relative] = f"{samples.package} (samples {samples.name!r})"


def chosen_samples(names, available: dict[str, Samples]) -> tuple[str, ...]:
    """The sample sets `--samples` names (`iris,cool`, or `all`), in `available`'s order."""
    wanted = {name.strip() for name in names if name.strip()}
    if ALL in wanted:
        return tuple(available)
    unknown = sorted(wanted - available.keys())
    if unknown:
        known = ", ".join([*available, ALL])
        raise RulepressError(f"--samples: no samples of {', '.join(unknown)}; choose from {known}")
    return tuple(name for name in available if name in wanted)
