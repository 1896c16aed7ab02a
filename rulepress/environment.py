"""Where rulepress's code and its plugins come from: the installed environment, never the
working folder.

A content repository is untrusted input: a pull request's CI checks it out and runs
rulepress in it. Python puts the working folder first on `sys.path` for `python -m
rulepress` (and '' for `-c`), so a repository could shadow a module rulepress imports (a
`hashlib.py`, a `yaml.py`) or declare a plugin (an `evil-0.dist-info/entry_points.txt`
naming a module beside it) that discovery would import. So the launcher drops the working
folder from `sys.path` before it imports anything else (`leave_working_folder`), and every
plugin discovery reads only `installed_path()`, in-process too.

Trusted: the distributions installed on `sys.path` once the working folder is dropped:
site-packages, a virtual environment, `PYTHONPATH` entries that name another folder, and
editable installs (whoever installed them chose that code). Not trusted: anything found
only through the working folder ('' , '.', or an entry that is the working folder however
spelled). Python reads `sitecustomize`, `usercustomize` and `.pth` files only from
site-packages, before the working folder is on the path, so a repository's own are never
run. What `python -m rulepress` itself finds first, a `rulepress.py` or `rulepress/` in the
working folder, runs before any of rulepress does: CI runs the `rulepress` script (or
`python -P -m rulepress`).

Only modules Python loads at start are imported here: the launcher uses it.
"""

from __future__ import annotations

import os
import re
import sys


def installed_path(path: list[str] | None = None) -> list[str]:
    """`path` (default `sys.path`) without its working-folder entries: '', '.', and any
    entry that is the working folder, compared after following links."""
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:  # the working folder was removed: nothing can be found through it
        here = None
    kept = []
    for entry in sys.path if path is None else path:
        if entry in ("", os.curdir) or (here is not None and os.path.realpath(entry) == here):
            continue
        kept.append(entry)
    return kept


def leave_working_folder() -> None:
    """Drop the working folder from `sys.path`, for the rest of the process: the first
    thing the launcher does, before it imports anything Python had not loaded at start."""
    sys.path[:] = installed_path()


def entry_points(group: str) -> list:
    """The entry points of `group` that installed distributions declare (the first
    distribution of a name on the path wins, as in importlib.metadata): a distribution in
    the working folder is never seen, whatever `sys.path` holds."""
    from importlib.metadata import distributions

    seen: set[str] = set()
    points = []
    for distribution in distributions(path=installed_path()):
        name = re.sub(r"[-_.]+", "-", distribution.metadata["Name"] or "").lower()
        if name in seen:
            continue
        seen.add(name)
        points += distribution.entry_points.select(group=group)
    return points
