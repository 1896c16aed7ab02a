"""Jinja environments: the shipped templates, with a user's `--templates` folder in front.

A `--templates` folder may sit in a content repository, which is untrusted input (a pull
request can change it). Where one is given, every template renders in Jinja's immutable
sandbox, so a template reaches no Python internals (`cycler.__init__.__globals__.os` and
the like raise), and its files are read only as regular files below that folder: a link
that leaves it, a named pipe or an oversized file is an error naming the file, never
read (rulepress.files). Without one, the shipped templates are rulepress's own code and
render as usual.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import jinja2
from jinja2.loaders import split_template_path
from jinja2.sandbox import ImmutableSandboxedEnvironment

from rulepress import kinds
from rulepress.files import read_regular
from rulepress.translations.words import SOURCE, fill, words

MAX_TEMPLATE_BYTES = 1 << 20
"""A template is a page of markup; the largest shipped one is a few kilobytes."""


class ConfinedLoader(jinja2.BaseLoader):
    """Templates by name from folders in order, each read only as a regular file that
    resolves inside the folder it was found in."""

    def __init__(self, folders: list[Path]) -> None:
        """The folders' real paths, which each template's own real path must stay inside."""
        self.searchpath = [os.path.realpath(folder) for folder in folders]

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        """A template's text from the first folder that has it, read only if it is a regular file
        inside that folder."""
        pieces = split_template_path(template)  # refuses `..`
        for folder in self.searchpath:
            path = os.path.join(folder, *pieces)
            if not os.path.lexists(path):
                continue
            if os.path.commonpath([os.path.realpath(path), folder]) != folder:
                raise jinja2.TemplateError(f"{path}: a link out of the templates folder")
            source, mtime = _read_template(path)
            return source, path, lambda path=path, mtime=mtime: _mtime(path) == mtime
        raise jinja2.TemplateNotFound(template)


def _read_template(path: str) -> tuple[str, float]:
    """The text of a regular file of at most MAX_TEMPLATE_BYTES, and its time."""
    try:
        data = read_regular(path, MAX_TEMPLATE_BYTES)
    except OSError as error:  # RefusedFile says why; others have their strerror
        raise jinja2.TemplateError(f"{path}: {error.strerror or error}") from None
    try:
        return data.decode("utf-8"), os.stat(path).st_mtime
    except UnicodeDecodeError:
        raise jinja2.TemplateError(f"{path}: not UTF-8 text") from None


def _mtime(path: str) -> float | None:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return None


def environment(
    shipped: Path,
    user_templates: Path | None = None,
    plugins: str | None = None,
    language: str = SOURCE,
    **options,
) -> jinja2.Environment:
    """An environment over the `shipped` folder, then the `plugins` subfolder of each
    installed kind plugin's templates (rulepress.kinds: a plugin adds templates, it
    never replaces rulepress's). `user_templates`, if given, overrides them by name and
    puts the whole environment in the sandbox. Its templates write rulepress's own
    words in `language` (`words`, and the `fill` filter: see `with_words`)."""
    options.setdefault("undefined", jinja2.StrictUndefined)
    # each template is read once: ten thousand documents render the same few, and Jinja
    # would look at each one's file again for every render (a watch keeps what it read)
    options.setdefault("auto_reload", False)
    folders = [shipped]
    if plugins is not None:
        folders += [folder / plugins for folder in kinds.template_folders()]
    if user_templates is None:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader([str(f) for f in folders]), **options
        )
    else:
        loader = ConfinedLoader([user_templates, *folders])
        env = ImmutableSandboxedEnvironment(loader=loader, **options)
    env.filters["fill"] = fill
    env.globals["words"] = words(language)
    return env


def with_words(env: jinja2.Environment, language: str) -> jinja2.Environment:
    """`env` writing rulepress's words in `language` (rulepress.translations.words): the
    global `words` (`{{ words.see_also }}`; `{{ words.by_author | fill(author=...) }}`
    fills a text's `{author}`). `env` itself when it has them already, else an overlay
    sharing its loader and filters, with its own globals and compiled templates."""
    chosen = words(language)
    if env.globals.get("words") is chosen:
        return env
    made = env.__dict__.setdefault("_rulepress_overlays", {})  # one per language, kept
    overlay = made.get(language)
    if overlay is None or overlay.globals["words"] is not chosen:
        overlay = env.overlay(cache_size=400)  # its own cache: a template keeps its globals
        overlay.globals = {**env.globals, "words": chosen}
        overlay.filters = env.filters  # shared: a caller's filter wrappers apply to both
        overlay.__dict__["_rulepress_overlays"] = made
        made[language] = overlay
    return overlay


def words_of(env: jinja2.Environment):
    """The words `env`'s templates write (`with_words`)."""
    return env.globals["words"]
