"""`rulepress init`: the content repository it writes validates strictly, formats, builds
every target, has (with `--samples all`) a sample of every built-in kind, and its
workflows and hooks run real rulepress commands; a folder that is not empty is refused
with nothing written. The bare repository's own cases are in tests/test_start.py."""

from __future__ import annotations

import shlex
from pathlib import Path

import click
import pytest
import yaml
from helpers import run

from rulepress import __version__, kinds
from rulepress.cli import cli
from rulepress.commands import init as init_module
from rulepress.errors import RulepressError
from rulepress.models.settings import Settings


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    """A repository written by `rulepress init` with a title, a GitHub repository and the
    bundled games' samples."""
    root = tmp_path_factory.mktemp("init")
    result = run(
        "init",
        "my-rules",
        "--title",
        "Iron Oath",
        "--github",
        "Me/iron-oath",
        "--samples",
        "all",
        cwd=root,
    )
    assert result.returncode == 0, result.stderr
    return root / "my-rules"


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_init_writes_the_repository_and_says_what_next(tmp_path):
    result = run("init", "new-rules", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = _tree(tmp_path / "new-rules")
    for name in (
        "rulepress.yaml",
        "README.md",
        "requirements.txt",
        ".gitignore",
        ".pre-commit-config.yaml",
        ".github/workflows/validate.yml",
        ".github/workflows/publish.yml",
        ".github/workflows/release.yml",
        ".github/dependabot.yml",
        "compendium/new-rules/ruleset.yaml",
    ):
        assert name in written, name
        assert f"wrote {Path('new-rules', name)}" in result.stdout
    assert "cd new-rules && rulepress validate && rulepress build" in result.stdout
    assert written["requirements.txt"].decode().splitlines()[-1] == f"rulepress=={__version__}"
    assert b"dist/" in written[".gitignore"] and b".rulepress-cache/" in written[".gitignore"]
    # the title comes from the folder's name; no address is set without --github
    settings = yaml.safe_load(written["rulepress.yaml"])
    assert settings == {"site": {"title": "New Rules"}}
    ruleset = yaml.safe_load(written["compendium/new-rules/ruleset.yaml"])
    assert (ruleset["id"], ruleset["title"]) == ("new-rules", "New Rules")
    # nothing left beside it
    assert sorted(path.name for path in tmp_path.iterdir()) == ["new-rules"]


def test_the_same_options_write_the_same_bytes(tmp_path):
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        assert run("init", "rules", "--title", "Same", cwd=tmp_path / name).returncode == 0
    assert _tree(tmp_path / "one" / "rules") == _tree(tmp_path / "two" / "rules")


def test_the_settings_carry_the_title_and_the_github_addresses(content):
    settings = Settings.model_validate(yaml.safe_load((content / "rulepress.yaml").read_text()))
    assert settings.site.title == "Iron Oath"
    assert settings.site.url == "https://me.github.io/iron-oath/"
    assert settings.site.repository == "https://github.com/Me/iron-oath"
    assert settings.foundry.url == "https://github.com/Me/iron-oath"
    releases = "https://github.com/Me/iron-oath/releases/"
    assert settings.foundry.manifest == releases + "latest/download/{module}.json"
    assert settings.foundry.download == releases + "download/v{version}/{module}.zip"
    ruleset = yaml.safe_load((content / "compendium/my-rules/ruleset.yaml").read_text())
    assert (ruleset["title"], ruleset["game"]) == ("Iron Oath", "Iron Oath")
    assert ruleset["sources"][0]["author"] == "The authors of Iron Oath"


def test_it_validates_strictly_with_no_finding_and_is_canonical(content):
    validated = run("validate", "--strict", cwd=content)
    assert validated.returncode == 0, validated.stdout
    # the Cool samples keep the source's rounds against turns, acknowledged (RP228)
    assert validated.stdout.strip() == "0 errors, 0 warnings, 0 info, 2 acknowledged"
    formatted = run("fmt", "--check", cwd=content)
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr


def test_it_builds_every_target(content):
    built = run("build", "--no-cache", cwd=content, seconds=300)
    assert built.returncode == 0, built.stdout + built.stderr
    dist = content / "dist"
    assert (dist / "site" / "my-rules" / "index.html").is_file()
    assert (dist / "markdown" / "my-rules.md").stat().st_size > 0
    assert (dist / "json" / "my-rules.json").stat().st_size > 0
    assert (dist / "foundry" / "me-my-rules" / "module.json").is_file()
    assert (dist / "foundry" / "me-my-rules.zip").is_file()


def test_every_built_in_kind_has_a_sample_and_one_has_a_ruling(content):
    documents = [
        yaml.safe_load(path.read_text()) for path in (content / "compendium").rglob("*.yaml")
    ]
    sampled = {document["kind"] for document in documents}
    built_in = {name for name, kind in kinds.registry().items() if kind.package == "rulepress"}
    # a translation translates the repository's own documents: `rulepress translate` writes it
    assert built_in - sampled == {"translation"}
    assert any(document.get("rulings") for document in documents)


def test_the_ruleset_option_names_the_folder_and_the_id(tmp_path):
    assert run("init", "content", "--ruleset", "iron-oath", cwd=tmp_path).returncode == 0
    ruleset = tmp_path / "content" / "compendium" / "iron-oath" / "ruleset.yaml"
    assert yaml.safe_load(ruleset.read_text())["id"] == "iron-oath"
    assert not (tmp_path / "content" / "compendium" / "content").exists()
    assert run("validate", "--strict", cwd=tmp_path / "content").returncode == 0


def _rulepress_lines(text: str) -> list[list[str]]:
    """Each `rulepress ...` command of a shell script, as its words."""
    commands = []
    for line in text.replace("\\\n", " ").splitlines():
        line = line.strip()
        if line.startswith("rulepress "):
            words = shlex.split(line.split(" > ")[0].split(" || ")[0].split(" && ")[0])
            commands.append(words[1:])
    return commands


def _assert_real_command(words: list[str]) -> None:
    """`words` parse as a rulepress command with its options, as click would run them."""
    command = cli.get_command(click.Context(cli), words[0])
    assert command is not None, words
    command.make_context(words[0], list(words[1:]))  # raises on an unknown option


def test_the_workflows_parse_and_run_real_rulepress_commands(content):
    workflows = sorted((content / ".github" / "workflows").glob("*.yml"))
    assert [path.name for path in workflows] == ["publish.yml", "release.yml", "validate.yml"]
    commands = []
    for path in workflows:
        workflow = yaml.safe_load(path.read_text())
        # nothing by default, each job its own (tests/test_hostile_workflows.py: which)
        assert workflow["jobs"] and workflow["permissions"] == {}, path
        for job in workflow["jobs"].values():
            assert "permissions" in job, path
            for step in job["steps"]:
                commands += _rulepress_lines(step.get("run", ""))
    for words in commands:
        _assert_real_command(words)
    assert [
        "validate",
        "--strict",
        "--format",
        "github",
        "--changed-since",
        "origin/$BASE",
    ] in commands
    assert ["diff", "origin/$BASE", "HEAD", "--format", "markdown"] in commands
    assert ["build", "--target", "site"] in commands
    release = ["build", "--target", "foundry", "--target", "markdown", "--target", "json"]
    assert release in commands  # what the release attaches
    hooks = yaml.safe_load((content / ".pre-commit-config.yaml").read_text())
    entries = [hook["entry"] for repo in hooks["repos"] for hook in repo["hooks"]]
    assert entries == ["rulepress fmt --check", "rulepress validate"]
    for entry in entries:
        _assert_real_command(entry.split()[1:])


def test_a_folder_that_is_not_empty_is_refused_with_nothing_written(tmp_path):
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n")
    result = run("init", "rules", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "error: rules is not empty; nothing was written\n"
    assert _tree(folder) == {"notes.txt": b"mine\n"}
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rules"]


def test_an_empty_folder_is_filled_and_a_link_is_refused(tmp_path):
    (tmp_path / "empty").mkdir()
    assert run("init", "empty", cwd=tmp_path).returncode == 0
    assert (tmp_path / "empty" / "rulepress.yaml").is_file()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
    result = run("init", "link", cwd=tmp_path)
    assert result.returncode == 2 and "symbolic link" in result.stderr
    assert list((tmp_path / "elsewhere").iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ruleset", "Not A Slug"], "the ruleset id 'Not A Slug' cannot be used"),
        (["--title", "two\nlines"], "the title 'two\\nlines' cannot be used"),
        (["--github", "not a repository"], "give the repository as OWNER/NAME"),
    ],
)
def test_bad_options_are_refused_with_nothing_written(tmp_path, args, message):
    result = run("init", "rules", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_nothing_behind(tmp_path, monkeypatch):
    opened = []

    def failing_open(path, *args, **kwargs):
        opened.append(path)
        if len(opened) == 5:
            raise OSError(28, "No space left on device")
        return open(path, *args, **kwargs)

    monkeypatch.setattr(init_module, "open", failing_open, raising=False)
    with pytest.raises(RulepressError, match="No space left on device; nothing was written"):
        init_module.init_repository(tmp_path / "rules")
    assert list(tmp_path.iterdir()) == []
