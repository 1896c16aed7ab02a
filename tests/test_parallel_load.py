"""A large compendium's files read by forked workers: the same load as one process's, in
the same order, whatever a worker does (rulepress.compendium.parallel)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import plyvel
import pytest

import rulepress.compendium.loader as loader
from rulepress import forking
from rulepress.compendium import parallel
from rulepress.compendium.cache import DocumentCache
from rulepress.compendium.loader import load_compendium
from tests.helpers import base_tree, build_tree, documents, no_child_left

PATHS = [Path(f"file-{n:05}.yaml") for n in range(300)]


def pid_and_name(path: Path) -> tuple[int, str]:
    return os.getpid(), path.name


def slow_pid_and_name(path: Path) -> tuple[int, str]:
    time.sleep(0.002)  # a worker has time to start before this process takes every batch
    return pid_and_name(path)


@pytest.fixture(autouse=True)
def leaves_no_child():
    """Every test here leaves no worker behind, running or unreaped."""
    with no_child_left():
        yield


@pytest.mark.parametrize("processes", [2, 3])
def test_every_path_is_read_once_in_its_order_and_counted_here(processes):
    steps = []
    results = parallel.read_all(
        PATHS, slow_pid_and_name, lambda: steps.append(os.getpid()), processes=processes
    )
    assert [name for _, name in results] == [path.name for path in PATHS]
    assert {pid for pid, _ in results} - {os.getpid()}, "no worker read any file"
    assert steps == [os.getpid()] * len(PATHS)  # each path counted once, in this process


def test_a_queue_longer_than_its_pipe_holds_is_read_to_its_end(monkeypatch):
    monkeypatch.setattr(parallel, "BATCH", 1)  # 20,000 batches: 80,000 bytes of tickets
    paths = [Path(str(n)) for n in range(20_000)]
    results = parallel.read_all(paths, pid_and_name, processes=2)
    assert [name for _, name in results] == [path.name for path in paths]


def in_worker(then):
    """A read that does `then()` in a worker, and reads normally here."""
    here = os.getpid()

    def read(path: Path):
        if os.getpid() != here:
            return then()
        return slow_pid_and_name(path)

    return read


def raises():
    raise RuntimeError("a bug in a worker")


@pytest.mark.parametrize(
    "then",
    [
        raises,
        lambda: os.kill(os.getpid(), signal.SIGKILL),
        lambda: os._exit(0),  # gone without a word: no result to trust
        lambda: lambda: None,  # a result pickle cannot write
    ],
    ids=["raises", "killed", "exits-early", "unpicklable"],
)
def test_a_worker_that_fails_is_as_if_it_had_not_been(then):
    results = parallel.read_all(PATHS, in_worker(then), processes=2)
    assert results == [(os.getpid(), path.name) for path in PATHS]


def test_an_exception_here_stops_the_workers_and_is_raised():
    def read(path: Path):
        if path == PATHS[0]:
            raise KeyError(path.name)
        return pid_and_name(path)

    with pytest.raises(KeyError, match="file-00000"):
        parallel.read_all(PATHS, read, processes=2)


def test_no_worker_for_a_small_compendium_or_beside_another_thread():
    assert parallel.processes_for(parallel.PARALLEL_FROM - 1) == 1
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert parallel.processes_for(100 * parallel.PARALLEL_FROM) == 1
    finally:
        stop.set()
        thread.join()


def many_documents(root: Path, *, broken: bool = True) -> Path:
    """The demo tree with 200 more traits, three of them broken three ways."""
    files = base_tree()
    for n in range(200):
        files[f"demo/traits/t{n:03}.yaml"] = f"kind: trait\nid: t{n:03}\nname: T {n}\norder: {n}\n"
    if not broken:
        return build_tree(root, files)
    files["demo/traits/t050.yaml"] = "kind: trait\nid: [unclosed\n"
    files["demo/traits/t120.yaml"] = "kind: trat\nid: t120\nname: T\norder: 1\n"
    files["demo/traits/t190.yaml"] = "kind: trait\nid: t190\nname: T\norder: first\n"
    return build_tree(root, files)


def test_a_compendium_read_by_workers_loads_as_by_one_process(tmp_path, monkeypatch):
    root = many_documents(tmp_path / "compendium")
    alone = load_compendium(root)
    readers = tmp_path / "readers"  # each file's reader's pid, from whichever process
    read = loader.load_document_file

    def noted(*args, **kwargs):
        with readers.open("a") as tally:
            tally.write(f"{os.getpid()}\n")
        return read(*args, **kwargs)

    monkeypatch.setattr(loader, "load_document_file", noted)
    monkeypatch.setattr(parallel, "processes_for", lambda files: 3)
    shared = load_compendium(root)
    assert len(set(readers.read_text().split())) > 1, "no worker read any file"
    assert documents(shared.compendium) == documents(alone.compendium)
    assert [e.document for _, e in shared.compendium.entries()] == [
        e.document for _, e in alone.compendium.entries()
    ]
    assert shared.findings == alone.findings
    assert [(f.code.value, f.file.name) for f in shared.findings] == [
        ("RP003", "t050.yaml"),
        ("RP100", "t120.yaml"),
        ("RP103", "t190.yaml"),
    ]


def test_the_workers_documents_reach_the_cache(tmp_path, monkeypatch):
    root = many_documents(tmp_path / "compendium", broken=False)
    monkeypatch.setattr(parallel, "processes_for", lambda files: 2)
    first = load_compendium(root, DocumentCache(root, tmp_path / "cache"))

    def refuse(*args, **kwargs):
        raise AssertionError("a cached file was parsed again")

    monkeypatch.setattr(loader, "parse_yaml", refuse)
    monkeypatch.setattr(parallel, "processes_for", lambda files: 1)
    second = load_compendium(root, DocumentCache(root, tmp_path / "cache"))
    assert documents(second.compendium) == documents(first.compendium)


def test_no_worker_once_leveldb_runs_a_thread_of_its_own(tmp_path):
    """LevelDB compacts in a thread it starts on first use, which no fork copies: a
    worker forked after it would wait for that thread forever."""
    database = plyvel.DB(str(tmp_path / "pack"), create_if_missing=True)
    database.put(b"key", b"value")
    database.compact_range()
    database.close()
    assert forking.threads() > threading.active_count()  # seen, though Python knows it not
    assert not forking.can_fork()
    assert parallel.processes_for(100 * parallel.PARALLEL_FROM) == 1
