"""Translations as data: the model, staleness at the translation's line and its review,
the translator's command, and every output per language (the guides, the JSON, the
Foundry modules' Babele files beside packs the official CLI reads)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from rulepress.cli import run
from rulepress.commands.build import build
from rulepress.models.translation import Translation
from rulepress.translations import digest, text_fields, translated
from rulepress.validation import validate
from tests.helpers import COMPENDIUM, RULESET, RULESET_FILE, SKILL_FILE, base_tree, build_tree

GERMAN = RULESET + "languages:\n  - {code: de, name: Deutsch}\n"
SKILL_DE = "demo/translations/de/skills/bio-lore.yaml"


def _german(tmp_path: Path, **files: str) -> Path:
    tree = {**base_tree(), RULESET_FILE: GERMAN, **files}
    return build_tree(tmp_path / "c", tree)


def _findings(root: Path, code: str) -> list:
    return [f for f in validate(root).findings if f.code == code]


def test_a_translation_holds_texts_with_their_digests_and_refuses_anything_else():
    made = Translation.model_validate(
        {
            "kind": "translation",
            "document": "bio-lore",
            "language": "de",
            "texts": {"name": {"text": "Biokunde", "digest": digest("Bio Lore")}},
        }
    )
    assert made.id == "bio-lore-de"  # named by what it translates
    for wrong in (
        {"language": "Deutsch"},  # not a language tag
        {"texts": {"name": {"text": "Biokunde", "digest": "xyz"}}},  # not a digest
        {"texts": {"name": {"text": "Biokunde", "digest": digest("x"), "damage": 3}}},
    ):
        data = {"kind": "translation", "document": "bio-lore", "language": "de", **wrong}
        with pytest.raises(ValidationError):
            Translation.model_validate(data)


def test_a_documents_texts_are_its_text_fields_never_a_figure_or_an_id(bundled):
    shock = bundled.compendium.ruleset("cool").get("shock-roll")
    fields = text_fields(shock)
    assert fields["name"].text == "Shock roll"
    assert "rulings[0].question" in fields
    assert not {"id", "kind", "order", "acknowledged"} & {p.split("[")[0] for p in fields}
    assert all(isinstance(field.text, str) for field in fields.values())


def test_a_source_edit_makes_the_translation_stale_at_its_line_and_a_review_clears_it(
    tmp_path,
):
    made_from = digest("Bio Lore")
    root = _german(
        tmp_path,
        **{
            SKILL_DE: "kind: translation\ndocument: bio-lore\nlanguage: de\ntexts:\n"
            f"  name:\n    text: Biokunde\n    digest: {made_from}\n    source: Bio Lore\n"
        },
    )
    assert _findings(root, "RP401") == []
    skill = root / SKILL_FILE
    skill.write_text(skill.read_text().replace("name: Bio Lore", "name: Bio-Lore"))
    (stale,) = _findings(root, "RP401")
    assert (stale.file.name, stale.line) == ("bio-lore.yaml", 6)
    assert "'Bio Lore'" in stale.message and "'Bio-Lore'" in stale.message
    # the outputs show the source until the translation is reviewed
    ruleset = validate(root).compendium.ruleset("demo")
    assert translated(ruleset, "de").ruleset.get("bio-lore").name == "Bio-Lore"
    assert run(["translate", "de", "--compendium", str(root)]) == 0
    assert _findings(root, "RP401"), "without --review the stale entry stays stale"
    assert run(["translate", "de", "--review", "--compendium", str(root)]) == 0
    assert _findings(root, "RP401") == []
    text = (root / SKILL_DE).read_text()
    assert f"digest: {digest('Bio-Lore')}" in text and "source: Bio-Lore" in text
    ruleset = validate(root).compendium.ruleset("demo")
    assert translated(ruleset, "de").ruleset.get("bio-lore").name == "Biokunde"


def test_translate_writes_the_missing_entries_with_the_source_beside_them(tmp_path, capsys):
    root = _german(tmp_path)
    (info,) = _findings(root, "RP402")
    assert info.message.startswith("de: 9 of 9 texts are not translated")
    assert run(["translate", "de", "--compendium", str(root)]) == 0
    assert "de: 9 entries to translate added" in capsys.readouterr().out
    written = root / SKILL_DE
    assert written.read_text() == (
        "kind: translation\nid: bio-lore-de\ndocument: bio-lore\nlanguage: de\ntexts:\n"
        f"  name:\n    text: ''\n    digest: {digest('Bio Lore')}\n    source: Bio Lore\n"
    )
    assert run(["fmt", "--check", str(root / "demo/translations")]) == 0  # canonical
    assert run(["translate", "de", "--compendium", str(root)]) == 0
    assert "0 entries to translate added, 0 stale, 0 reviewed, 0 files written" in (
        capsys.readouterr().out
    )
    assert _findings(root, "RP402")  # written, not yet translated


def test_translate_refuses_an_undeclared_language_and_a_broken_compendium(tmp_path, capsys):
    root = _german(tmp_path)
    assert run(["translate", "fr", "--compendium", str(root)]) == 2
    assert "no ruleset declares language 'fr'" in capsys.readouterr().err
    (root / "demo/skills/bio-lore.yaml").write_text("kind: skill\nid: bio-lore\n")
    assert run(["translate", "de", "--compendium", str(root)]) == 1
    assert "nothing written" in capsys.readouterr().err
    assert not (root / "demo/translations").exists()


def test_a_required_language_fails_strict_while_texts_are_missing(tmp_path):
    root = _german(tmp_path)
    (root / "demo/ruleset.yaml").write_text(
        GERMAN.replace("{code: de, name: Deutsch}", "{code: de, name: Deutsch, required: true}")
    )
    assert validate(root).ok and not validate(root, strict=True).ok


def test_the_bundled_german_edition_shows_its_stale_entry_acknowledged(bundled):
    (stale,) = [f for f in bundled.findings if f.code == "RP401"]
    assert stale.acknowledged and stale.file.name == "critical-failure.yaml"
    assert "'Critical Failure'" in stale.message and "'Critical failure'" in stale.message


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("languages")
    validation, _ = build(COMPENDIUM, out, ["markdown", "json", "foundry"])
    assert validation.ok
    return out


def test_the_guide_and_the_json_have_a_german_edition(built):
    guide = (built / "markdown/de/cool.md").read_text()
    assert guide.startswith("# Cool: Schock- und Angstwürfe\n")
    assert "Texten dieser deutschen Ausgabe sind noch nicht übersetzt" in guide
    assert "Which rolls on the percentile dice are critical failures?" in guide  # fallback
    assert "Kritischer Fehlschlag" not in guide  # the stale entry is not used
    data = json.loads((built / "json/de/cool.json").read_text())
    assert data["ruleset"]["title"] == "Cool: Schock- und Angstwürfe"
    assert {d["name"] for d in data["documents"]["shock-roll"]} == {"Schockwurf"}
    assert not (built / "markdown/de/iris.md").exists()  # iris declares no language


def test_foundry_gets_babele_files_beside_packs_the_official_cli_reads(
    built, foundry_cli, tmp_path
):
    from tests.helpers import unpack_with_cli

    module = built / "foundry/rulepress-cool"
    manifest = json.loads((module / "module.json").read_text())
    assert manifest["esmodules"] == ["scripts/babele.js"]
    assert manifest["relationships"]["recommends"][0]["id"] == "babele"
    script = (module / "scripts/babele.js").read_text()
    assert '"lang": "de", "dir": "translations/de"' in script
    babele = json.loads((module / "translations/de/rulepress-cool.rules.json").read_text())
    unpacked = unpack_with_cli(foundry_cli, module / "packs/rules", tmp_path)
    names = {json.loads(p.read_text())["name"] for p in unpacked.glob("*.json")}
    assert set(babele["entries"]) <= names  # keyed by the source names Foundry has
    assert set(babele["entries"]) == {"About These Rules", "Cool"}  # every journal
    chapter = babele["entries"]["Cool"]
    assert set(chapter) == {"pages"}  # a journal has no description to replace
    assert chapter["pages"]["Shock roll"]["name"] == "Schockwurf"
    assert "Angst" in chapter["pages"]["Fear roll"]["text"]
    shutil.rmtree(unpacked)


def test_diff_shows_translation_changes_in_the_games_words(tmp_path, capsys):
    old = _german(tmp_path / "old")
    new = _german(
        tmp_path / "new",
        **{
            SKILL_DE: "kind: translation\ndocument: bio-lore\nlanguage: de\ntexts:\n"
            f"  name:\n    text: Biokunde\n    digest: {digest('Bio Lore')}\n"
        },
    )
    assert run(["diff", str(old), str(new)]) == 0
    assert "de: Bio Lore, name: translated as 'Biokunde'" in capsys.readouterr().out


def test_translate_never_writes_through_a_link_out_of_the_ruleset(tmp_path, capsys):
    root = _german(tmp_path)
    outside, beside = tmp_path / "elsewhere", root / "beside"  # beside: in the compendium
    for folder in (outside, beside):
        folder.mkdir()
        (root / "demo/translations").unlink(missing_ok=True)
        (root / "demo/translations").symlink_to(folder, target_is_directory=True)
        assert run(["translate", "de", "--compendium", str(root)]) != 0
        assert list(folder.iterdir()) == []
        assert "nothing written" in capsys.readouterr().err


def test_a_watch_redoes_a_ruleset_whose_translation_changed(tmp_path):
    from rulepress.live import compare

    root = _german(tmp_path)
    assert run(["translate", "de", "--compendium", str(root)]) == 0
    before = validate(root).compendium
    translation = root / SKILL_DE
    translation.write_text(translation.read_text().replace("text: ''", "text: Biokunde"))
    changes = compare(before, validate(root).compendium)
    assert changes.rulesets == {"demo"}
