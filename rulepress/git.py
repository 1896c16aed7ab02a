"""Asking git about the repository a folder is in, for the outputs that show its history.

Everything git returns about a repository is data from its history, as untrusted as the
compendium: revisions given on the command line go after `--end-of-options`, paths after
`--`, and nothing read from git is ever run.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from rulepress.errors import RulepressError


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


def run_git(
    folder: Path | str | None, *args: str, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """`git ARGS` in `folder`, its output as bytes; a git that cannot run (not installed,
    no answer within ten minutes) is a RulepressError, a git that fails is for the
    caller to judge by its return code."""
    try:
        return subprocess.run(
            ["git", *args], cwd=folder, input=stdin, capture_output=True, timeout=600, check=False
        )
    except subprocess.TimeoutExpired:
        raise RulepressError(f"git {args[0]} did not finish within ten minutes") from None
    except OSError as exc:
        raise RulepressError(f"cannot run git: {exc.strerror or exc}") from None
