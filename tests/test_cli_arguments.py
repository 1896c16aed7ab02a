"""Every option of every command, given a wrong value: a usage error (exit 2; 1 where the
value is well formed but the data says no) in one line that names the option, never an
"internal error" or a traceback. The commands are found by walking the click tree, the
kinds' lazily loaded `roll`, `odds` and `new` subcommands included, so a new option is
tested without a line added here."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import click
import pytest

from rulepress import cli as cli_module
from rulepress.cli import cli
from rulepress.commands.options import FilePath, IntList
from tests.helpers import COMPENDIUM, base_tree, build_tree

HUGE = "9" * 30

FULL = ["--compendium", "full"]

# A valid command line for each command, run in a folder holding `c/` (a small valid
# compendium), `full/` (a copy of the bundled one), `afile` and `page.txt` (a wiki page).
VALID: dict[str, list[str]] = {
    "validate": ["c"],
    "build": ["c", "--out", "d", "--target", "json"],
    "fmt": ["c", "--check"],
    "init": ["new-repo"],
    "schema": ["--out", "schemas"],
    "diff": ["c", "c"],
    "translate": ["de", "--compendium", "full"],
    "serve": ["c"],
    "import wiki": ["page.txt", "--into", "c/demo"],
    "roll iris": ["--rank", "3", "--faces", "1,2,3", "--compendium", "full"],
    "roll t2k4e": ["--attribute", "d8", "--faces", "6", "--compendium", "full"],
    "roll cuf": ["--cuf", "3", "--willpower", "8", "--tcs", "2", "--d20", "5", *FULL],
    "roll cool": ["shock", "--cool", "50", "--roll", "10", "--compendium", "full"],
    "odds iris": ["--rank", "2", "--compendium", "full"],
    "odds t2k4e": ["--attribute", "d8", "--compendium", "full"],
    "odds cuf": ["--cuf", "3", "--willpower", "8", "--tcs", "2", *FULL],
    "odds cool": ["--cool", "50", "--penalty", "5", "--compendium", "full"],
    "new weapon": ["Zap Gun", "--section", "pistols", "--compendium", "full"],
    "new skill": ["Zap Lore", "--category", "academic", "--traits", "agility,acuity", *FULL],
    "new tc-source": ["Zap", "--tc", "1", "--compendium", "full"],
}

# Values that are wrong for an option of any type but the ones that take any text.
EMPTY = ""


def commands(
    group: click.Group = cli, path: tuple[str, ...] = ()
) -> Iterator[tuple[str, click.Command]]:
    """Every leaf command with its path (`roll iris`), the lazy groups' included."""
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        else:
            yield " ".join((*path, name)), command


def wrong_values(parameter: click.Parameter) -> list[str]:
    """Values a careless user types for `parameter`: not a number, out of range, empty,
    huge, an unknown choice, a list of the wrong size."""
    kind = parameter.type
    if isinstance(kind, click.IntRange):
        values = ["x", EMPTY, "1.5", HUGE, "-" + HUGE]
        if kind.min is not None:
            values.append(str(kind.min - 1))
        if kind.max is not None:
            values.append(str(kind.max + 1))
        return values
    if isinstance(kind, click.types.IntParamType):
        return ["x", EMPTY, "1.5", HUGE, "-" + HUGE]
    if isinstance(kind, click.Choice):
        return ["nope", EMPTY]
    if isinstance(kind, IntList):
        return ["x", "1,,x", HUGE, "-1", "1," * 40 + "1"]
    if isinstance(kind, FilePath):
        return [EMPTY]
    if isinstance(kind, click.types.StringParamType):
        return [EMPTY, "no such thing!"]
    return []


@dataclass(frozen=True)
class Case:
    command: str
    option: str
    """The option's first name (`--rank`), or an argument's metavar."""
    value: str

    @property
    def args(self) -> list[str]:
        """The command's valid line with this one value made wrong."""
        base = list(VALID[self.command])
        command = dict(commands())[self.command]
        parameter = next(p for p in command.params if self.named(p))
        if isinstance(parameter, click.Argument):
            place = [p for p in command.params if isinstance(p, click.Argument)].index(parameter)
            positional = [i for i, arg in enumerate(base) if not arg.startswith("-")]
            # the positionals are the leading words of each valid line
            leading = [i for n, i in enumerate(positional) if i == n]
            if place < len(leading):
                base[leading[place]] = self.value
            else:
                base.insert(len(leading), self.value)
            return [*self.command.split(), *base]
        if self.option in base:
            base[base.index(self.option) + 1] = self.value
        else:
            base += [self.option, self.value]
        return [*self.command.split(), *base]

    def named(self, parameter: click.Parameter) -> bool:
        return self.option == label(parameter)


def label(parameter: click.Parameter) -> str:
    """How an error names the parameter: its longest option name, or its metavar."""
    if isinstance(parameter, click.Option):
        return max(parameter.opts, key=len)
    return parameter.human_readable_name


def cases() -> list[Case]:
    found = []
    for path, command in commands():
        for parameter in command.params:
            if isinstance(parameter, click.Option) and (parameter.is_flag or parameter.hidden):
                continue
            # a name may be any text; only an empty one is wrong
            values = wrong_values(parameter)
            if isinstance(parameter, click.Argument) and parameter.name in {"name", "old", "new"}:
                values = [EMPTY]
            found += [Case(path, label(parameter), value) for value in values]
    return found


# Well-formed values the command accepts as they are (any text is a title or a revision).
ACCEPTED = {
    ("init", "--title", "no such thing!"),
    ("diff", "--path", "no such thing!"),
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("careless")
    build_tree(root / "c", base_tree())
    shutil.copytree(COMPENDIUM, root / "full")
    (root / "afile").write_text("not a folder\n")
    (root / "page.txt").write_text(
        "= Pistols =\nWeapon Profile - Zap (Tier 1)\nnot a stats line\n", encoding="utf-8"
    )
    return root


def test_every_command_has_a_valid_line_here():
    assert set(VALID) == {path for path, _ in commands()}


def test_every_option_of_every_command_has_help():
    missing = [
        f"{path} {label(parameter)}"
        for path, command in commands()
        for parameter in command.params
        if isinstance(parameter, click.Option) and not (parameter.help or "").strip()
    ]
    assert not missing


@pytest.mark.parametrize(
    "case",
    [c for c in cases() if (c.command, c.option, c.value) not in ACCEPTED],
    ids=lambda c: f"{c.command} {c.option}={c.value!r}",
)
def test_a_wrong_value_is_a_one_line_usage_error_naming_the_option(
    case, folder, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(folder)
    monkeypatch.setenv("RULEPRESS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(
        "rulepress.commands.serve.LiveCompendium",
        lambda *args, **kwargs: pytest.fail(f"serve accepted {case.args}"),
    )
    before = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))
    code = cli_module.run(case.args)
    out, err = capsys.readouterr()
    assert code in (1, 2), (case.args, out, err)
    assert "internal error" not in err and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert case.option in lines[0] or case.option.lstrip("-") in lines[0], err
    after = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))
    assert after == before, "a refused command wrote files"


# --- one name per idea ---------------------------------------------------------------------------


def run_in(folder: Path, args: list[str], capsys) -> tuple[int, str, str]:
    code = cli_module.run(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", ["validate", "build", "serve"])
def test_the_commands_that_took_the_compendium_as_an_argument_take_compendium_too(command):
    params = {label(p) for p in dict(commands())[command].params}
    assert {"--compendium", "COMPENDIUM"} <= params


def test_validate_reads_the_compendium_by_either_name(folder, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(folder)
    monkeypatch.setenv("RULEPRESS_CACHE_DIR", str(tmp_path / "cache"))
    by_option = run_in(folder, ["validate", "--compendium", "c", "--format", "json"], capsys)
    by_argument = run_in(folder, ["validate", "c", "--json"], capsys)
    assert by_option == by_argument and by_option[0] == 0
    code, _, err = run_in(folder, ["validate", "c", "--compendium", "full"], capsys)
    assert code == 2 and "--compendium and COMPENDIUM name two folders" in err


def test_every_command_that_prints_data_takes_format_json_and_json(folder, monkeypatch, capsys):
    monkeypatch.chdir(folder)
    for path, command in commands():
        params = {label(p) for p in command.params}
        if path.startswith(("roll ", "odds ")) or path in {"validate", "diff"}:
            assert {"--format", "--json"} <= params, path
    line = VALID["roll cool"]
    assert run_in(folder, ["roll", "cool", *line, "--json"], capsys) == run_in(
        folder, ["roll", "cool", *line, "--format", "json"], capsys
    )
    code, _, err = run_in(folder, ["roll", "cool", *line, "--json", "--format", "text"], capsys)
    assert code == 2 and "--json is --format json" in err


def test_import_wiki_writes_into_its_folder_by_the_new_name_and_the_old(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    build_tree(tmp_path / "c", base_tree())
    (tmp_path / "page.txt").write_text("no profiles here\n")
    for name in ("--into", "--ruleset"):
        code, _, err = run_in(tmp_path, ["import", "wiki", "page.txt", name, "c/demo"], capsys)
        assert code == 2 and "no 'Weapon Profile - NAME (Tier N)' headers found" in err
    code, _, err = run_in(
        tmp_path, ["import", "wiki", "page.txt", "--into", "c/demo", "--ruleset", "c"], capsys
    )
    assert code == 2 and "--into and --ruleset name two folders" in err
