"""Every code block of README.md, and of the docs pages its reference sections moved to,
runs here, or a check compares it with what rulepress does, or a comment before it says why
it cannot: neither the README nor those pages can drift from the code.

A block is one of:
- ```python: run, in order with the other Python blocks of its page (one namespace per
  page); `>>>` examples are doctests, their shown results compared;
- ```console: each `$ rulepress ...` line run in a copy of the bundled compendium's
  folder; it must exit 0, and print the lines shown under it (`...` stands for any text);
- marked `<!-- checked: NAME -->`: compared by the check NAME below;
- marked `<!-- not run: REASON -->`: counted, not run.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from ruamel.yaml import YAML

from rulepress.cli import cli
from rulepress.compendium.settings import load_settings
from tests.helpers import COMPENDIUM, REPO, commit_all, git, run

README = REPO / "README.md"
PAGES = tuple(
    REPO / name
    for name in (
        "README.md",
        "docs/releasing.md",
        "docs/settings.md",
        "docs/cli.md",
        "docs/foundry.md",
        "docs/api.md",
        "docs/games.md",
        "docs/architecture.md",
        "docs/threat-model.md",
        "docs/development.md",
        "docs/finding-codes.md",
        "docs/contributing.md",
    )
)
"""The README and the docs pages that hold what the README held (their blocks and checks)."""
README_LINES = 300
"""The README is the short version: what rulepress is, installing, a first build, the docs."""
FENCE = re.compile(r"^(?P<indent> *)```(?P<language>[\w-]*)\s*$")
MARK = re.compile(r"^\s*<!-- (?P<kind>not run|checked): (?P<what>.+?) -->\s*$")
RUNNABLE = ("python", "console")


@dataclass(frozen=True)
class Block:
    """A fenced block of a page: where it is, what it says, and how it is marked."""

    page: str
    """The page's path in the repository (README.md, docs/cli.md...)."""
    line: int
    """The line of its opening fence (1-based)."""
    section: str
    """The `#` or `##` heading it is under ("" before the first)."""
    language: str
    text: str
    mark: tuple[str, str] | None
    """("not run", reason) or ("checked", name), from the comment just before it."""

    def __str__(self) -> str:
        return f"{self.page}:{self.line} ({self.language or 'no language'}, {self.section})"


def page_blocks(page: str, text: str) -> list[Block]:
    """Every fenced block of `text`, the page `page`, in order, with its section and mark."""
    blocks: list[Block] = []
    lines = text.splitlines()
    section, number = "", 0
    while number < len(lines):
        line = lines[number]
        if line.startswith(("# ", "## ")):
            section = line.split(" ", 1)[1].strip()
        opening = FENCE.match(line)
        if not opening:
            number += 1
            continue
        indent = opening["indent"]
        end = number + 1
        while end < len(lines) and not re.fullmatch(rf"{indent}```\s*", lines[end]):
            end += 1
        assert end < len(lines), f"{page}:{number + 1}: a block that is never closed"
        body = [inner.removeprefix(indent) for inner in lines[number + 1 : end]]
        before = next((lines[i] for i in range(number - 1, -1, -1) if lines[i].strip()), "")
        mark = MARK.match(before)
        blocks.append(
            Block(
                page=page,
                line=number + 1,
                section=section,
                language=opening["language"],
                text="\n".join(body) + "\n",
                mark=(mark["kind"], mark["what"]) if mark else None,
            )
        )
        number = end + 1
    return blocks


def page_name(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


BLOCKS = [
    block
    for path in PAGES
    for block in page_blocks(page_name(path), path.read_text(encoding="utf-8"))
]


# --- The README and the pages ------------------------------------------------------------------


def test_the_readme_is_the_short_version():
    """It says what rulepress is, installs it, starts a repository and builds it, and points
    at the docs site, in fewer than 300 lines: the reference lives in docs/."""
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < README_LINES, len(lines)
    first_screen = "\n".join(lines[:40])
    for step in ("pip install", "rulepress init", "rulepress build", "(docs/index.md)"):
        assert step in first_screen, step


def test_the_readmes_links_lead_to_files_of_the_repository():
    """Each relative link of the README names a file that exists (a moved page, renamed)."""
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    assert len(links) >= 10
    assert [link for link in links if not (REPO / link).exists()] == []


def test_the_commands_the_readme_gives_are_the_makefiles_and_ci_runs_the_test_one():
    """`make build` and `make test` are Makefile targets, and .ci/run runs `make test`."""
    readme = README.read_text(encoding="utf-8")
    targets = re.findall(r"^(\w+):", (REPO / "Makefile").read_text(encoding="utf-8"), re.M)
    for command in ("make build", "make test"):
        assert re.search(rf"^{command} +# ", readme, re.M), command
        assert command.split()[1] in targets, command
    ci = (REPO / ".ci/run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == "make test"


def test_no_other_page_holds_a_mark_this_test_would_miss():
    """A `<!-- checked -->` or `<!-- not run -->` block in a docs page not listed in PAGES
    would never be checked: list the page."""
    unlisted = [
        page_name(path)
        for path in sorted((REPO / "docs").glob("*.md"))
        if path not in PAGES and any(MARK.match(line) for line in path.read_text().splitlines())
    ]
    assert unlisted == []


# --- Finding every block ----------------------------------------------------------------------


@pytest.mark.parametrize("path", PAGES, ids=page_name)
def test_every_fence_of_a_page_is_a_block_found(path):
    """No block hides from the test (an indented fence, a fence with an unusual word)."""
    fences = [line for line in path.read_text().splitlines() if line.strip().startswith("```")]
    assert len(fences) == 2 * sum(block.page == page_name(path) for block in BLOCKS)


def test_the_blocks_are_all_found():
    assert len(BLOCKS) >= 22


@pytest.mark.parametrize("path", PAGES, ids=page_name)
def test_every_block_runs_or_says_why_not(path):
    """A block that is neither run nor checked carries its reason, so none slips in unrun."""
    blocks = [block for block in BLOCKS if block.page == page_name(path)]
    unmarked = [str(b) for b in blocks if b.mark is None and b.language not in RUNNABLE]
    assert not unmarked, f"mark these <!-- not run: REASON --> or make them run: {unmarked}"
    marks = [line for line in path.read_text().splitlines() if MARK.match(line)]
    assert len(marks) == sum(b.mark is not None for b in blocks), "a mark with no block after it"


def test_every_checked_block_has_its_check_and_every_check_a_block():
    """A check a page names exists, and a check no block names is not left over."""
    named = [b.mark[1] for b in BLOCKS if b.mark and b.mark[0] == "checked"]
    assert sorted(named) == sorted(CHECKS)


def test_the_blocks_not_run_are_these_few():
    """Not running a block is a decision: a new one changes this count on purpose."""
    not_run = [b for b in BLOCKS if b.mark and b.mark[0] == "not run"]
    assert [(b.page, b.section, b.language) for b in not_run] == [
        ("README.md", "Install", "sh"),
        ("README.md", "This repository: two commands", "sh"),
        ("docs/releasing.md", "Installing rulepress for your own compendium", "sh"),
        ("docs/games.md", "A game of one's own: kinds and plugins", "toml"),
        ("docs/games.md", "A game of one's own: kinds and plugins", "python"),
        ("docs/architecture.md", "Layout", ""),
    ]


# --- Python -----------------------------------------------------------------------------------

PYTHON_PAGES = list(dict.fromkeys(b.page for b in BLOCKS if b.language == "python" and not b.mark))


@pytest.mark.parametrize("page", PYTHON_PAGES)
def test_the_python_examples_of_a_page_run_and_show_true_results(page, monkeypatch):
    """The page's Python blocks, run in order in the checkout (they load `compendium`)."""
    monkeypatch.chdir(REPO)
    namespace: dict = {"__name__": "readme"}
    checker = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for block in BLOCKS:
        if block.page != page or block.language != "python" or block.mark:
            continue
        if ">>>" not in block.text:
            exec(compile(block.text, str(block), "exec"), namespace)
            continue
        test = doctest.DocTestParser().get_doctest(
            block.text, namespace, str(block), str(REPO / block.page), block.line
        )
        assert test.examples, f"{block}: no >>> example"
        report: list[str] = []
        result = checker.run(test, out=report.append, clear_globs=False)
        assert result.failed == 0, "".join(report)
        namespace = test.globs  # a doctest runs in a copy; the next block goes on from it


# --- Console ----------------------------------------------------------------------------------

CONSOLE = [b for b in BLOCKS if b.language == "console" and b.mark is None]


def console_steps(block: Block) -> list[tuple[list[str], str]]:
    """Each `$ command` of a console block with the output shown under it."""
    steps: list[tuple[list[str], list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            steps.append((shlex.split(line[2:]), []))
        else:
            assert steps, f"{block}: output before any command"
            steps[-1][1].append(line)
    return [(command, "\n".join(shown).strip()) for command, shown in steps]


@pytest.mark.parametrize("block", CONSOLE, ids=str)
def test_the_console_examples_run_and_print_what_is_shown(block, tmp_path):
    """Each command exits 0 on a copy of the bundled compendium and prints what is shown."""
    shutil.copytree(COMPENDIUM, tmp_path / "compendium")
    checker = doctest.OutputChecker()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    for command, shown in console_steps(block):
        assert command[0] == "rulepress", f"{block}: only rulepress commands are run"
        result = run(*command[1:], cwd=tmp_path)
        assert result.returncode == 0, f"{block}: {' '.join(command)}\n{result.stderr}"
        if shown:
            printed = result.stdout.strip()
            assert checker.check_output(shown, printed, flags), (
                f"{block}: shown\n{shown}\nprinted\n{printed}"
            )


# --- Blocks compared by a check ---------------------------------------------------------------

PISTOL = Path("compendium/iris/weapons/pistols/light-combat-pistol.yaml")
ROW_12 = "- {ap: 12, damage: 13, defense: 17, move: Base, range: 20}"


def check_settings_example(text: str, tmp_path: Path) -> None:
    """The example settings load without a finding, given the files they name."""
    for name in re.findall(r"\b(art/[\w.]+)", text):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(b"/* a file the settings name */")
    (tmp_path / "rulepress.yaml").write_text(text)
    settings, findings = load_settings(tmp_path / "rulepress.yaml", required=True)
    assert findings == []
    assert settings.settings.site.title == "Acme rules reference"


def check_command_synopsis(text: str, tmp_path: Path) -> None:
    """Each command the synopsis lists exists, with every option it shows (for `roll`,
    `odds` and `new`, as an option of one of its subcommands)."""
    context = click.Context(cli)
    synopsis = re.split(r"\n(?=rulepress )", text.strip())
    assert len(synopsis) == len(cli.list_commands(context))
    for entry in synopsis:
        verb = entry.split()[1]
        command = cli.get_command(context, verb)
        assert command is not None, f"no command {verb}"
        commands = [command]
        if isinstance(command, click.Group):
            inner = click.Context(command, parent=context)
            commands += [command.get_command(inner, name) for name in command.list_commands(inner)]
        options = {opt for c in commands for param in c.params for opt in param.opts}
        shown = set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", entry))
        assert shown <= options, f"{verb}: {sorted(shown - options)} not options"


def check_pistol_row(text: str, tmp_path: Path) -> None:
    """The row shown is the Light Combat Pistol's row at 12 AP, as its file has it."""
    assert text.strip() == ROW_12
    assert f"  {ROW_12}\n" in (REPO / PISTOL).read_text()


def check_typo_finding(text: str, tmp_path: Path) -> None:
    """`validate` says the finding shown for the typo, at that place."""
    shutil.copytree(COMPENDIUM, tmp_path / "compendium")
    pistol = tmp_path / PISTOL
    pistol.write_text(pistol.read_text().replace(ROW_12, ROW_12.replace("13", "l4", 1)))
    result = run("validate", cwd=tmp_path)
    assert result.returncode == 1
    assert text.strip() in result.stdout.splitlines()


def check_diff_output(text: str, tmp_path: Path) -> None:
    """`diff HEAD` after the change says what the page shows, and nothing else."""
    shutil.copytree(COMPENDIUM, tmp_path / "compendium")
    git(tmp_path, "init", "--quiet")
    commit_all(tmp_path, "the bundled compendium")
    pistol = tmp_path / PISTOL
    pistol.write_text(pistol.read_text().replace(ROW_12, ROW_12.replace("13", "14", 1)))
    result = run("diff", "HEAD", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == text.strip()


def check_acknowledgement_example(text: str, tmp_path: Path) -> None:
    """The acknowledgement shown is one the bundled compendium makes, word for word."""
    (shown,) = YAML(typ="safe").load(text)["acknowledged"]
    made = [
        dict(entry)
        for path in COMPENDIUM.rglob("*.yaml")
        for entry in (YAML(typ="safe").load(path.read_text()) or {}).get("acknowledged", [])
    ]
    assert shown in made


def check_stage_lines(text: str, tmp_path: Path) -> None:
    """A build says these stage lines on stderr, in this order, each as shown but for
    its figures (a fresh `rulepress init` repository, committed as a publisher's is, built
    whole)."""
    from rulepress.commands.init import init_repository

    init_repository(tmp_path / "repo")
    git(tmp_path / "repo", "init", "-q")
    commit_all(tmp_path / "repo", "rules")
    result = run("build", "--no-cache", cwd=tmp_path / "repo")
    assert result.returncode == 0, result.stderr
    shapes = [re.escape(line).replace(r"\ ", " ") for line in text.strip().splitlines()]
    shapes = [re.sub(r"\d[\d,]*(\\.\d+)?", r"[\\d,]+(\\.\\d+)?", shape) for shape in shapes]
    shapes = [re.sub(r" (bytes|kB|MB) ", " (bytes|kB|MB) ", shape) for shape in shapes]
    shapes = [re.sub(r"(files|pages) ", r"\1? ", shape) for shape in shapes]
    said = result.stderr.strip().splitlines()
    assert len(said) == len(shapes), result.stderr
    for line, shape in zip(said, shapes, strict=True):
        assert re.fullmatch(shape, line), (line, shape)


def check_shell_completion(text: str, tmp_path: Path) -> None:
    """Each shell's line names the script click writes for it, and bash, run for real with
    the bash line, completes `rulepress build --target ma` to `markdown`."""
    lines = dict(re.findall(r"^(.*?)\s+# (bash|zsh|fish):", text, re.M)[i][::-1] for i in range(3))
    assert set(lines) == {"bash", "zsh", "fish"}, lines
    for shell, line in lines.items():
        assert f"_RULEPRESS_COMPLETE={shell}_source rulepress" in line
    bin_dir = tmp_path / "bin"  # `rulepress` on PATH: this checkout's, however it is installed
    bin_dir.mkdir()
    launcher = "from rulepress.launch import main\nmain()\n"  # named rulepress, as installed
    (bin_dir / "rulepress").write_text(f"#!{sys.executable}\n{launcher}")
    (bin_dir / "rulepress").chmod(0o755)
    script = (
        f"{lines['bash']}\nCOMP_WORDS=(rulepress build --target ma); COMP_CWORD=3\n"
        'complete -p rulepress && _rulepress_completion rulepress && printf "%s\\n" "${COMPREPLY[@]}"'
    )
    environment = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    environment.pop("_RULEPRESS_COMPLETE", None)
    done = subprocess.run(
        ["bash", "-c", script], env=environment, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1:] == ["markdown"], done.stdout + done.stderr


def check_first_build(text: str, tmp_path: Path) -> None:
    """The lines, run as a shell would in an empty folder (`cd` included), each exit 0, and
    the build writes every output the README's table of `dist/` lists, for the ruleset and
    module `init` made."""
    folder = tmp_path
    for line in text.strip().splitlines():
        words = shlex.split(line, comments=True)
        if words[0] == "cd":
            folder = folder / words[1]
            continue
        assert words[0] == "rulepress", line
        result = run(*words[1:], cwd=folder)
        assert result.returncode == 0, f"{line}\n{result.stdout}{result.stderr}"
    assert result.stdout.startswith("validated: 0 errors, 0 warnings, 0 info\n"), result.stdout
    table = re.findall(r"^\| `(dist/[^`]+)` \|", README.read_text(encoding="utf-8"), re.M)
    assert len(table) == 5, table
    written = [
        name.replace("<prefix>", "rulepress").replace("<ruleset>", "my-rules") for name in table
    ]
    assert [name for name in written if not (folder / name).exists()] == []


CHECKS: dict[str, Callable[[str, Path], None]] = {
    "first-build": check_first_build,
    "settings-example": check_settings_example,
    "command-synopsis": check_command_synopsis,
    "pistol-row": check_pistol_row,
    "typo-finding": check_typo_finding,
    "diff-output": check_diff_output,
    "acknowledgement-example": check_acknowledgement_example,
    "stage-lines": check_stage_lines,
    "shell-completion": check_shell_completion,
}

CHECKED = [b for b in BLOCKS if b.mark and b.mark[0] == "checked" and b.mark[1] in CHECKS]


@pytest.mark.parametrize("block", CHECKED, ids=lambda block: block.mark[1])
def test_a_checked_block_says_what_rulepress_does(block, tmp_path):
    """The block agrees with what its check finds rulepress doing."""
    CHECKS[block.mark[1]](block.text, tmp_path)
