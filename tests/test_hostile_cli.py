"""Hostile and careless command lines: output folders, git history, `import wiki`, `new`,
`serve`, and arguments a tired user types. Each case runs the real command line (no
traceback, the exit code) and checks what it must not have touched."""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulepress.exporters.output import MARKER_NAME
from tests.helpers import REPO, SKILL, base_tree, build_tree, commit_all, git, run


def run_with(*args: str, cwd: Path, env: dict | None = None, limit_file_size: int = 0):
    """`run`, with a changed environment or a limit on the size of files it may write
    (a real write error: Python ignores SIGXFSZ, so a write past it fails with EFBIG)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    return run(
        *args,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        preexec_fn=limit if limit_file_size else None,
    )


def files_of(folder: Path) -> dict[str, bytes | str]:
    """Every file's bytes, every folder and link below `folder`: what must stay as it was."""
    return {
        p.relative_to(folder).as_posix(): (
            f"-> {os.readlink(p)}" if p.is_symlink() else p.read_bytes() if p.is_file() else "/"
        )
        for p in sorted(folder.rglob("*"))
    }


# --- build: a build replaces only what a build wrote ------------------------------------------


def test_build_into_a_repository_root_keeps_its_own_site_sources(tmp_path):
    repo = tmp_path / "repo"
    build_tree(repo, {"compendium/" + k: v for k, v in base_tree().items()})
    build_tree(repo, {"site/home.md": "# our own page\n", "site/extra.css": "p {}\n"})
    before = files_of(repo)
    result = run("build", "--out", ".", "--target", "site", "--target", "json", cwd=repo)
    assert result.returncode == 2, result.stderr
    assert "refusing to replace site: rulepress did not write it" in result.stderr
    assert "move it away or choose another --out" in result.stderr
    assert files_of(repo) == before  # nothing written, not even the lock or json/


def test_build_keeps_a_users_own_folder_named_like_a_target(tmp_path, demo):
    mine = build_tree(tmp_path / "out/json", {"notes.json": '{"mine": true}\n'})
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "json")
    assert result.returncode == 2
    assert f"refusing to replace {mine}" in result.stderr
    assert files_of(mine) == {"notes.json": b'{"mine": true}\n'}


def test_an_output_of_an_older_build_without_the_mark_is_refused_with_what_to_do(tmp_path, demo):
    old = build_tree(tmp_path / "dist/markdown", {"demo.md": "# Demo\n"})
    result = run("build", str(demo), "--out", str(tmp_path / "dist"), "--target", "markdown")
    assert result.returncode == 2
    assert "an output of an older rulepress has no mark either: delete it once" in result.stderr
    assert files_of(old) == {"demo.md": b"# Demo\n"}


def test_a_build_replaces_its_own_output_whole_and_marks_it(tmp_path, demo):
    out = tmp_path / "dist"
    assert run("build", str(demo), "--out", str(out), "--target", "json").returncode == 0
    assert (out / "json" / MARKER_NAME).read_text() == "rulepress build output: json\n"
    (out / "json/stale.json").write_text("{}")
    assert run("build", str(demo), "--out", str(out), "--target", "json").returncode == 0
    assert sorted(files_of(out / "json")) == [MARKER_NAME, "demo.json"]


def test_a_target_that_is_a_link_to_a_users_folder_is_not_replaced(tmp_path, demo):
    mine = build_tree(tmp_path / "mine", {"keep.txt": "keep\n"})
    (tmp_path / "out").mkdir()
    (tmp_path / "out/json").symlink_to(mine)
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "json")
    assert result.returncode == 2
    assert "error: refusing to " in result.stderr
    assert (tmp_path / "out/json").is_symlink() and files_of(mine) == {"keep.txt": b"keep\n"}


def test_a_link_with_a_forged_mark_inside_the_output_folder_is_not_followed(tmp_path, demo):
    mine = build_tree(tmp_path / "out/mine", {MARKER_NAME: "rulepress build output: json\n"})
    (tmp_path / "out/json").symlink_to("mine")
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "json")
    assert result.returncode == 2
    assert "it is a symbolic link, not an output rulepress wrote" in result.stderr
    assert (tmp_path / "out/json").is_symlink() and sorted(files_of(mine)) == [MARKER_NAME]


def test_an_out_that_links_to_a_users_folder_keeps_its_own_folders(tmp_path, demo):
    mine = build_tree(tmp_path / "mine", {"site/index.md": "# mine\n"})
    (tmp_path / "dist").symlink_to(mine)
    result = run("build", str(demo), "--out", str(tmp_path / "dist"), "--target", "site")
    assert result.returncode == 2 and "rulepress did not write it" in result.stderr
    assert files_of(mine) == {"site": "/", "site/index.md": b"# mine\n"}


def test_a_target_that_is_a_file_is_not_replaced(tmp_path, demo):
    build_tree(tmp_path / "out", {"json": "my notes\n"})
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "json")
    assert result.returncode == 2
    assert "it is not a folder, not an output rulepress wrote" in result.stderr
    assert (tmp_path / "out/json").read_text() == "my notes\n"


def test_a_mark_that_is_a_named_pipe_is_refused_without_blocking(tmp_path, demo):
    (tmp_path / "out/json").mkdir(parents=True)
    os.mkfifo(tmp_path / "out/json" / MARKER_NAME)
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "json")
    assert result.returncode == 2
    assert "rulepress did not write it" in result.stderr


def test_a_mark_naming_another_target_does_not_count(tmp_path, demo):
    site = build_tree(tmp_path / "out/site", {MARKER_NAME: "rulepress build output: json\n"})
    result = run("build", str(demo), "--out", str(tmp_path / "out"), "--target", "site")
    assert result.returncode == 2
    assert "rulepress did not write it" in result.stderr
    assert sorted(files_of(site)) == [MARKER_NAME]


def test_build_into_the_file_system_root_is_refused(demo):
    result = run("build", str(demo), "--out", "/", "--target", "json")
    leftovers = [p for p in (Path("/json"), Path("/.rulepress-build.lock")) if p.exists()]
    assert result.returncode == 2 and "file system's root" in result.stderr
    assert not leftovers


def test_build_into_a_folder_inside_the_compendium_is_refused(tmp_path, demo):
    result = run("build", str(demo), "--out", str(demo / "demo/dist"), "--target", "json")
    assert result.returncode == 2 and "overlaps the compendium" in result.stderr
    assert not (demo / "demo/dist").exists()


@contextlib.contextmanager
def immutable(folder: Path) -> Iterator[None]:
    """`chattr +i`: even root cannot rename the folder. Where the file system or the
    process cannot set the flag, the test skips on a developer machine and fails in CI
    (which runs as root on a file system that has it)."""
    done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
    if done.returncode != 0:
        reason = f"chattr +i is not possible here: {done.stderr.decode().strip()}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_an_output_folder_that_cannot_be_moved_is_named_and_left_as_it_was(tmp_path, demo):
    out = tmp_path / "dist"
    assert run("build", str(demo), "--out", str(out), "--target", "json").returncode == 0
    before = files_of(out / "json")
    with immutable(out / "json"):
        result = run("build", str(demo), "--out", str(out), "--target", "json", "--force")
    assert result.returncode == 2
    assert f"error: cannot write output {out / 'json'}: {out / 'json'}: " in result.stderr
    assert "Operation not permitted; its previous output is left as it was" in result.stderr
    assert files_of(out / "json") == before
    assert sorted(p.name for p in out.iterdir()) == [".rulepress-build.lock", "json"]


def test_a_write_error_while_exporting_names_the_file_and_keeps_the_previous_output(tmp_path):
    out = tmp_path / "dist"
    assert run("build", "--out", str(out), "--target", "json").returncode == 0
    before = files_of(out / "json")
    result = run_with(
        "build", "--out", str(out), "--target", "json", "--no-cache", cwd=REPO,
        limit_file_size=4096,
    )  # fmt: skip
    assert result.returncode == 2
    assert f"error: cannot write output {out / 'json'}: {out}/.json.staging-" in result.stderr
    assert ": File too large; its previous output is left as it was" in result.stderr
    assert files_of(out / "json") == before
    assert sorted(p.name for p in out.iterdir()) == [".rulepress-build.lock", "json"]


# --- git history: links, odd revisions, odd repositories --------------------------------------


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "repo"
    build_tree(root / "compendium", base_tree())
    git(root, "init", "-q")
    commit_all(root, "first")
    return root


REFUSED = (2, "error: the compendium at HEAD has errors; run `rulepress validate`")
LINK_TARGETS = {
    "an absolute path": ("/etc/passwd", *REFUSED),
    "a path up and out": ("../../../../../../../../etc/passwd", *REFUSED),
    "a link to nowhere": ("missing.yaml", *REFUSED),
    # a link to a folder inside is not followed, as in a working tree
    "the parent folder": ("..", 0, "no changes to the rules"),
}


@pytest.mark.parametrize(("target", "exit", "says"), LINK_TARGETS.values(), ids=LINK_TARGETS)
def test_diff_of_a_revision_holding_a_link_judges_it_as_validate_and_leaves_no_copy(
    repo, target, exit, says
):
    (repo / "compendium/demo/skills/evil.yaml").symlink_to(target)
    commit_all(repo, "a link")
    scratch = repo.parent / "tmp"
    scratch.mkdir()
    result = run_with("diff", "HEAD~1", "HEAD", cwd=repo, env={"TMPDIR": str(scratch)})
    assert result.returncode == exit, result.stderr
    assert says in result.stdout + result.stderr
    assert list(scratch.iterdir()) == []
    assert run("validate", "compendium", cwd=repo).returncode == (1 if exit else 0)


def test_the_site_history_skips_a_revision_holding_a_link_out_and_leaves_no_copy(repo):
    (repo / "compendium/demo/skills/evil.yaml").symlink_to("/etc/passwd")
    commit_all(repo, "a link out")
    (repo / "compendium/demo/skills/evil.yaml").unlink()
    commit_all(repo, "the link removed")
    scratch = repo.parent / "tmp"
    scratch.mkdir()
    out = repo.parent / "out"
    args = ("build", "compendium", "--out", str(out), "--target", "site", "--no-cache")
    result = run_with(*args, cwd=repo, env={"TMPDIR": str(scratch)})
    assert result.returncode == 0, result.stderr
    assert (out / "site/index.html").is_file()
    assert [p.name for p in scratch.iterdir()] == []


def test_diff_reads_the_commit_not_what_export_attributes_make_of_it(repo):
    pistol = repo / "compendium/demo/weapons/test-pistol.yaml"
    pistol.write_text(pistol.read_text().replace("{ap: 12, damage: 12,", "{ap: 12, damage: 99,"))
    (repo / ".gitattributes").write_text("compendium/demo/weapons/* export-ignore\n")
    commit_all(repo, "hide a change from git archive")
    result = run("diff", "HEAD~1", "HEAD", cwd=repo)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["demo: Test Pistol: damage at AP 12 from 12 to 99"]


@pytest.mark.parametrize("revision", ["--output=x", "-p", "--exec=touch x"])
def test_a_revision_that_looks_like_an_option_is_refused(repo, revision):
    result = run("diff", "--", revision, "HEAD", cwd=repo)
    assert result.returncode == 2
    assert f"error: {revision!r} is neither a compendium folder nor a git revision" in (
        result.stderr
    )
    assert not (repo / "x").exists()


def test_a_revision_that_does_not_exist_is_named(repo):
    result = run("diff", "no-such-branch", cwd=repo)
    assert result.returncode == 2
    assert "'no-such-branch' is neither a compendium folder nor a git revision" in result.stderr


def test_diff_in_a_repository_without_commits_says_so(tmp_path):
    build_tree(tmp_path / "compendium", base_tree())
    git(tmp_path, "init", "-q")
    result = run("diff", "HEAD", cwd=tmp_path)
    assert result.returncode == 2
    assert "'HEAD' is neither a compendium folder nor a git revision" in result.stderr
    assert "the repository has no commits yet" in result.stderr


def test_diff_past_the_start_of_a_shallow_clone_says_to_fetch_more(repo, tmp_path):
    commit_again = repo / "compendium/demo/skills/bio-lore.yaml"
    commit_again.write_text(commit_again.read_text().replace("Bio Lore", "Bio Lore II"))
    commit_all(repo, "second")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    result = run("diff", "HEAD~1", cwd=clone)
    assert result.returncode == 2
    assert "a shallow clone" in result.stderr and "git fetch --unshallow" in result.stderr


def test_diff_without_git_installed_is_a_usage_problem(repo, tmp_path):
    bare_path = tmp_path / "bin"
    bare_path.mkdir()
    result = run_with("diff", "HEAD", cwd=repo, env={"PATH": str(bare_path)})
    assert result.returncode == 2
    assert "git" in result.stderr and "internal error" not in result.stderr


# --- import wiki: all or nothing, errors at page:line:col, numbers in ASCII --------------------

ROWS = "".join(f"{ap}\t{ap}\t{ap}\tBase\t10\n" for ap in range(1, 31))


def profile(name: str, tier: str = "1", magazine: str = "3", rows: str = ROWS) -> str:
    return (
        f"Weapon Profile - {name} (Tier {tier})\n{name}\n"
        f"Magazine: {magazine}\tReload: 3\tWeight: 2\tCost: 1Bar\tRarity: Common\n"
        f"AP\tDamage\tDefense\tMove\tRange\n{rows}\n"
    )


@pytest.fixture
def wiki(tmp_path) -> Path:
    tree = base_tree()
    tree["demo/weapon-sections/pistols.yaml"] = tree.pop("demo/sections/pistols.yaml")
    return build_tree(tmp_path / "c", tree)


def import_page(tmp_path: Path, text: str, ruleset: Path):
    page = tmp_path / "page.txt"
    page.write_text(text, encoding="utf-8")
    before = files_of(ruleset)
    result = run("import", "wiki", "page.txt", "--ruleset", str(ruleset / "demo"), cwd=tmp_path)
    return result, before


def test_an_import_that_fails_on_its_second_profile_writes_nothing(tmp_path, wiki):
    text = "Pistols\n\n" + profile("Wiki Pistol") + profile("Bad Pistol", magazine="many")
    result, before = import_page(tmp_path, text, wiki)
    assert result.returncode == 2
    assert "error: page.txt:40:1: Magazine 'many' is not a whole number" in result.stderr
    assert files_of(wiki) == before


def test_an_import_whose_second_profile_the_model_refuses_writes_nothing(tmp_path, wiki):
    text = "Pistols\n\n" + profile("Wiki Pistol") + profile("Big Pistol", magazine="9999999")
    result, before = import_page(tmp_path, text, wiki)
    assert result.returncode == 2
    assert "error: page.txt:38:1: Big Pistol: magazine: " in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert files_of(wiki) == before


@pytest.mark.parametrize(
    ("tier", "says"),
    [
        ("²", "tier '²' is not a whole number"),
        ("１", "tier '１' is not a whole number"),
        ("٣", "tier '٣' is not a whole number"),
        ("9" * 5000, "tier '99999999999999999999...' is not a whole number"),
    ],
    ids=["superscript", "fullwidth", "arabic-indic", "5000 digits"],
)
def test_a_tier_in_odd_digits_is_an_error_at_its_line(tmp_path, wiki, tier, says):
    result, before = import_page(tmp_path, "Pistols\n\n" + profile("Odd", tier=tier), wiki)
    assert result.returncode == 2
    assert f"error: page.txt:3:1: {says}" in result.stderr
    assert files_of(wiki) == before


@pytest.mark.parametrize("cell", ["²", "７", "1" * 5000])
def test_a_table_cell_in_odd_digits_is_an_error_at_its_line(tmp_path, wiki, cell):
    rows = ROWS.replace("12\t12\t12", f"12\t{cell}\t12")
    result, before = import_page(tmp_path, "Pistols\n\n" + profile("Odd", rows=rows), wiki)
    assert result.returncode == 2
    assert "error: page.txt:18:1: table cells must be whole numbers" in result.stderr
    assert files_of(wiki) == before


def test_a_stat_in_superscript_digits_is_an_error_at_its_line(tmp_path, wiki):
    result, before = import_page(tmp_path, "Pistols\n\n" + profile("Odd", magazine="³"), wiki)
    assert result.returncode == 2
    assert "error: page.txt:5:1: Magazine '³' is not a whole number" in result.stderr
    assert files_of(wiki) == before


def test_a_profile_header_padded_with_a_megabyte_of_spaces_is_read_in_one_pass(tmp_path, wiki):
    """A lazy regular expression took time growing with the square of the spaces (0.6 s
    for 8,000; hours for a megabyte): the header is split by hand now."""
    header = "Weapon Profile - " + " " * 1_000_000 + "Wide (Tier 1)"
    page = "Pistols\n\n" + profile("Wide").replace("Weapon Profile - Wide (Tier 1)", header)
    result, _ = import_page(tmp_path, page, wiki)
    assert result.returncode == 0, result.stderr
    assert (wiki / "demo/weapons/pistols/wide.yaml").is_file()


def test_a_wiki_page_that_is_a_named_pipe_is_refused_without_blocking(tmp_path, wiki):
    os.mkfifo(tmp_path / "pipe.txt")
    result = run("import", "wiki", "pipe.txt", "--ruleset", str(wiki / "demo"), cwd=tmp_path)
    assert result.returncode == 2
    assert "error: cannot read wiki page pipe.txt: not a regular file" in result.stderr


# --- new: validated like the compendium's files, nothing written on refusal ---------------------


@dataclass
class NewCase:
    name: str
    args: tuple[str, ...]
    says: str


NEW_CASES = [
    NewCase("a name too long", ("skill", "x" * 300, "--traits", "acuity,resolve"), "too long"),
    NewCase(
        "a trait given twice",
        ("skill", "Chem Lore", "--traits", "acuity,acuity"),
        "trait 'acuity' is given twice; a skill has two different traits",
    ),
    NewCase(
        "traits that do not exist",
        ("skill", "Chem Lore", "--traits", "nope,nada"),
        "RP203: trait 'nope' does not exist (and 1 more); nothing was written",
    ),
    NewCase(
        "one trait",
        ("skill", "Chem Lore", "--traits", "acuity"),
        "RP104: traits: list should have at least 2 items after validation, not 1",
    ),
    NewCase(
        "three traits",
        ("skill", "Chem Lore", "--traits", "acuity,resolve,vigor"),
        "RP104: traits: list should have at most 2 items after validation, not 3",
    ),
    NewCase(
        "a name that slugs to nothing",
        ("skill", "!!!", "--traits", "acuity,resolve"),
        "cannot make an id from '!!!'",
    ),
    NewCase(
        "a name that is a path",
        ("skill", "../../evil", "--traits", "acuity,resolve"),
        "the name '../../evil' looks like a path",
    ),
    NewCase(
        "an empty name", ("skill", "", "--traits", "acuity,resolve"), "cannot make an id from ''"
    ),
    NewCase(
        "a name with a control character",
        ("skill", "Bad\x1b[2JName", "--traits", "acuity,resolve"),
        "RP105: name: character U+001B (a control character) is not allowed in text",
    ),
    NewCase(
        "an id already taken",
        ("skill", "Bio Lore", "--traits", "acuity,resolve"),
        "id 'bio-lore' is already used",
    ),
    NewCase(
        "a weapon in no section",
        ("weapon", "Gun", "--section", "nowhere"),
        "no weapon section 'nowhere'",
    ),
    NewCase(
        "a ruleset that does not exist",
        ("tc-source", "Loud", "--tc", "1", "--ruleset", "nope"),
        "no ruleset 'nope'",
    ),
]


@pytest.mark.parametrize("case", NEW_CASES, ids=lambda case: case.name)
def test_new_refuses_with_one_line_and_writes_nothing(demo, case):
    args = list(case.args)
    if args[0] == "skill":
        args += ["--category", "academic"]
    if "--ruleset" not in args:
        args += ["--ruleset", "demo"]
    before = files_of(demo)
    result = run("new", *args, "--compendium", str(demo))
    assert result.returncode == 2, result.stdout + result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and case.says in line, line
    assert files_of(demo) == before


def test_new_does_not_write_through_a_link_where_its_file_would_go(demo, tmp_path):
    outside = tmp_path / "outside.yaml"
    (demo / "demo/skills/chem-lore.yaml").symlink_to(outside)
    result = run(
        "new", "skill", "Chem Lore", "--category", "academic", "--traits", "acuity,resolve",
        "--ruleset", "demo", "--compendium", str(demo),
    )  # fmt: skip
    assert result.returncode == 2
    assert "error: refusing to write outside" in result.stderr
    assert not outside.exists()


OTHER_SKILL = SKILL.replace("bio-lore", "other-lore").replace("Bio Lore", "Other Lore")


def test_new_writes_an_existing_file_never(demo):
    (demo / "demo/skills/chem-lore.yaml").write_text(OTHER_SKILL)  # not the id chem-lore
    result = run(
        "new", "skill", "Chem Lore", "--category", "academic", "--traits", "acuity,resolve",
        "--ruleset", "demo", "--compendium", str(demo),
    )  # fmt: skip
    assert result.returncode == 2
    assert "chem-lore.yaml already exists" in result.stderr
    assert (demo / "demo/skills/chem-lore.yaml").read_text() == OTHER_SKILL


# --- serve: a clear line for an address it cannot serve on --------------------------------------


@pytest.mark.parametrize(
    ("address", "says"),
    [
        ("127.0.0.1:99999", "'127.0.0.1:99999' is not HOST:PORT with a port from 1 to 65535"),
        ("nonsense", "'nonsense' is not HOST:PORT with a port from 1 to 65535"),
        ("", "'' is not HOST:PORT with a port from 1 to 65535"),
        ("127.0.0.1:８０００", "is not HOST:PORT with a port from 1 to 65535"),
        ("no-such-host.invalid:8000", "cannot serve on no-such-host.invalid:8000: "),
    ],
)
def test_serve_on_an_impossible_address_says_so_in_one_line(demo, address, says):
    result = run("serve", str(demo), "-a", address)
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and says in line


def test_serve_on_a_busy_port_says_so_in_one_line(demo):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        address = f"127.0.0.1:{busy.getsockname()[1]}"
        result = run("serve", str(demo), "-a", address)
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: cannot serve on {address}: Address already in use"


# --- careless arguments to every command ---------------------------------------------------------


@dataclass
class Careless:
    name: str
    args: tuple[str, ...]
    """Run in a folder holding `c/` (a valid compendium) and `afile` (a plain file)."""
    says: str


CARELESS = [
    Careless(
        "validate an empty path",
        ("validate", ""),
        "Invalid value for '[COMPENDIUM]': an empty path",
    ),
    Careless(
        "build an empty compendium path",
        ("build", "", "--out", "d"),
        "Invalid value for '[COMPENDIUM]': an empty path",
    ),
    Careless("fmt an empty path", ("fmt", ""), "Invalid value for '[PATH]': an empty path"),
    Careless(
        "schema into a folder under a file",
        ("schema", "--out", "afile/x"),
        "cannot write schemas to afile/x",
    ),
    Careless("schema into a file", ("schema", "--out", "afile"), "'afile' is a file"),
    Careless(
        "import wiki of a file that is no wiki page",
        ("import", "wiki", "afile", "--ruleset", "c/demo"),
        "afile: no 'Weapon Profile - NAME (Tier N)' headers found",
    ),
    Careless(
        "diff against an empty name",
        ("diff", "", "c"),
        "an empty name is neither a compendium folder nor a git revision",
    ),
    Careless(
        "new into an empty compendium path",
        ("new", "tc-source", "X", "--tc", "1", "--compendium", ""),
        "Invalid value for '--compendium': an empty path",
    ),
    Careless(
        "roll with an empty compendium path",
        ("roll", "cool", "fear", "--cool", "50", "--roll", "10", "--compendium", ""),
        "Invalid value for '--compendium': an empty path",
    ),
    Careless(
        "serve an empty compendium path",
        ("serve", ""),
        "Invalid value for '[COMPENDIUM]': an empty path",
    ),
    Careless(
        "diff a folder that is not a compendium",
        ("diff", "afile", "c"),
        "neither a compendium folder nor a git revision",
    ),
]


@pytest.mark.parametrize("case", CARELESS, ids=lambda case: case.name)
def test_careless_arguments_get_a_usage_error(tmp_path, case):
    build_tree(tmp_path / "c", base_tree())
    (tmp_path / "afile").write_text("not a folder\n")
    before = files_of(tmp_path)
    result = run(*case.args, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert case.says in result.stderr
    assert files_of(tmp_path) == before


def test_an_empty_out_is_refused_not_taken_as_the_working_folder(tmp_path, demo):
    result = run("build", str(demo), "--out", "", "--target", "json", cwd=tmp_path)
    assert result.returncode == 2 and "Invalid value for '--out': an empty path" in result.stderr
    assert not (tmp_path / "json").exists()


def test_a_hand_written_skill_with_one_trait_twice_is_refused_at_its_place(tmp_path):
    """`new` refuses `--traits acuity,acuity` through the model, so a hand-written file
    gets the same finding, at the list."""
    tree = base_tree()
    tree["demo/skills/bio-lore.yaml"] = tree["demo/skills/bio-lore.yaml"].replace(
        "traits: [acuity, resolve]", "traits: [acuity, acuity]"
    )
    result = run("validate", str(build_tree(tmp_path / "c", tree)))
    assert result.returncode == 1
    assert (
        "demo/skills/bio-lore.yaml:6:9: error RP105: traits: trait 'acuity' is given twice"
        in result.stdout
    )
