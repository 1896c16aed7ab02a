"""Starting another game (issue 27, point 12): `init` writes a bare repository named after
its folder, the bundled games' samples only when asked for; `roll`, `odds` and `new` list
only the games the compendium holds and default `--ruleset` to the only one."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path

import pytest
import yaml
from helpers import COMPENDIUM

from rulepress.cli import run
from rulepress.commands.init import BARE, SAMPLE_RULESET, every_sample, init_repository

SKELETON = Path(str(files("rulepress") / "skeleton" / "compendium" / SAMPLE_RULESET))
SAMPLE_SETS = ("tables", "iris", "t2k4e", "cuf", "cool")
"""The sample sets `--samples` offers: the core's roll table, then the bundled games'."""


def _documents(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.yaml")}


def _cli(folder: Path, args: list[str], capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.chdir(folder)
    code = run(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def bare(tmp_path) -> Path:
    """A repository written by a bare `rulepress init`, in a folder with spaces."""
    folder = tmp_path / "Iron Oath"
    init_repository(folder)
    return folder


def test_a_bare_init_holds_one_ruleset_named_after_the_folder_and_one_rule(bare):
    documents = _documents(bare / "compendium")
    assert sorted(documents) == ["iron-oath/rules/welcome.yaml", "iron-oath/ruleset.yaml"]
    ruleset = yaml.safe_load(documents["iron-oath/ruleset.yaml"])
    assert (ruleset["id"], ruleset["title"]) == ("iron-oath", "Iron Oath")
    assert ruleset["chapters"] == [{"title": "Introduction"}]
    assert "glossary" not in ruleset
    assert "rulepress init --samples all" in (bare / "README.md").read_text()


def test_a_bare_init_validates_and_builds_with_no_finding(bare, capsys, monkeypatch):
    code, out, _ = _cli(bare, ["validate", "--strict"], capsys, monkeypatch)
    assert (code, out.strip()) == (0, "0 errors, 0 warnings, 0 info")
    code, out, err = _cli(bare, ["build", "--no-cache"], capsys, monkeypatch)
    assert code == 0, out + err
    assert out.startswith("validated: 0 errors, 0 warnings, 0 info\n")
    assert (bare / "dist" / "markdown" / "iron-oath.md").is_file()
    assert (bare / "dist" / "foundry" / "rulepress-iron-oath" / "module.json").is_file()


@pytest.mark.parametrize(
    ("name", "ruleset_id"),
    [("My_Game 2", "my-game-2"), ("Café Noir", "cafe-noir"), ("..rules..", "rules")],
)
def test_the_ruleset_id_is_the_folder_name_as_a_slug(tmp_path, name, ruleset_id):
    init_repository(tmp_path / name)
    assert (tmp_path / name / "compendium" / ruleset_id / "ruleset.yaml").is_file()


def test_a_folder_name_with_no_slug_in_it_asks_for_the_ruleset_option(tmp_path, capsys):
    monkey_folder = tmp_path / "日本語"
    assert run(["init", str(monkey_folder)]) == 2
    err = capsys.readouterr().err
    assert "cannot make a ruleset id from the folder's name '日本語'" in err
    assert "--ruleset" in err and list(tmp_path.iterdir()) == []
    assert run(["init", str(monkey_folder), "--ruleset", "nihongo"]) == 0
    assert (monkey_folder / "compendium" / "nihongo" / "ruleset.yaml").is_file()


def test_samples_all_writes_the_skeleton_and_the_games_samples_byte_for_byte(tmp_path):
    folder = tmp_path / "rules"
    init_repository(folder, ruleset_id=SAMPLE_RULESET, title="My Rules", samples=["all"])
    written = _documents(folder / "compendium" / SAMPLE_RULESET)
    sources = _documents(SKELETON)
    for samples in every_sample().values():
        sources.update({name: text.encode() for name, text in samples.documents.items()})
    assert written.keys() == sources.keys() and len(written) == 31
    for name in sorted(sources.keys() - {"ruleset.yaml"}):
        assert written[name] == sources[name], name
    # the ruleset keeps every chapter and its summary, and has every game's glossary terms
    skeleton = yaml.safe_load(sources["ruleset.yaml"])
    glossary = yaml.safe_load(written["ruleset.yaml"]).pop("glossary")
    assert yaml.safe_load(written["ruleset.yaml"]) == {**skeleton, "glossary": glossary}
    assert list(glossary) == ["AP", "Average", "STR", "AGL", "INT", "EMP"]


def test_every_ruleset_document_is_bare_or_one_sample_sets():
    owners: dict[str, list[str]] = {}
    available = every_sample()
    assert tuple(available) == SAMPLE_SETS
    for game, samples in available.items():
        for name in samples.documents:
            owners.setdefault(name, []).append(game)
    for name in {*_documents(SKELETON), *owners}:
        assert (name in BARE) != (name in owners), name
        assert len(owners.get(name, [])) <= 1, (name, owners[name])


@pytest.mark.parametrize("game", sorted(SAMPLE_SETS))
def test_one_games_samples_validate_strictly(tmp_path, game, capsys, monkeypatch):
    folder = tmp_path / game
    init_repository(folder, samples=[game])
    names = set(_documents(folder / "compendium" / game))
    assert names == {*BARE, *every_sample()[game].documents}
    code, out, _ = _cli(folder, ["validate", "--strict"], capsys, monkeypatch)
    known = {"cool": ", 2 acknowledged"}.get(game, "")  # its rounds against turns (RP228)
    assert (code, out.strip()) == (0, "0 errors, 0 warnings, 0 info" + known)


def test_an_unknown_game_in_samples_is_refused_with_nothing_written(tmp_path, capsys):
    assert run(["init", str(tmp_path / "rules"), "--samples", "iris,chess"]) == 2
    err = capsys.readouterr().err
    assert "--samples: no samples of chess; choose from tables, iris, t2k4e, cuf, cool, all" in err
    assert list(tmp_path.iterdir()) == []


def _listed(help_text: str) -> list[str]:
    """The subcommands a group's --help lists."""
    section = help_text.split("Commands:\n", 1)[1]
    return [m.group(1) for m in re.finditer(r"^  (\S+)  ", section, re.MULTILINE)]


@pytest.mark.parametrize(
    ("group", "bundled"),
    [
        ("roll", ["cool", "cuf", "iris", "t2k4e"]),
        ("odds", ["cool", "cuf", "iris", "t2k4e"]),
        ("new", ["skill", "tc-source", "weapon"]),
    ],
)
def test_the_kind_groups_list_only_the_games_of_the_compendium(
    bare, tmp_path, group, bundled, capsys, monkeypatch
):
    code, out, _ = _cli(bare, [group, "--help"], capsys, monkeypatch)
    assert code == 0 and _listed(out) == []
    assert "none for the kinds of ./compendium" in out
    code, out, _ = _cli(COMPENDIUM.parent, [group, "--help"], capsys, monkeypatch)
    assert code == 0 and _listed(out) == bundled
    # no compendium to read: every registered kind's subcommand, as the help says
    code, out, _ = _cli(tmp_path, [group, "--help"], capsys, monkeypatch)
    assert code == 0 and _listed(out) == bundled
    assert "every registered one when there is no" in out


def test_one_games_samples_list_that_games_subcommands(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "cool-rules"
    init_repository(folder, samples=["cool"])
    code, out, _ = _cli(folder, ["roll", "--help"], capsys, monkeypatch)
    assert code == 0 and _listed(out) == ["cool"]


def test_new_and_roll_find_the_only_ruleset_without_the_option(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "Iron Oath"
    init_repository(folder, samples=["iris"])
    code, out, err = _cli(
        folder,
        ["new", "skill", "Bio Lore", "--category", "academic", "--traits", "grit,wits"],
        capsys,
        monkeypatch,
    )
    assert code == 0, err
    assert out == f"wrote {Path('compendium/iron-oath/skills/bio-lore.yaml')}\n"
    code, out, err = _cli(
        folder, ["roll", "iris", "--rank", "2", "--faces", "2,5", "--json"], capsys, monkeypatch
    )
    assert code == 0, err
    assert '"ruleset": "iron-oath"' in out


def test_in_the_bundled_compendium_the_ruleset_holding_the_kind_is_chosen(capsys, monkeypatch):
    code, out, err = _cli(
        COMPENDIUM.parent,
        ["roll", "cool", "fear", "--cool", "50", "--roll", "70", "--json"],
        capsys,
        monkeypatch,
    )
    assert code == 0, err
    assert '"ruleset": "cool"' in out


def test_several_rulesets_and_none_holding_the_kind_is_a_usage_error(tmp_path, capsys, monkeypatch):
    for name in ("one", "two"):
        init_repository(tmp_path / name)
    (tmp_path / "two" / "compendium" / "two").rename(tmp_path / "one" / "compendium" / "two")
    code, _, err = _cli(
        tmp_path / "one",
        ["new", "skill", "Bio Lore", "--category", "academic", "--traits", "a,b"],
        capsys,
        monkeypatch,
    )
    assert code == 2
    assert "--ruleset: give one; the compendium has no ruleset with skill documents, " in err
    assert "and 2 rulesets (one, two)" in err


def test_the_launchers_help_still_reads_no_compendium_and_imports_no_model():
    """Only `roll --help` (and the like) read ./compendium: `rulepress --help` stays quick."""
    import subprocess
    import sys

    script = (
        "import sys; from rulepress.cli import run; run(['--help']); "
        "print(sorted(m for m in ('pydantic', 'rulepress.kinds', 'rulepress.compendium.loader') "
        "if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=COMPENDIUM.parent
    )
    assert result.stdout.splitlines()[-1] == "[]", result.stderr


def test_a_two_word_glossary_term_is_defined_shown_on_the_site_and_not_reported(
    tmp_path, capsys, monkeypatch
):
    folder = tmp_path / "rules"
    init_repository(folder)
    ruleset_file = folder / "compendium" / "rules" / "ruleset.yaml"
    ruleset = yaml.safe_load(ruleset_file.read_text())
    ruleset["glossary"] = {"Close Combat": "Fighting within reach."}
    ruleset_file.write_text(yaml.safe_dump(ruleset, sort_keys=False))
    welcome = folder / "compendium" / "rules" / "rules" / "welcome.yaml"
    rule = yaml.safe_load(welcome.read_text())
    rule["text"] = "Make a Close Combat test to strike, and a Stealth test to hide."
    welcome.write_text(yaml.safe_dump(rule, sort_keys=False))
    code, out, _ = _cli(folder, ["validate", "--format", "json"], capsys, monkeypatch)
    assert code == 0, out
    undefined = [f["message"] for f in json.loads(out)["findings"] if f["code"] == "RP232"]
    assert undefined == [
        '"Stealth" is used here but never defined: no glossary entry, document or text defines it'
    ]
    code, out, err = _cli(folder, ["build", "--target", "site"], capsys, monkeypatch)
    assert code == 0, out + err
    page = (folder / "dist" / "site" / "rules" / "introduction.html").read_text()
    assert 'title="Fighting within reach.">Close Combat</abbr> test' in page


def test_the_kinds_a_document_refers_to_are_named_by_kind():
    """`new weapon` is listed once a compendium holds a weapon section: a weapon refers to
    that kind (a kind's name, whatever marks the field)."""
    from rulepress.games.iris.models.weapon import WeaponProfile
    from rulepress.models.base import referenced_kinds

    assert referenced_kinds(WeaponProfile) == {"weapon-section"}
