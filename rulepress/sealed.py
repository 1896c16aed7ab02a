"""Files rulepress reads back from its cache folder, sealed with a key no repository holds.

The document cache and the build stamps live in the working folder,
where a pull request can commit files of its own; a pickle or a stamp it made would run
code or skip a build. So each such file is sealed: its first 64 bytes are a keyed
BLAKE2b MAC over the file's name, its length and the digest of the rest, then that
digest. A file that does not verify is no cache, and costs 64 bytes of reading: nothing
in it is unpickled or unmarshalled. The name is in the MAC, so a sealed file moved to
another name (another compendium's cache, another build's stamp) is no cache either.

The key: $RULEPRESS_CACHE_KEY if set (hex or text: a CI secret), else 32 random bytes
made once, readable by the user alone, in $XDG_CACHE_HOME/rulepress/secret-key (else
~/.cache/rulepress/secret-key). A key that cannot be read or made means no caches,
never a failed command.

The cache folder is opened without following a link, and its files are read and
written relative to it, never through a link: only regular files are read, and a file
is written under a temporary name and renamed into place. A folder where a cache file
goes, a pipe or a link there is simply no cache. Only the standard library is imported
here (BLAKE2b and the constant-time comparison from their C modules, see below): the
launcher reads stamps.
"""

from __future__ import annotations

import os

try:  # hashlib's BLAKE2b and hmac's constant-time comparison themselves, from their C
    # modules: importing hashlib or hmac loads OpenSSL, which costs the launcher's no-op
    # build more than all its digests do
    from _blake2 import blake2b
    from _operator import _compare_digest as compare_digest
except ImportError:  # a Python built otherwise
    from hashlib import blake2b
    from hmac import compare_digest

from rulepress.files import CLOEXEC, Replacement, open_regular

KEY_BYTES = 32
SEAL_BYTES = 2 * KEY_BYTES  # the MAC, then the digest of the rest
KEY_VARIABLE = "RULEPRESS_CACHE_KEY"
MARKS = {
    ".gitignore": b"# written by rulepress: a cache, safe to delete\n*\n",
    "CACHEDIR.TAG": b"Signature: 8a477f597d28d172789f06886806bc55\n",
}


def key() -> bytes | None:
    """The key that seals cache files, or None: then nothing is cached."""
    given = os.environ.get(KEY_VARIABLE)
    if given:
        try:
            secret = bytes.fromhex(given)
        except ValueError:
            secret = given.encode("utf-8", "surrogateescape")
        return blake2b(secret, digest_size=KEY_BYTES).digest()  # any length fits
    path = _key_path()
    if path is None:
        return None
    try:
        return _read_key(path)
    except FileNotFoundError:
        return _make_key(path)
    except OSError:
        return None


def _key_path() -> str | None:
    folder = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(folder):  # unset, or relative: the XDG spec says ignore it
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        folder = os.path.join(home, ".cache")
    return os.path.join(folder, "rulepress", "secret-key")


def _read_key(path: str) -> bytes | None:
    """The key file's 32 bytes; None when it is not the user's own private file."""
    with open_regular(path, limit=KEY_BYTES, follow_links=False) as file:
        status = os.fstat(file.fileno())
        if status.st_mode & 0o077 or status.st_uid != _uid(status):
            return None  # others may read or have made it: it seals nothing
        secret = file.read()
    return secret if len(secret) == KEY_BYTES else None


def _uid(status: os.stat_result) -> int:
    return os.getuid() if hasattr(os, "getuid") else status.st_uid


def _make_key(path: str) -> bytes | None:
    """Make the key file whole: written under another name, then linked into place,
    which fails if another process made it meanwhile (then its key is read)."""
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        made = Replacement(path)
        try:
            made.file.write(os.urandom(KEY_BYTES))
            made.file.flush()
            os.fsync(made.file.fileno())
            _ignoring_errors(made.commit, replace=False)  # made meanwhile?
        finally:
            made.discard()
        return _read_key(path)
    except OSError:
        return None


def _ignoring_errors(function, *args, **options) -> None:
    """function(*args, **options), an OSError ignored (contextlib.suppress, which the
    launcher does not import)."""
    try:  # noqa: SIM105 - see above
        function(*args, **options)
    except OSError:
        pass


def _mac(secret: bytes, name: str, size: int, body_digest: bytes) -> bytes:
    mac = blake2b(digest_size=KEY_BYTES, key=secret)
    mac.update(f"{name}\0{size}\0".encode("utf-8", "surrogateescape"))
    mac.update(body_digest)
    return mac.digest()


def open_folder(folder: str, *, create: bool) -> int | None:
    """A descriptor of the cache folder, never reached through a link (made and marked
    with `create`), or None."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | CLOEXEC
    try:
        return os.open(folder, flags)
    except FileNotFoundError:
        if not create:
            return None
    except OSError:  # a link, a file or a pipe where the folder goes
        return None
    try:
        os.makedirs(folder, exist_ok=True)
        handle = os.open(folder, flags)
    except OSError:
        return None
    _mark(handle)
    return handle


def _mark(folder: int) -> None:
    """Tell git and backup tools to leave the folder alone; never through a link."""
    for name, text in MARKS.items():
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | CLOEXEC
        try:
            handle = os.open(name, flags, 0o644, dir_fd=folder)
        except OSError:
            continue  # there already (or a link there): left as it is
        _ignoring_errors(os.write, handle, text)
        os.close(handle)


def read(folder: str, name: str, *, limit: int | None = None) -> bytes | None:
    """The content sealed in `folder`/`name`, or None: missing, not a regular file, a
    link, larger than `limit` bytes (when given), damaged, or not sealed with this key."""
    secret = key()
    handle = open_folder(folder, create=False) if secret is not None else None
    if handle is None:
        return None
    whole = None if limit is None else limit + SEAL_BYTES
    try:
        with open_regular(name, limit=whole, follow_links=False, dir_fd=handle) as file:
            size = os.fstat(file.fileno()).st_size - SEAL_BYTES
            seal = file.read(SEAL_BYTES)
            mac, body_digest = seal[:KEY_BYTES], seal[KEY_BYTES:]
            if size < 0 or not compare_digest(mac, _mac(secret, name, size, body_digest)):
                return None  # not written by this user's rulepress: nothing more is read
            body = file.read(size)
    except OSError:
        return None
    finally:
        os.close(handle)
    if len(body) != size or blake2b(body, digest_size=KEY_BYTES).digest() != body_digest:
        return None
    return body


class Writer:
    """A sealed file being written, piece by piece; `commit` puts it in place whole."""

    def __init__(self, folder: int, name: str, secret: bytes) -> None:
        """Open the file and hold the seal's place at its start; the seal is written at `commit`,
        once the digest of the whole is known."""
        self.folder, self.name, self.secret = folder, name, secret
        self.replacement = Replacement(name, dir_fd=folder)
        self.file = self.replacement.file
        self.file.write(bytes(SEAL_BYTES))  # the seal goes here once the rest is written
        self.digest = blake2b(digest_size=KEY_BYTES)
        self.size = 0

    @classmethod
    def start(cls, folder: str, name: str, secret: bytes | None = None) -> Writer | None:
        """A writer of `folder`/`name`, or None when nothing can be cached there."""
        secret = secret if secret is not None else key()
        handle = open_folder(folder, create=True) if secret is not None else None
        if handle is None:
            return None
        try:
            return cls(handle, name, secret)
        except OSError:
            os.close(handle)
            return None

    def write(self, data: bytes) -> None:
        """Add `data` to the file and to the digest the seal is made from."""
        self.file.write(data)
        self.digest.update(data)
        self.size += memoryview(data).nbytes

    def commit(self) -> bool:
        """Seal the file and rename it into place; False (and nothing left) if that fails."""
        try:
            body_digest = self.digest.digest()
            self.file.seek(0)
            self.file.write(_mac(self.secret, self.name, self.size, body_digest) + body_digest)
            self.replacement.commit()
            return True
        except OSError:
            return False  # a full disk, or a folder where the file goes: no cache
        finally:
            self.discard()

    def discard(self) -> None:
        """Give up the file being written (after `commit`: only let go of the folder)."""
        if self.folder < 0:
            return
        self.replacement.discard()
        os.close(self.folder)
        self.folder = -1


def write(folder: str, name: str, body: bytes, *, secret: bytes | None = None) -> bool:
    """Seal `body` into `folder`/`name` (with the user's key unless `secret` is given),
    whole or not at all."""
    writer = Writer.start(folder, name, secret)
    if writer is None:
        return False
    try:
        writer.write(body)
    except OSError:
        writer.discard()
        return False
    return writer.commit()


def remove(folder: str, name: str) -> None:
    """Delete `folder`/`name` if it is there (a link there is removed, not followed)."""
    handle = open_folder(folder, create=False)
    if handle is None:
        return
    _ignoring_errors(os.unlink, name, dir_fd=handle)
    os.close(handle)
