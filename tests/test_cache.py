"""The document cache and the build stamp: faster when nothing changed, never stale."""

from __future__ import annotations

import gc
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from rulepress import build_stamp, caching
from rulepress.commands.build import build
from rulepress.compendium.cache import DocumentCache
from rulepress.compendium.loader import load_compendium
from rulepress.games.iris.models.weapon import WeaponProfile
from tests.helpers import REPO, WEAPON_FILE, base_tree, build_tree


@pytest.fixture
def tree(tmp_path) -> Path:
    return build_tree(tmp_path / "compendium", base_tree())


def load(root: Path, cache_folder: Path):
    return load_compendium(root, DocumentCache(root, cache_folder))


def pistol(result) -> WeaponProfile:
    return result.compendium.ruleset("demo").get("test-pistol")


def edit_keeping_size_and_time(path: Path, old: str, new: str) -> None:
    """Change a figure without changing the file's size or modification time, so only
    its content tells that it changed."""
    status = path.stat()
    text = path.read_text()
    assert len(old) == len(new) and old in text
    path.write_text(text.replace(old, new, 1))
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))


def test_a_cached_load_gives_the_same_documents_without_parsing(tree, tmp_path, monkeypatch):
    first = load(tree, tmp_path / "cache")
    import rulepress.compendium.loader as loader

    def refuse(*args, **kwargs):
        raise AssertionError("a cached file was parsed again")

    monkeypatch.setattr(loader, "parse_yaml", refuse)
    second = load(tree, tmp_path / "cache")
    assert [e.document for _, e in second.compendium.entries()] == [
        e.document for _, e in first.compendium.entries()
    ]
    assert second.findings == first.findings == ()


def test_an_edited_file_is_read_again_even_with_the_same_size_and_time(tree, tmp_path):
    assert pistol(load(tree, tmp_path / "cache")).row_at(12).damage == 12
    edit_keeping_size_and_time(tree / WEAPON_FILE, "{ap: 12, damage: 12,", "{ap: 12, damage: 19,")
    assert pistol(load(tree, tmp_path / "cache")).row_at(12).damage == 19


def test_a_file_made_invalid_is_reported_though_it_was_cached(tree, tmp_path):
    load(tree, tmp_path / "cache")
    edit_keeping_size_and_time(tree / WEAPON_FILE, "{ap: 12, damage: 12,", "{ap: 12, damage: -1,")
    (finding,) = load(tree, tmp_path / "cache").findings
    lines = (tree / WEAPON_FILE).read_text().splitlines()
    assert finding.code == "RP104" and finding.file == tree / WEAPON_FILE  # out of range
    assert finding.line == next(n for n, line in enumerate(lines, 1) if "damage: -1" in line)


def test_positions_of_cached_documents_are_exact(tree, tmp_path):
    """A finding on a document taken from the cache still points at its line."""
    load(tree, tmp_path / "cache")
    entry = load(tree, tmp_path / "cache").compendium.ruleset("demo").entry("test-pistol")
    lines = (tree / WEAPON_FILE).read_text().splitlines()
    expected = next(n for n, line in enumerate(lines, 1) if line.startswith("tier:"))
    assert entry.position(("tier",)).line == expected


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_bytes(b"not a pickle at all"),
        lambda path: path.write_bytes(path.read_bytes()[:-40]),  # cut short
        lambda path: path.write_bytes(b"rulepress-documents 1 other-code 2.0\n" + b"x" * 50),
    ],
    ids=["garbage", "truncated", "other code"],
)
def test_a_damaged_or_foreign_cache_is_ignored(tree, tmp_path, damage):
    load(tree, tmp_path / "cache")
    (cache_file,) = (tmp_path / "cache").glob("documents-*.pickle")
    damage(cache_file)
    result = load(tree, tmp_path / "cache")
    assert result.findings == () and pistol(result).row_at(12).damage == 12


def test_a_cache_written_by_other_code_is_not_unpickled(tree, tmp_path, monkeypatch):
    load(tree, tmp_path / "cache")
    monkeypatch.setattr("rulepress.compendium.cache.code_digest", lambda: "the code changed since")
    monkeypatch.setattr(pickle, "loads", lambda data: pytest.fail("unpickled a foreign cache"))
    assert pistol(load(tree, tmp_path / "cache")).row_at(12).damage == 12


def test_an_edit_writes_only_the_small_file_of_new_documents(tree, tmp_path):
    load(tree, tmp_path / "cache")
    (full,) = (tmp_path / "cache").glob("documents-*[0-9a-f].pickle")
    before = full.stat().st_mtime_ns, full.read_bytes()
    edit_keeping_size_and_time(tree / WEAPON_FILE, "{ap: 12, damage: 12,", "{ap: 12, damage: 13,")
    load(tree, tmp_path / "cache")
    assert (full.stat().st_mtime_ns, full.read_bytes()) == before  # not rewritten
    cache = DocumentCache(tree, tmp_path / "cache")
    assert len(cache.added) == 1 and pistol(load(tree, tmp_path / "cache")).row_at(12).damage == 13


def test_the_cache_does_not_grow_without_bound(tree, tmp_path):
    """Old entries linger until the file of new documents outgrows its limit; then one
    full write keeps only the documents of that load."""
    for damage in range(10, 90):
        edit_keeping_size_and_time(
            tree / WEAPON_FILE,
            f"{{ap: 12, damage: {damage - 1 if damage > 10 else 12},",
            f"{{ap: 12, damage: {damage},",
        )
        load(tree, tmp_path / "cache")
        cache = DocumentCache(tree, tmp_path / "cache")
        assert len(cache.known) <= 5 + 50 + 1  # the files, the limit of new ones, one more
    assert pistol(load(tree, tmp_path / "cache")).row_at(12).damage == 89


def run(args: list[str], cwd: Path, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "RULEPRESS_CACHE_DIR": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "rulepress", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def project(tmp_path) -> Path:
    build_tree(tmp_path / "compendium", base_tree())
    return tmp_path


def test_a_second_build_with_nothing_changed_only_says_so(project):
    args = ["build", "--target", "markdown", "--target", "json"]
    first = run(args, project, project / "cache")
    assert first.returncode == 0 and "wrote dist/markdown" in first.stdout
    before = (project / "dist/markdown").stat().st_ino
    second = run(args, project, project / "cache")
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines() == [
        first.stdout.splitlines()[0],  # the same validation summary
        "up to date: dist/markdown (nothing changed; --force builds again)",
        "up to date: dist/json (nothing changed; --force builds again)",
    ]
    assert (project / "dist/markdown").stat().st_ino == before  # nothing was rewritten


def test_an_edited_file_makes_the_next_build_build(project):
    args = ["build", "--target", "json"]
    run(args, project, project / "cache")
    edit_keeping_size_and_time(
        project / "compendium" / WEAPON_FILE, "{ap: 12, damage: 12,", "{ap: 12, damage: 17,"
    )
    again = run(args, project, project / "cache")
    assert "wrote dist/json" in again.stdout
    assert '"damage": 17' in (project / "dist/json/demo.json").read_text()


@pytest.mark.parametrize(
    "change",
    [
        lambda p: (
            (p / "compendium/demo/rules").mkdir(parents=True)
            or (p / "compendium/demo/rules/new.yaml").write_text(
                "kind: rule\nid: new\ntitle: New\nchapter: Intro\norder: 1\ntext: New.\n"
            )
        ),
        lambda p: (p / "compendium/demo/traits/acuity.yaml").unlink(),
        lambda p: shutil.rmtree(p / "dist/json"),
        lambda p: (
            shutil.copytree(p / "dist/json", p / "copy")
            and (shutil.rmtree(p / "dist/json") or shutil.move(p / "copy", p / "dist/json"))
        ),
    ],
    ids=["file added", "file removed", "output deleted", "output replaced"],
)
def test_other_changes_make_the_next_build_build(project, change):
    args = ["build", "--target", "json"]
    assert run(args, project, project / "cache").returncode == 0
    change(project)
    again = run(args, project, project / "cache")
    assert "up to date" not in again.stdout and again.returncode in (0, 1), again.stderr


def test_force_other_arguments_and_no_cache_build_again(project):
    run(["build", "--target", "json"], project, project / "cache")
    for args in (
        ["build", "--target", "json", "--force"],
        ["build", "--target", "json", "--no-cache"],
        ["build", "--target", "json", "--foundry-version", "12"],
    ):
        result = run(args, project, project / "cache")
        assert result.returncode == 0 and "wrote dist/json" in result.stdout, args


def counting_reads(monkeypatch) -> list[str]:
    """The paths the stamp's digests read from now on."""
    read: list[str] = []
    real = caching.read_regular

    def counted(path, *args, **kwargs):
        read.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(caching, "read_regular", counted)
    return read


def test_a_file_the_stamp_saw_unchanged_is_not_read_and_one_written_since_is(project, monkeypatch):
    """A file whose inode, size and times are those the stamp noted, changed well before
    the stamp, keeps its digest unread; writing it sets its change time, so it is read
    again, even when the writer puts its size and modification time back."""
    monkeypatch.chdir(project)
    monkeypatch.setenv("RULEPRESS_CACHE_DIR", str(project / "cache"))
    argv = ["build", "--target", "json"]
    (project / "dist/json").mkdir(parents=True)
    inputs = build_stamp.snapshot("compendium", [])
    inputs["taken"] += 10 * build_stamp.RACY_NS  # as if the files were written long before
    build_stamp.record(argv, inputs, ["dist/json"], ["report"])
    read = counting_reads(monkeypatch)
    assert build_stamp.up_to_date(argv) == ["report"]
    assert not [path for path in read if "compendium" in path]  # stated, not read
    edit_keeping_size_and_time(
        project / "compendium" / WEAPON_FILE, "{ap: 12, damage: 12,", "{ap: 12, damage: 13,"
    )
    assert build_stamp.up_to_date(argv) is None
    assert [path for path in read if path.endswith(Path(WEAPON_FILE).name)]


def stamped_long_ago(project: Path, monkeypatch) -> list[str]:
    """A stamp of `build --target json` in `project`, as if its inputs were written long
    before it; returns its argv."""
    monkeypatch.chdir(project)
    monkeypatch.setenv("RULEPRESS_CACHE_DIR", str(project / "cache"))
    argv = ["build", "--target", "json"]
    (project / "dist/json").mkdir(parents=True)
    inputs = build_stamp.snapshot("compendium", [])
    inputs["taken"] += 10 * build_stamp.RACY_NS
    build_stamp.record(argv, inputs, ["dist/json"], ["report"])
    return argv


def test_trees_whose_folders_and_files_are_as_stamped_are_not_listed(project, monkeypatch):
    """While every folder of an input tree has the inode and times the stamp noted, no
    entry was added, removed or renamed in it: its files are stated, never listed."""
    argv = stamped_long_ago(project, monkeypatch)

    def listed(*args, **kwargs):
        raise AssertionError("a tree was listed")

    monkeypatch.setattr(build_stamp, "file_digests", listed)
    assert build_stamp.up_to_date(argv) == ["report"]


@pytest.mark.parametrize(
    "change",
    [
        lambda folder: (folder / "extra.yaml").write_text("kind: note\n"),
        lambda folder: (folder / "acuity.yaml").rename(folder / "acuity-renamed.yaml"),
        lambda folder: (folder / "acuity.yaml").unlink(),
        lambda folder: (folder / "deeper").mkdir() or (folder / "deeper/x.yaml").write_text(""),
    ],
    ids=["file added", "file renamed", "file removed", "folder of a file added"],
)
def test_an_entry_added_or_removed_with_its_folder_s_times_put_back_is_seen(
    project, monkeypatch, change
):
    """Putting a folder's modification time back after changing its entries does not hide
    the change: its change time moves, which no program can set back."""
    argv = stamped_long_ago(project, monkeypatch)
    folder = project / "compendium/demo/traits"
    before = folder.stat()
    change(folder)
    os.utime(folder, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert build_stamp.up_to_date(argv) is None


def test_a_file_added_to_an_output_with_its_folder_s_times_put_back_is_seen(project, monkeypatch):
    argv = stamped_long_ago(project, monkeypatch)
    (project / "dist/json/sub").mkdir()
    build_stamp.record(argv, build_stamp.read_stamp(argv)["inputs"], ["dist/json"], ["report"])
    assert build_stamp.up_to_date(argv) == ["report"]
    folder = project / "dist/json/sub"
    before = folder.stat()
    (folder / "planted.json").write_text("{}\n")
    os.utime(folder, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert build_stamp.up_to_date(argv) is None


def test_a_file_changed_just_before_the_stamp_is_read_again(project, monkeypatch):
    """Within `RACY_NS` of the stamp a file may be written again in the same tick of the
    file system's clock, its state unchanged: its bytes are what counts."""
    monkeypatch.chdir(project)
    monkeypatch.setenv("RULEPRESS_CACHE_DIR", str(project / "cache"))
    argv = ["build", "--target", "json"]
    (project / "dist/json").mkdir(parents=True)
    inputs = build_stamp.snapshot("compendium", [])  # the files were just written
    build_stamp.record(argv, inputs, ["dist/json"], ["report"])
    read = counting_reads(monkeypatch)
    assert build_stamp.up_to_date(argv) == ["report"]
    files = [path for path in (project / "compendium").rglob("*") if path.is_file()]
    assert len([path for path in read if "compendium" in path]) == len(files)


def test_a_changed_rulepress_package_makes_the_stamp_stale(project, monkeypatch):
    """The package's code and templates are inputs of every build."""
    monkeypatch.chdir(project)
    monkeypatch.setenv("RULEPRESS_CACHE_DIR", str(project / "cache"))
    copy = project / "package"
    shutil.copytree(REPO / "rulepress", copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(caching, "PACKAGE", str(copy))
    argv = ["build", "--target", "json"]
    (project / "dist/json").mkdir(parents=True)
    build_stamp.record(argv, build_stamp.snapshot("compendium", []), ["dist/json"], ["report"])
    assert build_stamp.up_to_date(argv) == ["report"]
    (copy / "exporters/templates/markdown/guide.md.j2").write_text("changed\n")
    assert build_stamp.up_to_date(argv) is None


def test_a_dangling_link_is_reported_by_the_build_not_tripped_over_by_its_stamp(project):
    """Digesting the inputs must not trip over a file the loader will report."""
    (project / "compendium/demo/rules").mkdir(parents=True)
    (project / "compendium/demo/rules/gone.yaml").symlink_to(project / "nowhere.yaml")
    result = run(["build", "--target", "json"], project, project / "cache")
    assert result.returncode == 1, result.stderr
    assert "compendium/demo/rules/gone.yaml:1:1: error RP008" in result.stderr


def test_a_cache_folder_that_cannot_be_written_does_not_fail_the_build(project):
    (project / "cache").write_text("a file where the cache folder should be\n")
    result = run(["build", "--target", "json"], project, project / "cache")
    assert result.returncode == 0 and "wrote dist/json" in result.stdout, result.stderr


def test_a_forced_build_leaves_the_plain_build_up_to_date(project):
    run(["build", "--target", "json"], project, project / "cache")
    forced = run(["build", "--target", "json", "--force"], project, project / "cache")
    assert "wrote dist/json" in forced.stdout
    plain = run(["build", "--target", "json"], project, project / "cache")
    assert "up to date: dist/json" in plain.stdout


def git(project: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=project,
        check=True,
        capture_output=True,
    )


def test_a_commit_makes_the_next_site_build_build(project):
    """The site shows the compendium's git history: a commit changes it."""
    git(project, "init", "-q")
    git(project, "add", "compendium")
    git(project, "commit", "-q", "-m", "first")
    assert run(["build", "--target", "json"], project, project / "cache").returncode == 0
    assert "up to date" in run(["build", "--target", "json"], project, project / "cache").stdout
    git(project, "commit", "-q", "--allow-empty", "-m", "second")
    assert (
        "wrote dist/json" in run(["build", "--target", "json"], project, project / "cache").stdout
    )


def test_a_changed_source_date_makes_the_next_build_build(project, monkeypatch):
    run(["build", "--target", "json"], project, project / "cache")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")  # the site's build date
    assert (
        "wrote dist/json" in run(["build", "--target", "json"], project, project / "cache").stdout
    )


def test_a_folder_removed_deep_inside_an_output_makes_the_next_build_build(project):
    args = ["build", "--target", "foundry"]
    assert run(args, project, project / "cache").returncode == 0
    shutil.rmtree(project / "dist/foundry/rulepress-demo/packs/weapons")
    again = run(args, project, project / "cache")
    assert "wrote dist/foundry" in again.stdout
    assert (project / "dist/foundry/rulepress-demo/packs/weapons").is_dir()


def test_a_relinked_ruleset_folder_makes_the_next_build_build(project):
    """A ruleset folder may be a link inside the compendium; pointing it elsewhere is a
    change though no file changed."""
    compendium = project / "compendium"
    shutil.move(compendium / "demo", compendium / ".v1")
    shutil.copytree(compendium / ".v1", compendium / ".v2")
    edit_keeping_size_and_time(
        compendium / ".v2/weapons/test-pistol.yaml", "{ap: 12, damage: 12,", "{ap: 12, damage: 18,"
    )
    (compendium / "demo").symlink_to(".v1")
    run(["build", "--target", "json"], project, project / "cache")
    (compendium / "demo").unlink()
    (compendium / "demo").symlink_to(".v2")
    again = run(["build", "--target", "json"], project, project / "cache")
    assert "wrote dist/json" in again.stdout
    assert '"damage": 18' in (project / "dist/json/demo.json").read_text()


def test_a_cache_file_that_cannot_be_replaced_does_not_fail_the_build(project):
    run(["build", "--target", "json"], project, project / "cache")
    (cache_file,) = (project / "cache").glob("documents-*.pickle")
    cache_file.unlink()
    cache_file.mkdir()  # a folder where the file goes
    edit_keeping_size_and_time(
        project / "compendium" / WEAPON_FILE, "{ap: 12, damage: 12,", "{ap: 12, damage: 16,"
    )
    result = run(["build", "--target", "json"], project, project / "cache")
    assert result.returncode == 0 and "wrote dist/json" in result.stdout, result.stderr


def test_a_cached_file_with_a_byte_order_mark_keeps_its_columns(tree, tmp_path):
    path = tree / "demo/traits/acuity.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    cold = load_compendium(tree).compendium.ruleset("demo").entry("acuity")
    load(tree, tmp_path / "cache")
    warm = load(tree, tmp_path / "cache").compendium.ruleset("demo").entry("acuity")
    assert warm.position(("name",)) == cold.position(("name",))


def test_rows_are_small_immutable_and_dump_as_before():
    """A row is a named tuple, not a model (no set of given fields per row); it dumps,
    pickles and refuses what a model refused, in the same words."""
    data = {"ap": 1, "damage": 2, "defense": 3, "move": "Base", "range": 10}
    weapon = {"id": "w", "kind": "weapon", "tier": 1, "section": "s", "order": 1}
    profile = WeaponProfile.model_validate({**weapon, "table": [data]})
    (row,) = profile.table
    assert isinstance(row, tuple) and not hasattr(row, "__dict__") and row.damage == 2
    assert profile.model_dump()["table"] == [data]
    assert '"table":[{"ap":1,"damage":2,"defense":3,"move":"Base","range":10}]' in (
        profile.model_dump_json()
    )
    assert pickle.loads(pickle.dumps(profile)) == profile
    assert WeaponProfile.model_validate({**weapon, "table": [row]}).table == [row]
    with pytest.raises(AttributeError):
        row.damage = 5
    with pytest.raises(ValidationError) as refused:
        WeaponProfile.model_validate({**weapon, "table": [1, {**data, "x": 1}, {"ap": 1.0}]})
    assert [(e["type"], e["loc"], e["msg"]) for e in refused.value.errors()][:2] == [
        ("model_type", ("table", 0), "Input should be a valid dictionary or instance of ApRow"),
        ("extra_forbidden", ("table", 1, "x"), "Extra inputs are not permitted"),
    ]


def test_checks_and_exports_hide_the_loaded_objects_from_the_collector_only_meanwhile(
    tree, tmp_path
):
    seen = []
    validation, _ = build(
        tree / "demo",
        tmp_path / "out",
        ["json"],
        after_writing=lambda *_: seen.append(gc.get_freeze_count()),
    )
    assert validation.ok and seen and seen[0] > 0  # frozen while the outputs were written
    assert gc.get_freeze_count() == 0  # and given back to the collector after


def committed_history(tree: Path) -> None:
    """Two commits of `tree`: the second changes one figure of the pistol."""
    for args in (("init", "-q"), ("add", "."), ("commit", "-q", "-m", "first")):
        git(tree, *args)
    edit_keeping_size_and_time(tree / WEAPON_FILE, "{ap: 12, damage: 12,", "{ap: 12, damage: 13,")
    git(tree, "commit", "-q", "-am", "second")


def counting_parses(monkeypatch) -> list[Path]:
    import rulepress.compendium.loader as loader

    parsed: list[Path] = []
    real = loader.parse_yaml

    def parse(text, path, **kwargs):
        parsed.append(path)
        return real(text, path, **kwargs)

    monkeypatch.setattr(loader, "parse_yaml", parse)
    return parsed


def test_the_history_loads_only_files_the_cache_has_not_seen(tree, tmp_path, monkeypatch):
    from rulepress.history import history
    from rulepress.validation import validate

    committed_history(tree)
    working = validate(tree, cache=DocumentCache(tree, tmp_path / "cache")).compendium
    parsed = counting_parses(monkeypatch)
    revisions = history(working)
    assert len(revisions) == 1  # the first commit has nothing before it
    assert "damage" in " ".join(c.text for c in revisions[0].changes)
    assert [path.name for path in parsed] == [Path(WEAPON_FILE).name]  # its old bytes, once
    parsed.clear()
    again = validate(tree, cache=DocumentCache(tree, tmp_path / "cache")).compendium
    assert history(again) == revisions and parsed == []  # the old bytes were cached too


def test_a_history_loaded_without_a_cache_reads_no_cache(tree, tmp_path, monkeypatch):
    from rulepress.history import history
    from rulepress.validation import validate

    committed_history(tree)
    monkeypatch.setenv("RULEPRESS_CACHE_DIR", str(tmp_path / "cache"))
    validate(tree, cache=True)  # a cache a --no-cache build must not use
    files = len(list(tree.rglob("*.yaml")))
    parsed = counting_parses(monkeypatch)
    revisions = history(validate(tree).compendium)
    assert len(revisions) == 1  # the first commit has nothing before it
    # the working tree, then of the revisions only the old bytes of the file the commit
    # changed: the rest are the working tree's documents, held in memory for the call
    assert len(parsed) == files + 1
    assert [path.name for path in parsed[-1:]] == [Path(WEAPON_FILE).name]
    assert not list((tmp_path / "cache").glob("history-*"))  # nor any stored changes
