"""The site in every language the rulesets declare: the source language's site at the
output's root, each translation's in a folder named by its language tag (`de/`), each
built from `translated_compendium` with the theme's words, the search's stemming and the
reading direction of its language, and a language switcher (Material's
`extra.alternate`) on every page of every site that leads to the same page in another.

A text that no current translation replaces shows in the source's language: it is
marked (`SourceText`), so the site's filters wrap it in an element carrying the source's
`lang` and the class `rp-source-language` (styled in `languages.css`), and each page that
shows one opens with a note (`untranslated.md.j2`) naming the language it falls back to.
"""

from __future__ import annotations

import importlib.util
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from urllib.parse import quote

import jinja2

from rulepress.compendium.model import Compendium, Ruleset
from rulepress.errors import RulepressError
from rulepress.exporters.escaping import html_attribute
from rulepress.exporters.guide import chapters
from rulepress.exporters.site.places import page_of
from rulepress.exporters.site.project import SITE, SiteProject
from rulepress.exporters.site.search_stemming import stems
from rulepress.exporters.templating import words_of
from rulepress.progress import notice
from rulepress.translations import fallback_note, translated
from rulepress.translations.fields import replaced, text_fields

STYLESHEET = "stylesheets/languages.css"
"""The marks of source-language text and the right-to-left fixes: a translation's site only."""

MARK_CLASS = "rp-source-language"
"""The class of an element that shows a text in the source's language."""

RIGHT_TO_LEFT = frozenset(
    {"ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "mzn", "nqo", "pnb", "ps", "sd", "syr"}
    | {"ug", "ur", "yi", "ji", "lrc", "glk", "ckb"}
)
"""Languages written right to left (by their primary subtag), whatever the theme knows."""
RIGHT_TO_LEFT_SCRIPTS = frozenset({"arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg"})
"""Scripts written right to left: a tag naming one (`ku-Arab`) is right to left."""
LEFT_TO_RIGHT_SCRIPTS = frozenset({"latn", "cyrl"})
"""Scripts written left to right: a tag naming one (`ug-Latn`) is left to right."""


@dataclass(frozen=True)
class SiteLanguage:
    """One of the sites: the source language's (folder "") or a translation's."""

    code: str
    """The language tag (`de`); the source's is the settings' `site.language`."""
    name: str
    """The language's name in itself, for the switcher (`Deutsch`)."""
    folder: str = ""
    """Below the site's root: "" for the source language, else the tag."""
    theme: str = "en"
    """The Material theme's language for its own words (the tag, its primary subtag, or
    `en` where Material has neither)."""
    search: str = "en"
    """The lunr language the search uses (`en` where lunr has none): a translation's site
    stems with it where lunr can (`search_stemming.stems`)."""
    direction: str = "ltr"
    pages: dict[str, str] = field(default_factory=dict, compare=False)
    """Page key (ruleset id and first document of a chapter's or section's page) -> the
    page (below docs/) that shows it in this site: a translated chapter title renames
    its page."""
    notes: dict[str, str] = field(default_factory=dict, compare=False)
    """Ruleset id -> the note its pages open with where they show source text
    (`edition_notes`): a translation's site."""


def source_language(compendium: Compendium) -> SiteLanguage:
    """The source language's site: the settings' `site.language`."""
    code = compendium.settings.settings.site.language
    return _site_language(code, _name_in_itself(code), "")


def site_languages(compendium: Compendium) -> list[SiteLanguage]:
    """Every language some ruleset declares, besides the source's, in the order first
    declared: [] when none does (the site is then as it always was). A language whose
    folder would be a ruleset's, or the source's own language, is refused."""
    source = compendium.settings.settings.site.language
    found: dict[str, str] = {}
    for ruleset in compendium:
        for plan in ruleset.info.languages:
            found.setdefault(plan.code, plan.name)
    sites = []
    for code, name in found.items():
        if code.lower() == source.lower():
            raise RulepressError(
                f"a ruleset declares the language {code!r}, the site's own (site.language): "
                "a translation is into another language"
            )
        if code in compendium.rulesets:
            raise RulepressError(
                f"the site in {code!r} would be the folder {code}/, which is the ruleset "
                f"{code!r}'s: rename one"
            )
        if not re.fullmatch(r"[A-Za-z0-9-]+", code):  # the model's tag; untrusted anyway
            raise RulepressError(f"refusing a language tag as a folder name: {code!r}")
        sites.append(_site_language(code, name, code))
    return sites


def _site_language(code: str, name: str, folder: str) -> SiteLanguage:
    theme = _material_language(code)
    search = _lunr_language(code)
    if folder and theme != code:
        notice(f"site: Material has no words in {code!r}: its {code} site uses {theme!r}'s")
    if folder and search == "en" and not code.lower().startswith("en"):
        notice(f"site: lunr has no {code!r}: its {code} site searches as 'en', with no stemmer")
    elif folder and search != "en" and not stems(search):
        notice(f"site: lunr has no stemmer for {code!r}: its {code} site finds words as written")
    return SiteLanguage(code, name, folder, theme, search, direction(code))


def direction(code: str) -> str:
    """`rtl` for a language written right to left (by its script subtag, else its
    primary subtag), else `ltr`."""
    primary, *rest = code.lower().split("-")
    scripts = [part for part in rest if len(part) == 4 and part.isalpha()]
    if scripts:
        return "rtl" if scripts[0] in RIGHT_TO_LEFT_SCRIPTS else "ltr"
    return "rtl" if primary in RIGHT_TO_LEFT else "ltr"


def _package_folder(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _material_language(code: str) -> str:
    """The theme language Material has words for: `code`, its primary subtag, or `en`."""
    folder = _package_folder("material")
    languages = folder / "templates/partials/languages" if folder else None
    for candidate in (code, code.split("-")[0]):
        if languages is not None and (languages / f"{candidate}.html").is_file():
            return candidate
    return "en"


def _lunr_language(code: str) -> str:
    """The lunr language that stems `code`: its primary subtag when both mkdocs' search
    (which checks the option) and Material's (which loads the stemmer) have it, else `en`."""
    primary = code.split("-")[0].lower()
    mkdocs, material = _package_folder("mkdocs"), _package_folder("material")
    if mkdocs is None or material is None:
        return "en"
    checked = mkdocs / "contrib/search/lunr-language" / f"lunr.{primary}.js"
    loaded = material / "templates/assets/javascripts/lunr/min" / f"lunr.{primary}.min.js"
    return primary if checked.is_file() and loaded.is_file() else "en"


def _name_in_itself(code: str) -> str:
    """A language's name in itself (`English`), from Babel (which Material requires);
    the tag when Babel does not know it."""
    try:
        from babel import Locale, UnknownLocaleError
    except ImportError:  # pragma: no cover - Material installs Babel
        return code
    try:
        name = Locale.parse(code.replace("-", "_")).get_display_name(code.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return code
    return name[:1].upper() + name[1:] if name else code


# --- The compendium as a language's reader sees it, its source texts marked ---------------


class SourceText(str):
    """A text shown in the source's language: no current translation replaces it."""

    __slots__ = ()


def marked_compendium(compendium: Compendium, language: str) -> Compendium:
    """`translated_compendium(compendium, language)`, each text still in the source's
    language a `SourceText` (so the site marks it): a ruleset that does not declare the
    language shows every text in the source's."""
    rulesets = {key: _marked(ruleset, language) for key, ruleset in compendium.rulesets.items()}
    return replace(compendium, rulesets=MappingProxyType(rulesets))


def _marked(ruleset: Ruleset, language: str) -> Ruleset:
    view = translated(ruleset, language)
    by_document: dict[str, set[str]] = {}
    for document_id, at in view.untranslated:
        by_document.setdefault(document_id, set()).add(at)

    def mark(document):
        paths = by_document.get(document.id if document is not view.ruleset.info else ruleset.id)
        if not paths:
            return document
        for at, text in text_fields(document).items():
            if at in paths and text.text:
                document = replaced(document, text.path, SourceText(text.text))
        return document

    shown = view.ruleset
    entries = tuple(replace(entry, document=mark(entry.document)) for entry in shown.entries)
    return Ruleset(
        mark(shown.info),
        shown.folder,
        shown.info_source,
        entries,
        shown.info_digest,
        shown.translations,
    )


def marking_filters(env: jinja2.Environment, source: str, direction: str | None = None) -> None:
    """Wrap the text filters of `env` (`md`, `cell`, `prose`, `rich`) so that a
    `SourceText` comes out inside an element in the source's language `source`, with
    the mark's class, and the source's `direction` when it is not the page's (English in
    an Arabic page); the text is escaped by the filter as before."""
    way = f' dir="{html_attribute(direction)}"' if direction else ""
    opening = f'<span lang="{html_attribute(source)}"{way} class="{MARK_CLASS}">'

    def inline(value: object, text: str) -> str:
        return f"{opening}{text}</span>" if isinstance(value, SourceText) and text else text

    def blocks(value: object, text: str) -> str:
        if not isinstance(value, SourceText):
            return text
        return "\n\n".join(
            f"{opening}{block}</span>" if _paragraph(block) else block
            for block in text.split("\n\n")
        )

    for name in ("md", "cell"):
        env.filters[name] = _then(env.filters[name], inline)
    for name in ("prose", "rich"):
        env.filters[name] = _then(env.filters[name], blocks)


_LIST_ITEM = re.compile(r"^(?:[-*+]|\d{1,9}[.)])(?:\s|$)")


def _paragraph(block: str) -> bool:
    """Whether a block of Markdown is one paragraph of text (not a list, not empty)."""
    return bool(block.strip()) and not block[0].isspace() and not _LIST_ITEM.match(block)


def _then(original: Callable, after: Callable[[object, str], str]) -> Callable:
    """The filter `original`, its text then passed to `after(value, text)`; given the
    template's context when `original` takes it (the `rich` filter)."""
    if getattr(original, "jinja_pass_arg", None) is not None:

        @jinja2.pass_context
        def with_context(context, value, *args, **kwargs):
            return after(value, original(context, value, *args, **kwargs))

        return with_context

    def filtered(value, *args, **kwargs):
        return after(value, original(value, *args, **kwargs))

    return filtered


# --- The note on pages that show source text ----------------------------------------------

_FIRST_HEADING = re.compile(r"^# .*\n", re.M)


def note_untranslated(
    project: SiteProject,
    pages_env: jinja2.Environment,
    language: SiteLanguage,
    source: SiteLanguage,
) -> int:
    """Open each page that shows a text in the source's language (a marked one) with a
    note, below its title; return how many pages have it. A page of a ruleset that
    declares the language gets the edition's own line (`fallback_note`, as its guide
    opens with: in that language when the ruleset words it), any other the site's
    `untranslated.md.j2`, in the site's language where rulepress has words in it (else
    in English, marked as such)."""
    written_in = words_of(pages_env).language_of("untranslated_note")
    way = direction(written_in)
    note = pages_env.get_template("untranslated.md.j2").render(
        language=language,
        source=source,
        lang=written_in,
        way=way if way != language.direction else None,
    )
    notes = language.notes
    noted = 0
    for path in sorted(project.written):
        if path.suffix != ".md" or not path.is_relative_to(project.docs):
            continue
        text = path.read_text(encoding="utf-8")
        if f'class="{MARK_CLASS}"' not in text:
            continue
        heading = _FIRST_HEADING.search(text)
        at = heading.end() if heading else 0
        relative = path.relative_to(project.docs).as_posix()
        own = notes.get(relative.split("/")[0]) if "/" in relative else None
        project.written.discard(path)
        project.write(relative, f"{text[:at]}\n{own or note}\n{text[at:]}")
        noted += 1
    return noted


def edition_notes(compendium: Compendium, language: str, source: str) -> dict[str, str]:
    """Ruleset id -> the note its pages open with in `language`: its edition's
    `fallback_note` (the guide's, counted on the source `compendium`), an admonition in
    the note's own language."""
    notes = {}
    for ruleset in compendium:
        plan = next((p for p in ruleset.info.languages if p.code == language), None)
        if plan is None:
            continue
        edition = translated(ruleset, language)
        line = fallback_note(edition)
        if line:
            written_in = language if plan.fallback_note else source
            way = direction(written_in)
            lang = f'lang="{html_attribute(written_in)}"'
            lang += f' dir="{way}"' if way != direction(language) else ""
            notes[ruleset.id] = (
                f'<div class="admonition note rp-untranslated" {lang}>\n'
                f"<p>{html_attribute(line)}</p>\n</div>\n"
            )
    return notes


# --- The switcher: the same page in every language ----------------------------------------


def page_keys(compendium: Compendium) -> dict[str, str]:
    """Each chapter's and section's own page by a key the languages share (the ruleset's
    id and the page's first document's id): its path differs between languages when its
    chapter's title is translated."""
    pages: dict[str, str] = {}
    for ruleset in compendium:
        for chapter in chapters(ruleset):
            own = chapter.sections if chapter.page_per_section else chapter.sections[:1]
            for section in own:
                pages.setdefault(
                    f"{ruleset.id}/{section.document.id}", page_of(ruleset, chapter, section)
                )
    return pages


def alternates(site: SiteLanguage, sites: list[SiteLanguage]) -> dict:
    """What `site`'s mkdocs.yml says of the switcher: Material's `alternate` list (each
    link a placeholder the hooks replace, page by page, with the same page in that
    language), and for the hooks the way from this site to each other's root and the
    pages whose path differs there."""
    here = site.folder
    entries, roots, moved = [], [], {}
    by_page = {page: key for key, page in site.pages.items()}
    for number, other in enumerate(sites):
        link = f"#rulepress-alternate-{number}"
        entries.append({"name": other.name, "link": link, "lang": other.code})
        root = posixpath.relpath(other.folder or ".", here or ".")
        roots.append("" if root == "." else f"{root}/")
        for page, key in by_page.items():
            target = other.pages.get(key)
            if target is not None and target != page:
                moved.setdefault(page, {})[str(number)] = _html_of(target)
    return {"alternate": entries, "rulepress_alternates": {"roots": roots, "moved": moved}}


def _html_of(page: str) -> str:
    """The URL of a page below docs/ as mkdocs writes it (use_directory_urls: false)."""
    return quote(page.removesuffix(".md") + ".html")


def write_stylesheet(project: SiteProject) -> None:
    """The marks' and right-to-left stylesheet, into a translation's site."""
    project.write(STYLESHEET, (SITE / STYLESHEET).read_text(encoding="utf-8"))
