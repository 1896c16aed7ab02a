"""A large pack is written in batches, so that it is never held in a batch beside its
memtable, and its files are the bytes one batch gives (rulepress.exporters.foundry.leveldb)."""

from __future__ import annotations

from pathlib import Path

import plyvel
import pytest

from rulepress.exporters.foundry import leveldb
from rulepress.exporters.output_folder import OutputFolder


def entries() -> dict[str, bytes]:
    return {
        f"!items!{n:016d}": (f'{{"_id":"{n:016d}","n":{n}}}' * (1 + n % 7)).encode()
        for n in range(400)
    }


def written(tmp_path: Path, name: str) -> dict[str, bytes]:
    folder = tmp_path / name / "pack"
    leveldb.write_entries(entries(), folder, OutputFolder(tmp_path / name))
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("most", [10**9, 8_000], ids=["every batch small", "rest in one"])
def test_a_pack_written_in_batches_is_the_pack_one_batch_writes(tmp_path, monkeypatch, most):
    whole = written(tmp_path, "one-batch")
    monkeypatch.setattr(leveldb, "BATCH_BYTES", 1_000)  # about 15 batches
    monkeypatch.setattr(leveldb, "BATCHED_UP_TO", most)
    calls = []
    real = plyvel.DB

    class Counted:  # a batch whose writes are counted
        def __init__(self, batch):
            self.batch = batch

        def put(self, key, value):
            self.batch.put(key, value)

        def clear(self):
            self.batch.clear()

        def write(self):
            calls.append(1)
            self.batch.write()

    class Database:  # plyvel's, its batches counted
        def __init__(self, *args, **options):
            self.database = real(*args, **options)

        def write_batch(self):
            return Counted(self.database.write_batch())

        def __getattr__(self, name):
            return getattr(self.database, name)

    monkeypatch.setattr(leveldb.plyvel, "DB", Database)
    assert written(tmp_path, "batches") == whole
    assert len(calls) > (2 if most > 10**6 else 1)
    database = real(str(tmp_path / "batches" / "pack"))
    try:
        assert dict(database.iterator()) == {k.encode(): v for k, v in entries().items()}
    finally:
        database.close()


def test_without_a_memtable_for_the_whole_pack_the_batches_would_change_the_files(
    tmp_path, monkeypatch
):
    """Why the memtable takes the whole pack: one written out in the middle (LevelDB's
    64 KB least) leaves other files than one batch's."""
    whole = written(tmp_path, "one-batch")
    monkeypatch.setattr(leveldb, "BATCH_BYTES", 1_000)
    monkeypatch.setattr(leveldb, "MEMTABLE", 64 << 10)
    assert written(tmp_path, "batches") != whole
