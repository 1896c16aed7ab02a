"""Hostile files: what a pull request can commit besides YAML, run on by CI.

Everything in a content repository is untrusted: its caches, its special files (named
pipes, sockets, links to devices, huge sparse files), its links and its file names. Each
case asserts the exact clear outcome: a finding at `path:line:col`, an exit code,
nothing unpickled, nothing written outside, and no hang (commands run with a time limit
and an address-space limit, so a regression fails the test instead of the machine).

- `CASES`: trees validated in process and by the command line (the hostile corpus's
  runner, shared through tests/helpers.py).
- Caches and the build stamp: crafted, forged, linked or special.
- Special files the build stamp digests, `fmt` and links, stamps of unexpected shapes.
"""

from __future__ import annotations

import json
import os
import pickle
import resource
import socket
import stat
from pathlib import Path

import pytest

from rulepress import build_stamp, caching
from rulepress.compendium.cache import FORMAT as DOCUMENTS_FORMAT
from rulepress.compendium.cache import DocumentCache, cache_header
from rulepress.compendium.loader import load_compendium
from rulepress.files import RefusedFile, Replacement, read_regular
from tests.helpers import (
    MESSY_SKILL,
    SKILL,
    Hostile,
    assert_command_line_outcome,
    assert_finding_at_its_place,
    base_tree,
    build_tree,
    params,
    run,
    symlink,
)

HUGE = 64 * 2**30
"""A sparse file this large costs no disk, but reading it would exhaust any memory."""
MEMORY_LIMIT = 2**30
"""Address space for each command run: a regression that reads a huge file fails fast."""
DEEP = " " * 300 + "# indented deeper than the C parser is trusted with\n"
"""A first line that sends a file down the pure-Python parser path."""


def mkfifo(relative: str):
    def setup(root: Path) -> None:
        path = root / relative
        if path.exists():
            path.unlink()
        os.mkfifo(path)

    return setup


def unix_socket(relative: str):
    def setup(root: Path) -> None:
        path = root / relative
        path.unlink(missing_ok=True)
        here = os.getcwd()
        os.chdir(path.parent)  # a socket's path is limited to ~100 bytes: bind it relatively
        try:
            socket.socket(socket.AF_UNIX).bind(path.name)
        finally:
            os.chdir(here)

    return setup


def sparse(relative: str, size: int = HUGE):
    def setup(root: Path) -> None:
        with open(root / relative, "wb") as file:
            file.truncate(size)

    return setup


def replaced_by_link(relative: str, target):
    def setup(root: Path) -> None:
        (root / relative).unlink()
        symlink(relative, target)(root)

    return setup


NOT_UTF8 = os.fsdecode(b"bad\xff")
"""A name holding a byte that is not UTF-8 (as Python sees it: a surrogate escape)."""


CASES = [
    # --- special files where a document is read -------------------------------------
    Hostile(
        "ruleset.yaml is a named pipe",
        {},
        "RP001",
        "demo/ruleset.yaml",
        1,
        1,
        setup=mkfifo("demo/ruleset.yaml"),
        cli=True,
        seconds=5.0,
    ),
    Hostile(
        "ruleset.yaml is a socket",
        {},
        "RP001",
        "demo/ruleset.yaml",
        1,
        1,
        setup=unix_socket("demo/ruleset.yaml"),
        seconds=5.0,
    ),
    Hostile(
        "ruleset.yaml links to /dev/zero",
        {},
        "RP008",
        "demo/ruleset.yaml",
        1,
        1,
        setup=replaced_by_link("demo/ruleset.yaml", "/dev/zero"),
        cli=True,
        seconds=5.0,
    ),
    Hostile(
        "a 64 GB sparse document",
        {},
        "RP001",
        "demo/skills/huge.yaml",
        1,
        1,
        setup=sparse("demo/skills/huge.yaml"),
        cli=True,
        seconds=5.0,
    ),
    Hostile(
        "a 64 GB sparse ruleset.yaml",
        {},
        "RP001",
        "demo/ruleset.yaml",
        1,
        1,
        setup=sparse("demo/ruleset.yaml"),
        seconds=5.0,
    ),
    # --- names that are not text ------------------------------------------------------
    Hostile(
        "a document whose file name is not UTF-8",
        {f"demo/skills/{NOT_UTF8}.yaml": SKILL.replace("bio-lore", "other-lore")},
        "RP002",
        f"demo/skills/{NOT_UTF8}.yaml",
        1,
        1,
    ),
    Hostile(
        "a folder whose name is not UTF-8",
        {f"demo/{NOT_UTF8}/other.yaml": SKILL.replace("bio-lore", "other-lore")},
        "RP002",
        f"demo/{NOT_UTF8}",
        1,
        1,
    ),
    # --- surrogate escapes on the pure-Python parser path -----------------------------
    Hostile(
        "a surrogate escape as a mapping key (pure-Python parser)",
        {"demo/skills/bio-lore.yaml": DEEP + SKILL + '"\\udc80": 1\n'},
        "RP003",
        "demo/skills/bio-lore.yaml",
        8,
        2,
        cli=True,
    ),
    Hostile(
        "a surrogate escape in a value (pure-Python parser)",
        {"demo/skills/bio-lore.yaml": DEEP + SKILL.replace("Bio Lore", '"Bio \\udc80 Lore"')},
        "RP003",
        "demo/skills/bio-lore.yaml",
        4,
        12,
        cli=True,
    ),
    Hostile(
        "an escaped surrogate pair in a value (pure-Python parser)",
        {"demo/skills/bio-lore.yaml": DEEP + SKILL.replace("Bio Lore", '"\\ud83d\\ude00"')},
        "RP003",
        "demo/skills/bio-lore.yaml",
        4,
        8,
    ),
    Hostile(
        "a surrogate escape in a key below a long line (pure-Python parser)",
        {"demo/skills/bio-lore.yaml": DEEP + SKILL + 'table:\n  - {ap: 1, "x\\uDFFF": 2}\n'},
        "RP003",
        "demo/skills/bio-lore.yaml",
        9,
        15,
    ),
]


@pytest.mark.parametrize("case", params(CASES))
def test_hostile_file_gives_its_finding_at_its_place(tmp_path, case: Hostile):
    assert_finding_at_its_place(tmp_path, case)


@pytest.mark.parametrize("case", params([c for c in CASES if c.cli]))
def test_the_command_line_gives_the_same_outcome_for_a_hostile_file(tmp_path, case: Hostile):
    assert_command_line_outcome(tmp_path, case)


def test_a_ruleset_file_linking_out_is_refused_unread(tmp_path):
    """Only the link is reported: what it points at is never read (nor quoted)."""
    root = build_tree(tmp_path / "c", base_tree())
    outside = build_tree(tmp_path / "secret", {"ruleset.yaml": "password: [hunter2\n"})
    replaced_by_link("demo/ruleset.yaml", outside / "ruleset.yaml")(root)
    findings = load_compendium(root).findings
    assert [(f.code, f.file, f.line) for f in findings] == [
        ("RP008", root / "demo/ruleset.yaml", 1)
    ]


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_file_name_that_is_not_utf8_is_printed_safely(tmp_path, fmt):
    """Its bad byte shown as \\xff: the output stays UTF-8 (and JSON stays JSON)."""
    tree = {**base_tree(), f"demo/skills/{NOT_UTF8}.yaml": SKILL.replace("bio-lore", "x")}
    build_tree(tmp_path / "c", tree)
    result = run("validate", "c", "--format", fmt, cwd=tmp_path)  # decodes strictly
    assert result.returncode == 1
    if fmt == "json":
        (finding,) = json.loads(result.stdout)["findings"]
        assert (finding["file"], finding["code"]) == ("c/demo/skills/bad\\xff.yaml", "RP002")
        return
    assert "c/demo/skills/bad\\xff.yaml" in result.stdout
    if fmt == "text":
        assert (
            "c/demo/skills/bad\\xff.yaml:1:1: error RP002: file name is not UTF-8: byte 0xff "
            "cannot be decoded; rename it" in result.stdout
        )


def test_a_refused_file_says_what_it_is(tmp_path):
    root = build_tree(tmp_path / "c", base_tree())
    os.mkfifo(root / "demo/skills/pipe.yaml")
    sparse("demo/skills/huge.yaml")(root)
    messages = {f.file.name: f.message for f in load_compendium(root).findings}
    assert messages["pipe.yaml"] == "cannot read file: not a regular file (a named pipe); refused"
    assert messages["huge.yaml"].startswith("cannot read file: larger than ")
    assert messages["huge.yaml"].endswith(" MiB; refused")


def test_a_file_holding_more_than_its_size_is_read_to_its_end_or_refused():
    """A regular file may hold more than its size says (a file of /proc says 0 bytes; one
    another process appends to is longer by the time it is read): it is read to its end,
    and refused once past the limit, never cut at the size first seen."""
    assert os.stat("/proc/self/status").st_size == 0
    status = read_regular("/proc/self/status")
    assert status.startswith(b"Name:") and b"\nVmRSS:" in status
    with pytest.raises(RefusedFile, match="larger than"):
        read_regular("/proc/self/status", limit=64)


# --- The command line, as CI runs it in a content repository -----------------------------


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def rulepress(repo: Path, *args: str, seconds: float = 60, **env: str):
    """`python -m rulepress ARGS` in `repo` with its caches where a user's would be (the
    repository's .rulepress-cache/, the key in XDG_CACHE_HOME), under time and memory
    limits, and no traceback."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("RULEPRESS_")}
    environment["XDG_CACHE_HOME"] = str(repo.parent / "user-cache")
    environment.update(env)
    return run(*args, cwd=repo, env=environment, seconds=seconds, preexec_fn=_limited)


@pytest.fixture
def repo(tmp_path) -> Path:
    """A content repository: its compendium, as a pull request's checkout holds it."""
    build_tree(tmp_path / "repo" / "compendium", base_tree())
    return tmp_path / "repo"


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder outside the repository, holding a file nobody may touch."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "precious.txt").write_text("precious\n", encoding="utf-8")
    return folder


def listing(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"<folder>"
        for p in sorted(folder.rglob("*"))
    }


class Payload:
    """Unpickling it creates the file `path`: proof that a file was unpickled."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def crafted_pickle(header: bytes, marker: Path) -> bytes:
    """What an attacker commits: the header that code would write (it depends only on
    public facts), then a pickle that runs code when loaded."""
    return header + b"\n" + pickle.dumps({"0" * 32: Payload(marker)})


def documents_cache_name(compendium: Path, new: bool = False) -> str:
    name = f"documents-{caching.digest(str(compendium.resolve()).encode())}"
    return f"{name}.new.pickle" if new else f"{name}.pickle"


@pytest.mark.parametrize("where", ["main file", "file of new documents", "link to a file"])
def test_a_crafted_document_cache_is_never_unpickled(repo, tmp_path, where):
    marker = tmp_path / "code-ran"
    crafted = crafted_pickle(cache_header(DOCUMENTS_FORMAT), marker)
    cache = repo / ".rulepress-cache"
    cache.mkdir()
    name = documents_cache_name(repo / "compendium", new=where == "file of new documents")
    if where == "link to a file":
        (tmp_path / "planted.pickle").write_bytes(crafted)
        (cache / name).symlink_to(tmp_path / "planted.pickle")
    else:
        (cache / name).write_bytes(crafted)
    result = rulepress(repo, "validate")
    assert result.returncode == 0 and "0 errors, 0 warnings" in result.stdout, result.stdout
    assert not marker.exists(), "a pickle from the working folder was loaded"


def test_a_document_cache_sealed_with_another_key_is_never_unpickled(repo, tmp_path):
    """Even in the sealed layout: without the user's key, a cache file is no cache."""
    from rulepress import sealed

    marker = tmp_path / "code-ran"
    cache = repo / ".rulepress-cache"
    cache.mkdir()
    name = documents_cache_name(repo / "compendium")
    body = crafted_pickle(cache_header(DOCUMENTS_FORMAT), marker)
    assert sealed.write(str(cache), name, body, secret=b"the attacker's own key")
    result = rulepress(repo, "validate")
    assert result.returncode == 0 and not marker.exists()


def test_a_forged_stamp_does_not_skip_the_build(repo, monkeypatch):
    """A stamp the pull request commits, made exactly as rulepress would make it for the
    invalid data it brings, but without the user's key: the build really runs."""
    bad = repo / "compendium/demo/skills/bio-lore.yaml"
    bad.write_text(SKILL.replace("order: 1", "order: one"), encoding="utf-8")
    (repo / "dist/json").mkdir(parents=True)
    monkeypatch.chdir(repo)
    monkeypatch.delenv("RULEPRESS_CACHE_DIR")
    monkeypatch.setenv("RULEPRESS_CACHE_KEY", "what the attacker has: not the user's key")
    argv = ["build", "--target", "json"]
    inputs = build_stamp.snapshot("compendium", [])
    build_stamp.record(argv, inputs, ["dist/json"], ["validated: all good (forged)"])
    assert build_stamp.up_to_date(argv) == ["validated: all good (forged)"]  # a real forgery
    result = rulepress(repo, *argv)
    assert "forged" not in result.stdout
    assert result.returncode == 1
    assert "compendium/demo/skills/bio-lore.yaml:5:8: error RP103" in result.stderr


@pytest.mark.parametrize("command", [("validate",), ("build", "--target", "json")])
def test_a_cache_folder_linked_outside_is_not_written_through(repo, outside, command):
    (repo / ".rulepress-cache").symlink_to(outside)
    before = listing(outside)
    first = rulepress(repo, *command)
    second = rulepress(repo, *command)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert listing(outside) == before


@pytest.mark.parametrize("command", [("validate",), ("build", "--target", "json")])
def test_a_cache_folder_that_is_a_named_pipe_is_no_cache(repo, command):
    os.mkfifo(repo / ".rulepress-cache")
    result = rulepress(repo, *command, seconds=20)
    assert result.returncode == 0 and "0 errors" in result.stdout, result.stderr
    assert stat.S_ISFIFO((repo / ".rulepress-cache").lstat().st_mode)


@pytest.mark.parametrize("name", ["CACHEDIR.TAG", ".gitignore"])
def test_the_cache_folder_marks_are_not_written_through_links(repo, outside, name):
    """A cache folder the pull request commits, whose marks link outside (one to a file
    that exists, one to where a file would be created)."""
    cache = repo / ".rulepress-cache"
    cache.mkdir()
    (cache / name).symlink_to(outside / ("precious.txt" if name == "CACHEDIR.TAG" else "new"))
    before = listing(outside)
    assert rulepress(repo, "build", "--target", "json").returncode == 0
    assert listing(outside) == before


def test_a_stamp_folder_linked_outside_is_not_written_through(repo, outside):
    cache = repo / ".rulepress-cache"
    cache.mkdir()
    (cache / "builds").symlink_to(outside)
    before = listing(outside)
    assert rulepress(repo, "build", "--target", "json").returncode == 0
    assert listing(outside) == before


def test_a_named_pipe_as_a_cache_file_does_not_hang_validate(repo):
    cache = repo / ".rulepress-cache"
    cache.mkdir()
    os.mkfifo(cache / documents_cache_name(repo / "compendium"))
    result = rulepress(repo, "validate", seconds=20)
    assert result.returncode == 0 and "0 errors" in result.stdout


def test_named_pipes_as_stamps_do_not_hang_build(repo):
    """Whatever a stamp is named, a pipe in its place is not one."""
    assert rulepress(repo, "build", "--target", "json").returncode == 0
    cache = repo / ".rulepress-cache"
    stamps = [p for p in cache.rglob("*") if "stamp" in p.name]
    assert stamps
    for stamp in stamps:
        stamp.unlink()
        os.mkfifo(stamp)
    result = rulepress(repo, "build", "--target", "json", seconds=20)
    assert result.returncode == 0 and "wrote dist/json" in result.stdout


def test_a_key_file_that_is_a_link_turns_the_caches_off(repo, outside):
    key_folder = repo.parent / "user-cache" / "rulepress"
    key_folder.mkdir(parents=True)
    (key_folder / "secret-key").symlink_to(outside / "precious.txt")
    before = listing(outside)
    assert rulepress(repo, "build", "--target", "json").returncode == 0
    again = rulepress(repo, "build", "--target", "json")
    assert again.returncode == 0 and "wrote dist/json" in again.stdout  # no stamp: built
    assert listing(outside) == before
    cache_files = [p.name for p in (repo / ".rulepress-cache").glob("*") if p.suffix != ".TAG"]
    assert cache_files in ([], [".gitignore"])


# --- Special files that only the build stamp and fmt meet ------------------------------


def zero_link(root: Path) -> None:
    (root / "demo/zero").symlink_to("/dev/zero")


@pytest.mark.parametrize(
    "setup",
    [
        lambda root: os.mkfifo(root / "demo/notes"),
        lambda root: os.mkfifo(root / "demo/weapons-old"),  # named like a folder
        zero_link,
        sparse("demo/picture.png"),
    ],
    ids=["a named pipe", "a named pipe named like a folder", "a link to /dev/zero", "64 GB"],
)
def test_special_files_that_are_no_documents_do_not_hang_build(repo, setup):
    setup(repo / "compendium")
    result = rulepress(repo, "build", "--target", "json", seconds=30)
    assert result.returncode == 0 and "wrote dist/json" in result.stdout, result.stderr
    again = rulepress(repo, "build", "--target", "json", seconds=30)
    assert "up to date: dist/json" in again.stdout  # the stamp noted them, and saw no change


def test_a_named_pipe_among_the_templates_does_not_hang_build(repo):
    (repo / "templates").mkdir()
    os.mkfifo(repo / "templates/weapon.md.j2.swp")
    result = rulepress(repo, "build", "--target", "markdown", "--templates", "templates")
    assert result.returncode == 0 and "wrote dist/markdown" in result.stdout


# --- fmt and links ------------------------------------------------------------------------


@pytest.fixture
def messy(repo) -> Path:
    """The compendium with one file out of canonical form."""
    (repo / "compendium/demo/skills/bio-lore.yaml").write_text(MESSY_SKILL, encoding="utf-8")
    return repo / "compendium"


@pytest.mark.parametrize("check", [False, True], ids=["fmt", "fmt --check"])
def test_fmt_never_writes_through_a_link_leaving_the_compendium(messy, outside, check):
    (outside / "skill.yaml").write_text(MESSY_SKILL, encoding="utf-8")
    (messy / "demo/skills/linked.yaml").symlink_to(outside / "skill.yaml")
    before = listing(outside)
    result = rulepress(messy.parent, "fmt", *(["--check"] if check else []))
    assert result.returncode == 1
    assert listing(outside) == before
    assert (
        "compendium/demo/skills/linked.yaml: cannot format: symbolic link points outside "
        "the compendium; refused" in result.stderr
    )
    assert (messy / "demo/skills/linked.yaml").is_symlink()


def test_fmt_formats_a_file_once_and_leaves_a_link_to_it_a_link(messy):
    (messy / "demo/skills/alias.yaml").symlink_to("bio-lore.yaml")
    result = rulepress(messy.parent, "fmt")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines.count("reformatted compendium/demo/skills/bio-lore.yaml") == 1
    assert not [line for line in lines if "alias.yaml" in line and "skipped" not in line]
    assert "compendium/demo/skills/alias.yaml: skipped: symbolic link" in result.stdout
    assert (messy / "demo/skills/alias.yaml").is_symlink()
    assert os.readlink(messy / "demo/skills/alias.yaml") == "bio-lore.yaml"
    assert (messy / "demo/skills/bio-lore.yaml").read_text(encoding="utf-8") != MESSY_SKILL


@pytest.mark.parametrize(
    ("setup", "says"),
    [
        (mkfifo("demo/skills/pipe.yaml"), "not a regular file (a named pipe); refused"),
        (sparse("demo/skills/huge.yaml"), "larger than "),
    ],
    ids=["a named pipe", "64 GB"],
)
def test_fmt_refuses_special_files_without_hanging(messy, setup, says):
    setup(messy)
    result = rulepress(messy.parent, "fmt", "--check", seconds=20)
    assert result.returncode == 1
    assert f"cannot format: {says}" in result.stderr


def test_fmt_keeps_a_file_s_permissions(messy):
    path = messy / "demo/skills/bio-lore.yaml"
    path.chmod(0o640)
    assert rulepress(messy.parent, "fmt").returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


# --- Stamps of unexpected shapes -----------------------------------------------------------


@pytest.fixture
def stamped(repo, monkeypatch) -> list[str]:
    """A real stamp for `build --target json` in `repo`; returns its argv."""
    monkeypatch.chdir(repo)
    monkeypatch.setenv("RULEPRESS_CACHE_DIR", str(repo / "cache"))
    monkeypatch.setenv("RULEPRESS_CACHE_KEY", "the user's key")
    (repo / "dist/json").mkdir(parents=True)
    argv = ["build", "--target", "json"]
    build_stamp.record(argv, build_stamp.snapshot("compendium", []), ["dist/json"], ["ok"])
    assert build_stamp.up_to_date(argv) == ["ok"]
    return argv


def reshaped(stamp: dict, change: str):
    stamp = dict(stamp)
    if change == "a list":
        return list(stamp.values())
    if change == "report of numbers":
        return {**stamp, "report": [1, 2]}
    if change == "report as text":
        return {**stamp, "report": "ok"}
    if change == "outputs as a list":
        return {**stamp, "outputs": [["dist/json", 1]]}
    if change == "files as a list":
        return {**stamp, "inputs": {**stamp["inputs"], "files": [1]}}
    if change == "folders of numbers":
        trees = {key: [[1, 2, 3, 4]] for key in stamp["inputs"]["folders"]}
        return {**stamp, "inputs": {**stamp["inputs"], "folders": trees}}
    if change == "no folders":
        return {**stamp, "inputs": {k: v for k, v in stamp["inputs"].items() if k != "folders"}}
    if change == "output folders cut short":
        return {**stamp, "outputs": {k: [v[0][:2]] for k, v in stamp["outputs"].items()}}
    if change == "an old version":
        return {**stamp, "version": stamp["version"] - 1}
    raise AssertionError(change)


@pytest.mark.parametrize(
    "change",
    [
        "a list",
        "report of numbers",
        "report as text",
        "outputs as a list",
        "files as a list",
        "folders of numbers",
        "no folders",
        "output folders cut short",
        "an old version",
    ],
)
def test_a_sealed_stamp_of_an_unexpected_shape_is_no_stamp(stamped, change):
    """Stamps this code did not write in this shape (an older rulepress's, with the same
    key) are no stamp: the build runs."""
    build_stamp.write_stamp(stamped, reshaped(build_stamp.read_stamp(stamped), change))
    assert build_stamp.up_to_date(stamped) is None


def test_a_cut_short_stamp_is_no_stamp(stamped):
    (path,) = (Path("cache")).glob("stamp-*")
    path.write_bytes(path.read_bytes()[:-7])
    assert build_stamp.up_to_date(stamped) is None


# --- The key that seals the caches ---------------------------------------------------------------


def test_the_key_is_made_once_private_to_the_user_and_kept(repo):
    assert rulepress(repo, "validate").returncode == 0
    key = repo.parent / "user-cache" / "rulepress" / "secret-key"
    made = key.read_bytes()
    assert len(made) == 32 and stat.S_IMODE(key.stat().st_mode) == 0o600
    assert rulepress(repo, "build", "--target", "json").returncode == 0
    assert "up to date" in rulepress(repo, "build", "--target", "json").stdout
    assert key.read_bytes() == made


@pytest.mark.parametrize("secret", ["a CI secret as text", "00" * 32])
def test_a_cache_written_with_another_key_is_not_used(repo, monkeypatch, secret):
    monkeypatch.setenv("RULEPRESS_CACHE_KEY", secret)
    root, folder = repo / "compendium", repo / "cache"
    load_compendium(root, DocumentCache(root, folder))
    assert DocumentCache(root, folder).known  # the same key reads it back
    monkeypatch.setenv("RULEPRESS_CACHE_KEY", secret + "0")
    assert DocumentCache(root, folder).known == {}


def test_a_replacement_takes_the_place_of_a_link_without_writing_through_it(tmp_path):
    """Every cache, stamp and key file and the compendium writer write through Replacement."""
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (tmp_path / "cache").symlink_to(victim)
    replacement = Replacement(tmp_path / "cache")
    replacement.file.write(b"new")
    replacement.commit()
    replacement.discard()
    assert victim.read_bytes() == b"precious"
    assert not (tmp_path / "cache").is_symlink()
    assert (tmp_path / "cache").read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "victim"]


def test_a_replacement_given_up_or_refused_leaves_nothing_behind(tmp_path):
    (tmp_path / "key").write_bytes(b"old")
    given_up = Replacement(tmp_path / "key")
    given_up.file.write(b"half")
    given_up.discard()
    kept = Replacement(tmp_path / "key")
    kept.file.write(b"new")
    with pytest.raises(FileExistsError):
        kept.commit(replace=False)
    kept.discard()
    assert (tmp_path / "key").read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["key"]
