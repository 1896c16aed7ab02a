"""Work done beside this process on another core: a forked worker, and its result.

Parsing and validating a large compendium hold the GIL, so a second core helps only as
a second process (rulepress.compendium.parallel); so does writing a module's files,
kernel and library time a thread would pay again in the GIL
(exporters.foundry.module_writer, which forks with `fork`). `Forked.start(work)` runs
`work()` in a forked child; `result()` is what it returned, pickled by the child through
a pipe only the two processes hold and unpickled here only after the child exited
cleanly: what comes back is what our own code made (validated documents, findings),
never bytes of the compendium or from disk. A worker that fails in any way (a bug, a
result pickle cannot write, a killed process) gives None, and the caller does the work
itself, so the outcome, an error included, is the one-process one.

Forked, not spawned: a worker starts in no time and knows what this process knows (the
kinds, a plugin registered in-process). Never with another thread running (a watch's, a
server's, LevelDB's): a fork copies only the thread that forks, and a lock another held
would stay held in the child. Only where the system says how many threads a process has
(Linux); elsewhere everything is done in one process (`can_fork`).
"""

from __future__ import annotations

import os
import pickle
import signal
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

MOST_PROCESSES = 4
"""This process and at most three workers: past that, unpickling the workers' results,
which this process does alone, costs more than the cores save."""


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether a worker may be forked: a second core, and a system that forks and says
    how many threads this process has (Linux), none but this one: no thread of Python's
    nor of a library's (LevelDB's compaction thread, once a pack was written: a child
    would wait for it forever)."""
    return hasattr(os, "fork") and cores() > 1 and threads() == 1


def threads() -> int | None:
    """This process's threads, native ones included; None where the system does not say."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return None


def fork(run: Callable[[], None]) -> int:
    """Fork a child that runs `run()` and leaves, with status 0 (1 if it raised), without
    running this process's exits or flushing its buffers (they would run twice); the
    child's pid."""
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            run()
            status = 0
        finally:
            os._exit(status)
    return pid


class Forked(Generic[T]):
    """A forked process doing `work()`, and the pipe its result comes by."""

    def __init__(self, pid: int, pipe: int) -> None:
        """The worker `pid`, its result to come through `pipe` (see `start`)."""
        self.pid, self.pipe = pid, pipe
        self.reaped = False

    @classmethod
    def start(cls, work: Callable[[], T]) -> Forked[T]:
        """Fork a worker doing `work()`; this process goes on at once."""
        readable, writable = os.pipe()

        def send() -> None:
            os.close(readable)
            data = pickle.dumps(work(), pickle.HIGHEST_PROTOCOL)
            with open(writable, "wb", closefd=True) as pipe:
                pipe.write(data)

        pid = fork(send)
        os.close(writable)
        return cls(pid, readable)

    def result(self) -> T | None:
        """What `work()` returned (never None), once the worker ended; None if it did
        not end cleanly."""
        with open(self.pipe, "rb", closefd=True) as pipe:
            self.pipe = -1
            data = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        self.reaped = True
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
            return None
        try:
            return pickle.loads(data)
        except Exception:  # a plugin's object that does not unpickle: done here instead
            return None

    def stop(self) -> None:
        """End the worker if it is still there (this process was interrupted or failed)."""
        if self.pipe != -1:
            os.close(self.pipe)
            self.pipe = -1
        if not self.reaped:  # until it is, its pid is its own: the kill reaches only it
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.reaped = True
