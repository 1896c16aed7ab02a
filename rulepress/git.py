"""Asking git about the repository a folder is in, for the outputs that show its history."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git_output(folder: Path | str, *args: str) -> str | None:
    """The stripped output of `git ARGS` run in `folder`; None when git is missing, fails
    (not a repository, say) or does not answer within a minute."""
    try:
        done = subprocess.run(
            ["git", *args], cwd=folder, capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None
