"""rulepress's own documentation site (docs/, mkdocs.yml): it builds with --strict, and its
generated pages hold every command, setting and finding code the code defines."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import griffe
import pytest
import yaml
from pydantic import BaseModel

from rulepress.cli import cli
from rulepress.errors import CODE_DOCS
from rulepress.models.base import Model
from rulepress.models.settings import Settings
from rulepress.validators import registered_checks
from tests.helpers import REPO

CHECKS = registered_checks()
"""Every check the registry runs: rulepress's own and its games' (not only those imported so far)."""

QUIET = {"NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> Path:
    """The site as `make docs` builds it, written into a temporary folder."""
    out = tmp_path_factory.mktemp("docs") / "site"
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO,
        env={**os.environ, **QUIET},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    return out


def page_text(docs: Path, name: str) -> str:
    """A built page's text, tags dropped and entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", (docs / name).read_text(encoding="utf-8")))


def command_paths(command: click.Command, prefix: str = "rulepress") -> list[str]:
    """`rulepress build`, `rulepress roll iris`...: every command, the lazy groups' too."""
    paths = [prefix]
    if isinstance(command, click.Group):
        ctx = click.Context(command)
        for name in command.list_commands(ctx):
            paths += command_paths(command.get_command(ctx, name), f"{prefix} {name}")
    return paths


def settings_fields(model: type[BaseModel], prefix: str = "") -> dict[str, object]:
    """dotted name -> field, for every field of the settings and the models below them."""
    found = {}
    for name, field in model.model_fields.items():
        found[prefix + name] = field
        inner = field.annotation
        is_list = getattr(inner, "__origin__", None) is list
        if is_list:
            inner = inner.__args__[0]
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            found.update(settings_fields(inner, f"{prefix}{name}{'[]' if is_list else ''}."))
    return found


def test_every_command_is_in_the_cli_reference(docs):
    text = page_text(docs, "cli.html")
    paths = command_paths(cli)
    assert {"rulepress roll iris", "rulepress odds t2k4e", "rulepress new weapon"} <= set(paths)
    for path in paths:
        assert path in text, path
    assert "--foundry-version" in text
    assert "UNSET" not in text  # click's marker for "no default", which is no default to show


def test_every_setting_is_in_the_settings_reference(docs):
    text = page_text(docs, "settings.html")
    fields = settings_fields(Settings)
    assert {"site.url", "foundry.authors[].name", "guides.front_matter"} <= set(fields)
    for dotted in fields:
        assert dotted in text, dotted


def undocumented_fields(model: type[BaseModel]) -> list[str]:
    """The dotted names of fields with no docstring; a field holding a model is described
    by the model's docstring."""
    missing = []
    for dotted, field in settings_fields(model).items():
        inner = field.annotation
        model_doc = (
            inner.__doc__ if isinstance(inner, type) and issubclass(inner, BaseModel) else None
        )
        if not (field.description or model_doc):
            missing.append(dotted)
    return missing


def test_every_setting_has_a_description():
    """The settings reference shows each field's docstring: a field without one would be
    a row saying nothing."""
    assert undocumented_fields(Settings) == []


def test_a_setting_without_a_docstring_is_caught():
    class Part(Model):
        """A part."""

        documented: int = 0
        """Says what it is."""
        bare: int = 0

    class Whole(Model):
        """A whole."""

        part: Part = Part()
        parts: list[Part] = []
        """Several parts."""

    assert undocumented_fields(Whole) == ["part.bare", "parts[].bare"]


def test_every_finding_code_is_in_the_finding_codes(docs):
    text = page_text(docs, "finding-codes.html")
    for code in [*CODE_DOCS, *(check.code for check in CHECKS)]:
        assert code in text, code
    some_check = min(CHECKS, key=lambda check: check.code)
    assert some_check.doc.split()[0] in text


def test_the_api_reference_documents_the_public_api(docs):
    api = (docs / "api.html").read_text(encoding="utf-8")
    for symbol in (
        "rulepress.api.load",
        "rulepress.validation.validate",
        "rulepress.compendium.model.Compendium.ruleset",
        "rulepress.models.settings.Settings",
    ):
        assert f'id="{symbol}"' in api, symbol
    plugins = (docs / "plugins.html").read_text(encoding="utf-8")
    for symbol in (
        "rulepress.kinds.Kind",
        "rulepress.errors.Problem",
        "rulepress.exporters.ExportOptions",
    ):
        assert f'id="{symbol}"' in plugins, symbol


def api_page_objects() -> list[tuple[str, list[str] | None]]:
    """Each `::: identifier` of the API pages, with the members its options list (None:
    every public member)."""
    found: list[tuple[str, list[str] | None]] = []
    for page in ("api.md", "plugins.md"):
        for line in (REPO / "docs" / page).read_text(encoding="utf-8").splitlines():
            if line.startswith("::: "):
                found.append((line[4:].strip(), None))
            elif found and re.fullmatch(r" {8}- \w+", line):
                found[-1] = (found[-1][0], [*(found[-1][1] or []), line.split()[-1]])
    return found


def undocumented(obj: griffe.Object, only: list[str] | None = None) -> list[str]:
    """The public names under `obj` (its classes' members too) that have no docstring,
    which mkdocstrings would leave out of the page without a word."""
    missing = []
    for name, member in obj.members.items():
        if name.startswith("_") or member.is_alias or (only is not None and name not in only):
            continue
        if not member.docstring:
            missing.append(member.path)
        if member.is_class:
            missing += undocumented(member)
    return missing


def test_every_public_name_of_the_api_pages_has_a_docstring():
    """A public name the API pages cover is shown there, so a user finds it."""
    package = griffe.load("rulepress", search_paths=[str(REPO)])
    objects = api_page_objects()
    assert len(objects) >= 6
    missing = []
    for identifier, only in objects:
        obj = package[identifier.removeprefix("rulepress.")]
        missing += [] if obj.docstring else [identifier]
        missing += undocumented(obj, only)
    assert missing == []


def nav_pages(nav: list) -> list[str]:
    """The pages a mkdocs nav names, its sections' included."""
    pages: list[str] = []
    for entry in nav:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            pages += nav_pages(value) if isinstance(value, list) else [value]
    return pages


def test_every_page_of_docs_is_in_the_navigation():
    """A page left out of the nav is built but found by no reader (the README's moved
    sections are pages here); mkdocs only says so at INFO level, which --strict lets by."""
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = nav_pages(config["nav"])
    written = sorted(path.name for path in (REPO / "docs").glob("*.md"))
    assert sorted(listed) == [*sorted({*written, "settings.md", "finding-codes.md"})]


def article_text(docs: Path, name: str) -> str:
    """A built page's own text, without the navigation and table of contents around it."""
    page = (docs / name).read_text(encoding="utf-8")
    article = page[page.index("<article") : page.index("</article>")]
    return html.unescape(re.sub(r"<[^>]+>", "", article))


def test_a_generated_reference_follows_its_pages_hand_written_part(docs):
    """settings.md and finding-codes.md are written by hand, and generate_pages.py appends
    the reference generated from the code: the built page holds both."""
    settings = article_text(docs, "settings.html")
    assert "A content repository keeps its own settings in rulepress.yaml" in settings
    assert settings.index("The publisher's settings") < settings.index("Every setting")
    assert "foundry.authors[].name" in settings
    codes = article_text(docs, "finding-codes.html")
    assert "RP001-RP009" in codes and "Each check's docstring" in codes
    assert codes.index("RP001-RP009") < codes.index("Reading and model codes")
