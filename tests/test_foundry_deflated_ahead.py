"""A release zip whose packs were deflated ahead (release.deflate_ahead, as the forked
module writer does once a pack is written) is byte for byte the zip of the same files
deflated as they are zipped, and a file changed since it was deflated is zipped as it is
now; a pack's table is deflated while LevelDB writes it (TableFollower). The forked
export's zip against the one-process one: test_foundry_module_writer."""

from __future__ import annotations

import io
import os
import time
import zipfile
import zlib
from pathlib import Path

import pytest

from rulepress.exporters.foundry.release import TableFollower, deflate_ahead, write_release_zip
from rulepress.exporters.output_folder import OutputFolder, RefusedOutput

FILES = {
    "module.json": b'{"id": "m"}\n',
    "packs/weapons/000005.ldb": os.urandom(70_000) + b"weapon " * 40_000,
    "packs/weapons/CURRENT": b"MANIFEST-000002\n",
    "packs/weapons/000004.log": b"",
    "packs/weapons/LOCK": b"",
    "packs/r\u00e8gles/000005.ldb": "r\u00e8gle ".encode() * 5_000,
}


def module(root: Path) -> Path:
    """A module folder under `root` holding FILES."""
    folder = root / "m"
    for name, data in FILES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def zipped(output: OutputFolder, folder: Path, ahead: dict, target=None) -> bytes:
    target = target or io.BytesIO()
    write_release_zip(output, folder, target, ahead)
    return target.getvalue()


def ahead_of(output: OutputFolder, folder: Path) -> dict:
    return {
        path: member
        for pack in sorted((folder / "packs").iterdir())
        for path, member in deflate_ahead(output, pack).items()
    }


def test_the_zip_of_files_deflated_ahead_is_the_zip_deflated_as_it_goes(tmp_path, monkeypatch):
    output = OutputFolder(tmp_path)
    folder = module(tmp_path)
    plain = zipped(output, folder, {})
    ahead = ahead_of(output, folder)
    assert {p.relative_to(folder).as_posix() for p in ahead} == {
        name for name in FILES if name.startswith("packs/") and not name.endswith("LOCK")
    }
    read, original = [], OutputFolder.read

    def spied(self, path):
        read.append(path)
        return original(self, path)

    monkeypatch.setattr(OutputFolder, "read", spied)
    assert zipped(output, folder, ahead) == plain
    assert read == [folder / "module.json"]  # the packs' files were not read again
    with zipfile.ZipFile(io.BytesIO(plain)) as archive:
        assert archive.testzip() is None
        assert archive.read("packs/weapons/000005.ldb") == FILES["packs/weapons/000005.ldb"]


def test_a_file_changed_since_it_was_deflated_is_zipped_as_it_is_now(tmp_path):
    output = OutputFolder(tmp_path)
    folder = module(tmp_path)
    ahead = ahead_of(output, folder)
    table = folder / "packs" / "weapons" / "000005.ldb"
    table.write_bytes(b"written again")  # the same size would do: its ctime changed
    assert zipped(output, folder, ahead) == zipped(output, folder, {})
    with zipfile.ZipFile(io.BytesIO(zipped(output, folder, ahead))) as archive:
        assert archive.read("packs/weapons/000005.ldb") == b"written again"


class Unseekable(io.BytesIO):
    def seekable(self) -> bool:
        return False

    def seek(self, *args):
        if args != (0, 1):  # zipfile asks where it is this way
            raise io.UnsupportedOperation("seek")
        return super().seek(*args)


def test_a_zip_written_where_it_cannot_seek_deflates_as_it_goes(tmp_path):
    """zipfile writes a stream with data descriptors: a member deflated ahead, whose
    local header is rewritten in place, cannot go in one."""
    output = OutputFolder(tmp_path)
    folder = module(tmp_path)
    ahead = ahead_of(output, folder)
    streamed = zipped(output, folder, ahead, Unseekable())
    assert streamed == zipped(output, folder, {}, Unseekable())
    with zipfile.ZipFile(io.BytesIO(streamed)) as archive:
        assert archive.read("packs/weapons/CURRENT") == FILES["packs/weapons/CURRENT"]


def test_a_link_in_a_pack_is_refused_as_the_zip_refuses_it(tmp_path):
    output = OutputFolder(tmp_path)
    folder = module(tmp_path)
    (tmp_path / "secret").write_bytes(b"not the module's")
    (folder / "packs" / "weapons" / "MANIFEST-000002").symlink_to(tmp_path / "secret")
    with pytest.raises(RefusedOutput, match="MANIFEST-000002") as ahead:
        deflate_ahead(output, folder / "packs" / "weapons")
    with pytest.raises(RefusedOutput) as plain:
        zipped(output, folder, {})
    assert str(ahead.value) == str(plain.value)


def test_a_table_followed_while_it_is_written_is_deflated_as_the_whole_file(tmp_path):
    """The table is deflated as it grows (LevelDB writes a table from its start to its
    end): once its writing is over, the same member as the whole file deflated."""
    output = OutputFolder(tmp_path)
    folder = tmp_path / "m" / "packs" / "weapons"
    table = FILES["packs/weapons/000005.ldb"]
    with TableFollower(output, folder) as follower:
        time.sleep(0.01)  # the folder does not exist yet: LevelDB makes it
        folder.mkdir(parents=True)
        (folder / "CURRENT").write_bytes(b"MANIFEST-000002\n")
        with (folder / "000005.ldb").open("wb", buffering=0) as file:
            for start in range(0, len(table), 50_000):
                file.write(table[start : start + 50_000])
                time.sleep(0.003)
    followed = follower.deflated[folder / "000005.ldb"]
    assert set(follower.deflated) == {folder / "000005.ldb"}
    assert (followed.size, followed.crc) == (len(table), zlib.crc32(table))
    assert zlib.decompress(followed.data, -zlib.MAX_WBITS) == table
    whole = deflate_ahead(output, folder)
    assert followed == whole[folder / "000005.ldb"]
    assert deflate_ahead(output, folder, follower.deflated) == whole


def test_nothing_is_followed_where_no_table_is_written(tmp_path):
    output = OutputFolder(tmp_path)
    with TableFollower(output, tmp_path / "packs" / "empty") as follower:
        time.sleep(0.01)
    assert follower.deflated == {}
    (tmp_path / "packs" / "linked").mkdir(parents=True)
    (tmp_path / "secret").write_bytes(b"not the module's")
    (tmp_path / "packs" / "linked" / "000005.ldb").symlink_to(tmp_path / "secret")
    with TableFollower(output, tmp_path / "packs" / "linked") as follower:
        pass
    assert follower.deflated == {}  # a link is not read: the zip refuses it itself
    (tmp_path / "packs" / "piped").mkdir()
    os.mkfifo(tmp_path / "packs" / "piped" / "000005.ldb")
    with TableFollower(output, tmp_path / "packs" / "piped") as follower:
        pass
    assert follower.deflated == {}  # nor a pipe, and it is not waited on
