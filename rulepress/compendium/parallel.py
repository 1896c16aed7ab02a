"""A large compendium's files read on every core: parsing and validating them is nearly
all of a cold build's load, and one core does it (libyaml and pydantic hold the GIL).

`read_all(paths, read)` gives `read(path)` for each path, in their order, as one process
would. With enough files, more than one core and no other thread, it forks workers, and
every process takes batches of paths from one queue until none is left, so a slower
process simply takes fewer. The queue is a pipe of batch numbers, four bytes each, which
the kernel hands out whole, each to one reader. A worker sends back what its batches
gave, pickled, through a pipe only it and this process hold. What is unpickled is what
our own forked worker made of the files (validated documents, findings), never bytes
from the compendium or from disk, and only after the worker exited cleanly. A worker
that fails in any way (a bug, a plugin's model that cannot be pickled, a killed process)
is as if it had not been: its batches are read here, so the outcome, an exception
included, is the one-process one.

Forked, not spawned: a worker starts in no time and knows the kinds this process knows,
a plugin registered in-process included. Never with another thread running (a watch's,
a server's): a fork copies only the thread that forks, and a lock another held would
stay held in the child.
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

PARALLEL_FROM = 1000
"""Fewer files than this are read in this process: a fork and the pickling cost more
than they save below it (the bundled compendium's 144 files take 0.1 s)."""
MOST_PROCESSES = 4
"""This process and at most three workers: past that, unpickling the workers' results,
which this process does alone, costs more than the cores save."""
BATCH = 32
"""Paths taken from the queue at a time: few enough that the processes end together."""
TICKET = 4
"""Bytes of a batch number in the queue (at most PIPE_BUF, so each is read whole)."""


def read_all(
    paths: Sequence[Path],
    read: Callable[[Path], T],
    step: Callable[[], None] = lambda: None,
    *,
    processes: int | None = None,
) -> list[T]:
    """`[read(path) for path in paths]`, shared with forked workers: in `processes` in
    all, else in as many as pay (`processes_for`; see the module's docstring). `step()`
    is called in this process once for each path read, whichever process read it."""
    batches = [paths[start : start + BATCH] for start in range(0, len(paths), BATCH)]
    done: dict[int, list[T]] = {}

    def read_batch(number: int) -> None:
        results = []
        for path in batches[number]:
            results.append(read(path))
            step()
        done[number] = results

    if processes is None:
        processes = processes_for(len(paths))
    if processes < 2 or not hasattr(os, "fork"):
        for number in range(len(batches)):
            read_batch(number)
        return [result for number in range(len(batches)) for result in done[number]]
    queue = _Queue(len(batches))
    workers: list[_Worker] = []
    try:
        workers = [_Worker.start(queue, batches, read) for _ in range(processes - 1)]
        queue.close_writing()
        while (number := queue.take()) is not None:
            read_batch(number)
        for worker in workers:
            for number, results in (worker.result() or {}).items():
                done[number] = results
                for _ in results:
                    step()
    finally:
        queue.close()
        for worker in workers:
            worker.stop()
    for number in range(len(batches)):
        if number not in done:  # a failed worker's, read here
            read_batch(number)
    return [result for number in range(len(batches)) for result in done[number]]


def processes_for(files: int) -> int:
    """How many processes read `files` files: 1 unless forking is possible and pays."""
    if files < PARALLEL_FROM or not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cores or 1, MOST_PROCESSES, files // (PARALLEL_FROM // 2)))


class _Queue:
    """Batch numbers in a pipe, for every process to take from until it is empty."""

    def __init__(self, batches: int) -> None:
        """The pipe filled with every batch number (its buffer holds 16,384 of them; a
        compendium of more batches than that is read in this process past them)."""
        self.reading, writing = os.pipe()
        os.set_blocking(writing, False)
        self.writing: int | None = writing
        tickets = b"".join(number.to_bytes(TICKET, "big") for number in range(batches))
        try:
            written = os.write(writing, tickets)
        except BlockingIOError:
            written = 0
        written -= written % TICKET  # a ticket cut in two is read by no one
        self.left = range(written // TICKET, batches)
        """The batches that did not fit: this process reads them after the queue."""

    def close_writing(self) -> None:
        """Once the workers hold the queue: an empty queue then reads as empty."""
        if self.writing is not None:
            os.close(self.writing)
            self.writing = None

    def take(self) -> int | None:
        """The next batch number, or None once the queue is empty."""
        ticket = os.read(self.reading, TICKET)
        if len(ticket) == TICKET:
            return int.from_bytes(ticket, "big")
        if self.left:
            number, self.left = self.left[0], self.left[1:]
            return number
        return None

    def close(self) -> None:
        self.close_writing()
        if self.reading != -1:
            os.close(self.reading)
            self.reading = -1


class _Worker:
    """A forked process reading batches from the queue, and the pipe its results come by."""

    def __init__(self, pid: int, pipe: int) -> None:
        self.pid, self.pipe = pid, pipe
        self.reaped = False

    @classmethod
    def start(cls, queue: _Queue, batches: list, read: Callable[[Path], T]) -> _Worker:
        readable, writable = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: read, send, and leave without running this process's exits
            status = 1
            try:
                os.close(readable)
                queue.close_writing()
                queue.left = range(0)  # those are this process's
                done = {}
                while (number := queue.take()) is not None:
                    done[number] = [read(path) for path in batches[number]]
                data = pickle.dumps(done, pickle.HIGHEST_PROTOCOL)
                with open(writable, "wb", closefd=True) as pipe:
                    pipe.write(data)
                status = 0
            finally:
                os._exit(status)  # nothing of this process's (its exits, its buffers) runs twice
        os.close(writable)
        return cls(pid, readable)

    def result(self) -> dict[int, list] | None:
        """What the worker's batches gave, or None if it did not finish cleanly."""
        with open(self.pipe, "rb", closefd=True) as pipe:
            self.pipe = -1
            data = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        self.reaped = True
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
            return None
        try:
            return pickle.loads(data)
        except Exception:  # a plugin's model that does not unpickle: read here instead
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
