"""The `markdown` target: one self-contained quick-reference guide per ruleset.

GitHub-flavoured Markdown: contents with anchors, a chapter per `##`, a section per `###`,
then the rulings and the source credits. Every value is escaped by the templates'
filters, so a `|` or a `<` in the data never breaks a table or the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rulepress.compendium.model import Compendium, Ruleset
from rulepress.errors import Finding
from rulepress.exporters import BaseExporter, ExportOptions
from rulepress.exporters.escaping import markdown_link, markdown_text, yaml_front_matter
from rulepress.exporters.guide import Section, chapters, shown_at
from rulepress.exporters.markdown_text import environment, render_section
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.pieces import Pieces
from rulepress.exporters.ruleset_files import RulesetFiles
from rulepress.models import Document
from rulepress.models.settings import GuideSettings, Settings, fill
from rulepress.translations import Translated, fallback_note


def anchor_link(ruleset: Ruleset):
    """A Linker to the guide's own anchors."""
    where = shown_at(ruleset)

    def link(document_id: str, label: str) -> str:
        found = where.get(document_id)
        return markdown_link(label, f"#{found[1].id}") if found else markdown_text(label)

    return link


def front_matter(guides: GuideSettings, placeholders: dict[str, str]) -> str:
    """The settings' front matter as a YAML block, its patterns filled in; "" when there
    is none."""

    def filled(item: object) -> object:
        if isinstance(item, list):
            return [filled(each) for each in item]
        return fill(item, **placeholders) if isinstance(item, str) else item

    return yaml_front_matter({key: filled(item) for key, item in guides.front_matter.items()})


def render_guide(
    ruleset: Ruleset,
    templates: Path | None = None,
    settings: Settings | None = None,
    errata: Sequence[tuple[Document, Finding]] = (),
    pieces: Pieces | None = None,
    note: str = "",
    language: str | None = None,
) -> str:
    """A ruleset's quick-reference guide as one Markdown text, titled and headed as the
    publisher's `settings` say, ending with the source's known problems (`errata`, from
    Compendium.errata_of); `templates` overrides the shipped templates by name. A watch
    run's `pieces` keep each section's text while its documents stay the same objects.
    rulepress's own words are in `language`, the source's (`site.language`) unless told."""
    settings = settings or Settings()
    language = language or settings.site.language
    placeholders = settings.placeholders(ruleset.id, ruleset.info.title, ruleset.info.version)
    if pieces is None:
        env = environment(templates, language=language)
    else:
        env = pieces.get(
            ("markdown-templates", templates, language),
            (),
            lambda: environment(templates, language=language),
        )
    parts = chapters(ruleset)
    link = anchor_link(ruleset)
    rulings = ruleset.rulings()

    def body(section: Section) -> str:
        if pieces is None:
            return render_section(env, section, ruleset, link)
        name = ("guide-section", section.id, section.title, section.template, section.helpers)
        return pieces.get(
            name, section.documents, lambda: render_section(env, section, ruleset, link)
        )

    return env.get_template("guide.md.j2").render(
        front_matter=front_matter(settings.guides, placeholders),
        note=note,
        title=fill(settings.guides.title, **placeholders),
        ruleset=ruleset,
        info=ruleset.info,
        chapters=parts,
        rulings=rulings,
        errata=errata,
        body=body,
    )


class MarkdownExporter(BaseExporter):
    """The `markdown` target: a guide to print or read offline, one file per ruleset."""

    name = "markdown"
    description = "a quick-reference guide per ruleset (dist/markdown/<ruleset>.md)"

    def export(self, compendium: Compendium, out: Path, options: ExportOptions) -> None:
        """Write `<ruleset>.md` for each ruleset into `out`, and `<language>/<ruleset>.md`
        for each language it is translated into."""
        self.live(OutputFolder(out), out, options).update(compendium, compendium.rulesets, ())

    def live(self, output: OutputFolder, target: Path, options: ExportOptions) -> RulesetFiles:
        """Each changed ruleset's `<ruleset>.md` written again, keeping the text of its
        unchanged sections."""
        return RulesetFiles(
            output,
            target,
            ".md",
            lambda compendium, ruleset, pieces, edition: guide_bytes(
                compendium, ruleset, options.templates, pieces, edition
            ),
        )


def guide_bytes(
    compendium: Compendium,
    ruleset: Ruleset,
    templates: Path | None,
    pieces: Pieces | None = None,
    edition: Translated | None = None,
) -> bytes:
    """A ruleset's guide file as the build writes it (what a watch run writes again when
    the ruleset changes, keeping the unchanged sections' text in `pieces`); an `edition`
    in another language opens with its note on the texts still in the source's."""
    text = render_guide(
        ruleset,
        templates,
        settings=compendium.settings.settings,
        errata=compendium.errata_of(ruleset),
        pieces=pieces,
        note=fallback_note(edition) if edition is not None else "",
        language=edition.language if edition is not None else None,
    )
    return text.encode("utf-8")
