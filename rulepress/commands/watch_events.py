"""The file events a watch follows: watchdog's observer on the compendium folder, each
burst of events (an editor's temporary file, then its rename) gathered into one batch,
bounded in time and in paths."""

from __future__ import annotations

import queue
import time
from collections.abc import Sequence
from pathlib import Path

BURST_QUIET = 0.02
"""Seconds without a new event that end a burst (an editor's save is a few events)."""


BURST_LONGEST = 1.0
"""Seconds a burst may last: a stream of events that never pauses still gives updates."""


BURST_PATHS = 200
"""Distinct paths a burst may name one by one; past that it reads the compendium whole
once, instead of placing each path (work bounded however many files a tool touches:
placing 200 costs about what reading the bundled compendium whole does)."""


class Events:
    """The files changed on disk, from watchdog, as one set per burst."""

    def __init__(self, root: Path, settings: Path) -> None:
        """Watch the compendium folder and the settings file; nothing is noted yet."""
        from watchdog.observers import Observer

        self.paths: queue.SimpleQueue[Path] = queue.SimpleQueue()
        self.root = root.absolute()
        self.singles: set[Path] = set()
        self.observer = Observer()
        self.observer.schedule(self._handler(), str(self.root), recursive=True)
        self.watch_files([settings])

    def _handler(self):
        from watchdog.events import FileSystemEventHandler

        events = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event) -> None:
                if event.event_type in ("opened", "closed_no_write"):
                    return
                if event.is_directory and event.event_type == "modified":
                    return
                for path in (event.src_path, getattr(event, "dest_path", "")):
                    if path:
                        events.offer(Path(path if isinstance(path, str) else path.decode()))

        return Handler()

    def watch_files(self, files: Sequence[Path]) -> None:
        """Watch these files too (the settings file, the files it names)."""
        new = {file.absolute() for file in files} - self.singles
        for folder in sorted({file.parent for file in new}):
            if folder.is_dir() and not folder.is_relative_to(self.root):
                self.observer.schedule(self._handler(), str(folder), recursive=False)
        self.singles |= new

    def offer(self, path: Path) -> None:
        """Queue `path` if it is one the compendium is read from."""
        if path in self.singles or path.is_relative_to(self.root):
            self.paths.put(path)

    def start(self) -> None:
        """Start watching (events from now on are queued)."""
        self.observer.start()

    def stop(self) -> None:
        """Stop watching."""
        self.observer.stop()
        self.observer.join()

    def burst(self, wait: float) -> set[Path]:
        """The paths of the next burst of events, once BURST_QUIET passes without one or
        BURST_LONGEST since its first; empty if none comes within `wait` seconds. Past
        BURST_PATHS paths, only the compendium folder itself: read it whole."""
        try:
            paths = {self.paths.get(timeout=wait)}
        except queue.Empty:
            return set()
        ends = time.monotonic() + BURST_LONGEST
        while time.monotonic() < ends:
            try:
                path = self.paths.get(timeout=BURST_QUIET)
            except queue.Empty:
                break
            if len(paths) <= BURST_PATHS:
                paths.add(path)
        return paths if len(paths) <= BURST_PATHS else {self.root}
