"""What a long command says while it runs: one line as each stage ends, with its counts and
seconds, flushed at once; on a terminal, the running stage's name and a progress bar.

`rulepress build` and `validate` install a Progress for their run (`speaking`); the
stages (the load, the checks, each target, mkdocs) report to `current()`, which says
nothing unless a command installed one, so the library calls stay silent. Everything
goes to stderr: stdout keeps what a command answers (findings, JSON, annotations, the
build's summary) byte for byte. Off a terminal (a CI log, a pipe) only plain lines are
written: no carriage return, no escape sequence."""

from __future__ import annotations

import contextlib
import contextvars
import enum
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TextIO

CLEAR_LINE = "\r\x1b[K"
"""Back to the start of the line and clear it: a status or a bar gives way to a line."""
LINE_UP = "\x1b[1A"


class Verbosity(enum.IntEnum):
    """How much a command says besides its answer (`--quiet`, default, `--verbose`)."""

    QUIET = 0
    """No stage lines, no bar: the answer and the errors only."""
    NORMAL = 1
    """A line as each stage ends; the status and bars on a terminal."""
    VERBOSE = 2
    """And under each stage line its detail: each ruleset, finding code, output folder."""


@dataclass
class Stage:
    """A running stage: what its line says when it ends, and its detail lines."""

    result: str = ""
    details: list[str] = field(default_factory=list)


def is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is a terminal that can draw a status line (not TERM=dumb)."""
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


class Progress:
    """Where a command's stages report; see the module's docstring."""

    def __init__(
        self,
        stream: TextIO | None = None,
        verbosity: Verbosity = Verbosity.NORMAL,
        terminal: bool | None = None,
    ) -> None:
        """Report to `stream` (stderr); `terminal` says whether it draws (else: isatty)."""
        self.stream = sys.stderr if stream is None else stream
        self.verbosity = verbosity
        self.terminal = is_terminal(self.stream) if terminal is None else terminal
        self._running: list[str] = []

    @property
    def drawing(self) -> bool:
        """Whether a status line and bars are drawn (a terminal, and not --quiet)."""
        return self.terminal and self.verbosity >= Verbosity.NORMAL

    def say(self, text: str, level: Verbosity = Verbosity.NORMAL) -> None:
        """Write one line, flushed, when the verbosity reaches `level`."""
        if self.verbosity < level:
            return
        self.stream.write(f"{CLEAR_LINE if self.drawing else ''}{text}\n")
        self._show_status()
        self.stream.flush()

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[Stage]:
        """Time the stage `name`; when it ends, say `name: <result> in <seconds> s` and,
        with --verbose, its details. A stage that raises says nothing (the error will)."""
        stage = Stage()
        start = time.perf_counter()
        self._running.append(name)
        self._show_status()
        try:
            yield stage
        finally:
            self._running.pop()
            if self.drawing:  # the status line gives way to what comes next
                self.stream.write(CLEAR_LINE)
                self.stream.flush()
        self.say(f"{name}: {stage.result} in {time.perf_counter() - start:.1f} s")
        for detail in stage.details:
            self.say(f"  {detail}", Verbosity.VERBOSE)

    @contextlib.contextmanager
    def bar(self, label: str, total: int) -> Iterator[Callable[[], None]]:
        """A progress bar of `total` steps on a terminal (click's), taken away when it
        ends; elsewhere nothing. Yields the function that counts one step done."""
        if not self.drawing or total < 1:
            yield lambda: None
            return
        import click

        steps = click.progressbar(
            length=total,
            label=label,
            file=self.stream,
            show_pos=True,
            update_min_steps=max(1, total // 100),
        )
        with steps:
            yield lambda: steps.update(1)
        self.stream.write(LINE_UP + CLEAR_LINE)  # click ends its bar with a new line
        self.stream.flush()
        self._show_status()

    def _show_status(self) -> None:
        """On a terminal, the running stage's name on the last line, until it ends."""
        if self.drawing and self._running:
            self.stream.write(f"{CLEAR_LINE}{self._running[-1]} ...")
            self.stream.flush()


SILENT = Progress(verbosity=Verbosity.QUIET, terminal=False)
"""What the stages report to when no command speaks: nothing is written."""
_CURRENT: contextvars.ContextVar[Progress] = contextvars.ContextVar("progress", default=SILENT)


def current() -> Progress:
    """The Progress of the command running in this context (SILENT if none)."""
    return _CURRENT.get()


def notice(text: str) -> None:
    """Say a line that is not progress (what an output leaves out, whom a build waits
    for) at every verbosity, flushed: through the running command's Progress, so it
    clears the status line a terminal shows first; on stderr when no command speaks."""
    running = current()
    if running is SILENT:
        print(text, file=sys.stderr, flush=True)
    else:
        running.say(text, Verbosity.QUIET)


@contextlib.contextmanager
def speaking(progress: Progress) -> Iterator[Progress]:
    """Have the stages run inside report to `progress`."""
    token = _CURRENT.set(progress)
    try:
        yield progress
    finally:
        _CURRENT.reset(token)
