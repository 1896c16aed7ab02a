"""Asking git about the repository a folder is in, for the outputs that show its history.

Everything git returns about a repository is data from its history, as untrusted as the
compendium: revisions given on the command line go after `--end-of-options`, paths after
`--`, and nothing read from git is ever run.
"""

from __future__ import annotations

import os
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


def changed_files(folder: Path | str, ref: str) -> set[Path]:
    """The files of the repository `folder` is in that differ from revision `ref` (its
    diff with the working tree), with the untracked files that are not ignored: what a
    pull request's check should look at. Resolved absolute paths; a `ref` git does not
    know, or a folder outside any repository, is a RulepressError."""
    top = run_git(folder, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise RulepressError(f"{folder} is not inside a git repository")
    root = Path(os.fsdecode(top.stdout.rstrip(b"\n")))
    diff = run_git(root, "diff", "--name-only", "-z", "--end-of-options", ref, "--")
    if diff.returncode != 0:
        message = diff.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RulepressError(
            f"cannot compare with {ref!r}: {message[0] if message else 'git failed'}"
        )
    untracked = run_git(root, "ls-files", "--others", "--exclude-standard", "-z", "--")
    names = [*diff.stdout.split(b"\0"), *untracked.stdout.split(b"\0")]
    return {(root / os.fsdecode(name)).resolve() for name in names if name}


def tree_ids(folder: Path | str, path: str, revisions: list[str]) -> dict[str, str]:
    """The git id of the tree at `path` (from the top of the repository; "." for the top)
    in each of `revisions`, by revision, from one `git cat-file --batch-check`; a revision
    git does not know, or where `path` is no folder, is left out."""
    if "\n" in path or any("\n" in revision for revision in revisions) or not revisions:
        return {}
    names = [f"{r}^{{tree}}" if path == "." else f"{r}:{path}" for r in revisions]
    try:
        done = run_git(folder, "cat-file", "--batch-check", stdin="\n".join(names).encode() + b"\n")
    except RulepressError:
        return {}
    lines = done.stdout.decode(errors="replace").splitlines()
    if done.returncode != 0 or len(lines) != len(revisions):
        return {}
    found = {}
    for revision, line in zip(revisions, lines, strict=True):
        parts = line.split()
        if len(parts) == 3 and parts[1] == "tree":
            found[revision] = parts[0]
    return found
