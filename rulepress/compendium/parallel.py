"""A large compendium's files read on every core: parsing and validating them is nearly
all of a cold build's load, and one core does it (libyaml and pydantic hold the GIL).

`read_all(paths, read)` gives `read(path)` for each path, in their order, as one process
would. With enough files it forks workers (rulepress.forking), and every process takes
batches of paths from one queue until none is left, so a slower process simply takes
fewer. The queue is a pipe of batch numbers, four bytes each, which the kernel hands out
whole, each to one reader. A worker's batches that do not come back (it failed) are read
here.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TypeVar

from rulepress.forking import MOST_PROCESSES, Forked, can_fork, cores

T = TypeVar("T")

PARALLEL_FROM = 1000
"""Fewer files than this are read in this process: a fork and the pickling cost more
than they save below it (the bundled compendium's 144 files take 0.1 s)."""
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

    def here(path: Path) -> T:
        result = read(path)
        step()
        return result

    if processes is None:
        processes = processes_for(len(paths))
    if processes < 2 or not hasattr(os, "fork"):
        return [here(path) for path in paths]
    batches = [paths[start : start + BATCH] for start in range(0, len(paths), BATCH)]
    done: dict[int, list[T]] = {}

    def read_batch(number: int) -> None:
        done[number] = [here(path) for path in batches[number]]

    queue = _Queue(len(batches))
    workers: list[Forked] = []
    try:
        work = partial(_worker_batches, queue, batches, read)
        workers = [Forked.start(work) for _ in range(processes - 1)]
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
    if files < PARALLEL_FROM or not can_fork():
        return 1
    return min(cores(), MOST_PROCESSES, files // (PARALLEL_FROM // 2))


def _worker_batches(queue: _Queue, batches: list, read: Callable[[Path], T]) -> dict:
    """In a worker: batch number -> what its paths gave, for every batch it takes."""
    queue.close_writing()
    queue.left = range(0)  # those are the parent's
    return {number: [read(path) for path in batches[number]] for number in iter(queue.take, None)}


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
