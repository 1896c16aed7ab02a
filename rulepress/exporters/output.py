"""Writing outputs safely: nothing half-written, nothing outside the output folder."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from rulepress.errors import RulepressError


def safe_child(folder: Path, *parts: str) -> Path:
    """`folder/parts...`, refusing any part that would lead outside `folder`."""
    if any(part in ("", ".", "..") or "/" in part or "\\" in part for part in parts):
        raise RulepressError(f"refusing unsafe output name: {'/'.join(parts)!r}")
    path = folder.joinpath(*parts)
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        raise RulepressError(f"refusing to write outside the output folder: {path}") from None
    return path


@contextlib.contextmanager
def replaced_atomically(target: Path) -> Iterator[Path]:
    """Yield an empty staging folder beside `target`; on success it replaces `target`.

    If the body raises, or the process dies, `target` is left as it was and the staging
    folder (named `.<target>.staging-*`) is removed or ignored by the next build.
    """
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.staging-", dir=parent))
        staging.chmod(0o755)  # mkdtemp makes it private; the output is meant to be shared
    except OSError as exc:
        raise RulepressError(f"cannot write to output folder {parent}: {exc.strerror}") from None
    try:
        yield staging
        _swap(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _swap(staging: Path, target: Path) -> None:
    if target.exists() and not target.is_dir():
        raise RulepressError(f"output path exists and is not a folder: {target}")
    retired = target.with_name(f".{target.name}.retired-{os.getpid()}")
    if target.exists():
        os.rename(target, retired)
    os.rename(staging, target)
    shutil.rmtree(retired, ignore_errors=True)
