"""A game's samples (`Game.samples`, read by `rulepress init --samples`) and commands
(`Game.commands`): the bundled games' go through them as a plugin's do.

The plugin game is Cards (`rulepress-cards`, installed for each case by the `install`
fixture): one kind, a samples folder with a glossary, a command of its own (`rulepress
deal`) and a Group named `import` that adds `import deck` beside IRIS's `import wiki`.
"""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest
import yaml

from rulepress import kinds
from rulepress.cli import cli, run
from rulepress.cli.content import import_group
from rulepress.commands.init import BARE, every_sample, init_repository
from rulepress.errors import PluginError
from tests.helpers import REPO

CARDS = '''
from pathlib import Path
from typing import Literal

import click
from rulepress.plugin import Document, Game, Kind, Name


class Card(Document):
    """A card of the deck."""

    KIND = "card"
    kind: Literal["card"]
    name: Name


@click.command("deal")
@click.option("--hand", type=int, default=5, help="How many cards.")
def deal(hand):
    """Deal a hand."""
    click.echo(f"dealt {hand}")


@click.group("import")
def more_imports():
    """Cards' importers."""


@more_imports.command("deck")
def deck():
    """Import a deck."""
    click.echo("imported a deck")


@click.command("broken")
def broken():
    """A command with a bug."""
    raise KeyError("no such card")


GAME = Game(
    "cards",
    "Cards",
    kinds=(Kind(Card),),
    samples=Path(__file__).parent / "samples",
    commands=COMMANDS,
)
'''
ACE = "kind: card\nid: ace\nname: Ace\n"
GLOSSARY = "Trump: A card that beats every other suit.\n"
COMMANDS = ("cards_game:deal", "cards_game:more_imports", "cards_game:broken")


def _cards(install, files: dict | None = None, commands=COMMANDS, samples: bool = True):
    """Install the Cards game (with `files` besides its module); its package's folder."""
    source = CARDS.replace("COMMANDS", repr(commands))
    if not samples:
        source = source.replace('samples=Path(__file__).parent / "samples",', "")
    found = {"cards_game/__init__.py": source}
    if samples:
        found |= {"cards_game/samples/cards/ace.yaml": ACE}
        found |= {"cards_game/samples/glossary.yaml": GLOSSARY}
    root = install(
        "rulepress-cards",
        {"rulepress.games": {"cards": "cards_game:GAME"}},
        {**found, **(files or {})},
    )
    return root / "cards_game"


def _documents(folder):
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*.yaml"))
    }


# --- Samples --------------------------------------------------------------------------------


def test_the_bundled_games_samples_are_their_packages_not_the_skeletons():
    available = every_sample()
    assert list(available) == ["tables", "iris", "t2k4e", "cuf", "cool"]
    for game in kinds.games()[1:]:
        assert game.samples == REPO / "rulepress" / "games" / game.id / "samples"
        assert available[game.id].documents.keys() == {
            path.relative_to(game.samples).as_posix()
            for path in game.samples.rglob("*.yaml")
            if path.name != "glossary.yaml"
        }
    assert available["tables"].documents.keys() == {"tables/oracle.yaml"}
    assert available["t2k4e"].glossary == {
        "STR": "Strength, an attribute; pushing a STR roll costs a point of damage.",
        "AGL": "Agility, an attribute; pushing an AGL roll costs a point of damage.",
        "INT": "Intelligence, an attribute; pushing an INT roll costs a point of stress.",
        "EMP": "Empathy, an attribute; pushing an EMP roll costs a point of stress.",
    }
    assert available["cool"].glossary == {}


def test_a_plugin_games_samples_are_written_with_its_glossary_and_validate(
    install, tmp_path, capsys, monkeypatch
):
    _cards(install)
    assert list(every_sample()) == ["tables", "iris", "t2k4e", "cuf", "cool", "cards"]
    folder = tmp_path / "deck"
    init_repository(folder, samples=["cards"])
    documents = _documents(folder / "compendium" / "deck")
    assert set(documents) == {*BARE, "cards/ace.yaml"}
    assert documents["cards/ace.yaml"] == ACE
    ruleset = yaml.safe_load(documents["ruleset.yaml"])
    assert ruleset["glossary"] == {"Trump": "A card that beats every other suit."}
    assert "each kind of Cards;" in ruleset["summary"]
    assert ruleset["chapters"] == [{"title": "Introduction"}]
    monkeypatch.chdir(folder)
    assert run(["validate", "--strict"]) == 0, capsys.readouterr()


def test_samples_all_takes_in_a_plugin_games_samples_after_rulepress_own(install, tmp_path):
    _cards(install)
    folder = tmp_path / "everything"
    init_repository(folder, samples=["all"])
    documents = _documents(folder / "compendium" / "everything")
    assert "cards/ace.yaml" in documents and "skills/marksmanship.yaml" in documents
    glossary = yaml.safe_load(documents["ruleset.yaml"])["glossary"]
    # in the order the documents are written: cards/ before character-points/
    assert list(glossary) == ["Trump", "AP", "Average", "STR", "AGL", "INT", "EMP"]


def test_a_game_without_samples_is_not_offered(install, tmp_path, capsys):
    _cards(install, samples=False)
    assert run(["init", str(tmp_path / "rules"), "--samples", "cards"]) == 2
    err = capsys.readouterr().err
    assert "no samples of cards; choose from tables, iris, t2k4e, cuf, cool, all" in err
    assert not (tmp_path / "rules").exists()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda s: (s / "cards" / "link.yaml").symlink_to(s / "cards" / "ace.yaml"), "is a link or a special file"),
        (lambda s: (s / "more").symlink_to(s / "cards", target_is_directory=True), "more of rulepress-cards is a link"),
        (lambda s: os.mkfifo(s / "cards" / "pipe.yaml"), "pipe.yaml of rulepress-cards is a link or a special file"),
        (lambda s: (s / "notes.txt").write_text("hi"), "notes.txt of rulepress-cards: samples are `.yaml`"),
        (lambda s: (s / ".hidden.yaml").write_text(ACE), "a hidden name"),
        (lambda s: (s / "ruleset.yaml").write_text(ACE), "is a file the bare ruleset writes too"),
        (lambda s: (s / "skills").mkdir() or (s / "skills" / "marksmanship.yaml").write_text(ACE), "rulepress (samples 'iris') writes too"),
        (lambda s: (s / "cards" / "joker.yaml").write_text("- not a document\n"), "no YAML document with a `kind`"),
        (lambda s: (s / "glossary.yaml").write_text("- Trump\n"), "must map each term to its text"),
    ],
)  # fmt: skip
def test_a_plugins_samples_are_untrusted_links_and_special_files_are_refused(
    install, tmp_path, make, message, capsys
):
    package = _cards(install)
    make(package / "samples")
    with pytest.raises(PluginError) as error:
        every_sample()
    assert message in str(error.value) and "rulepress-cards" in str(error.value)
    assert run(["init", str(tmp_path / "rules"), "--samples", "iris"]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "rules").exists()


def test_a_samples_folder_that_is_a_link_is_refused(install, tmp_path):
    package = _cards(install)
    (package / "samples").rename(tmp_path / "elsewhere")
    (package / "samples").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(PluginError, match="is not a folder"):
        every_sample()


def test_a_games_samples_must_be_a_path(install):
    install(
        "rulepress-cards",
        {"rulepress.games": {"cards": "cards_game:GAME"}},
        {"cards_game.py": "from rulepress.plugin import Game\nGAME = Game('cards', 'C', samples='x')\n"},
    )  # fmt: skip
    with pytest.raises(Exception, match="the game's samples must be a folder's Path"):
        kinds.registry()


# --- Commands -------------------------------------------------------------------------------


def _listed(help_text: str) -> list[str]:
    section = help_text.split("Commands:\n", 1)[1]
    return [line.split()[0] for line in section.splitlines() if line.startswith("  ")]


def test_iris_adds_import_wiki_through_its_game_record():
    (iris,) = [game for game in kinds.games() if game.id == "iris"]
    assert iris.commands == ("rulepress.games.iris.import_group:import_group",)
    assert import_group.commands == {}  # the core's group holds none of its own
    context = click.Context(cli)
    wiki = cli.get_command(context, "import").get_command(context, "wiki")
    assert [p.name for p in wiki.params] == ["page", "ruleset_folder", "old_ruleset_folder"]


def test_a_plugins_commands_are_added_beside_and_into_rulepress_own(install, capsys):
    _cards(install)
    assert run(["import", "--help"]) == 0
    assert _listed(capsys.readouterr().out) == ["deck", "wiki"]
    assert run(["import", "deck"]) == 0
    assert capsys.readouterr().out == "imported a deck\n"
    assert run(["deal", "--hand", "3"]) == 0
    assert capsys.readouterr().out == "dealt 3\n"
    # rulepress --help imports no game, so it lists rulepress's own commands only
    assert run(["--help"]) == 0
    assert "deal" not in _listed(capsys.readouterr().out)


def test_a_plugins_command_that_fails_is_an_error_naming_the_plugin(install, capsys):
    _cards(install)
    assert run(["broken"]) == 2
    err = capsys.readouterr().err
    assert "rulepress broken (from rulepress-cards) failed: KeyError" in err
    assert "internal error" not in err


@pytest.mark.parametrize(
    ("commands", "message"),
    [
        (("cards_game:build",), "rulepress-cards adds a command 'build', which is rulepress's own"),
        (("cards_game:wiki_group",), "rulepress-cards adds a command import 'wiki', which rulepress adds too"),
        (("cards_game:deal", "cards_game:deal"), "rulepress-cards adds a command 'deal', which rulepress-cards adds too"),
        (("cards_game:nothing",), "command 'cards_game:nothing' of game 'cards' from plugin rulepress-cards cannot be imported"),
        (("cards_game:GAME",), "is not a click command"),
    ],
)  # fmt: skip
def test_a_clash_of_command_names_is_a_plugin_error_naming_the_package(
    install, commands, message, capsys
):
    extra = (
        "\n@click.command('build')\ndef build():\n    'Not the build.'\n"
        "\n@click.group('import')\ndef wiki_group():\n    'More.'\n"
        "\n@wiki_group.command('wiki')\ndef wiki():\n    'Another wiki.'\n"
    )
    install(
        "rulepress-cards",
        {"rulepress.games": {"cards": "cards_game:GAME"}},
        {"cards_game.py": CARDS.replace("GAME = Game(", extra + "\nGAME = Game(")
         .replace("COMMANDS", repr(commands))
         .replace('samples=Path(__file__).parent / "samples",', "")},
    )  # fmt: skip
    assert run(["import", "--help"]) == 2
    assert message in capsys.readouterr().err


def test_the_launchers_help_imports_no_game_and_no_model():
    script = (
        "import sys; from rulepress.cli import run; run(['--help']); "
        "print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'rulepress.kinds', "
        "'rulepress.games', 'rulepress.plugin'))))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "[]", result.stderr
