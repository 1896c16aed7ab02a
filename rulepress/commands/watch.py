"""`rulepress build --watch`: build once, then keep the outputs following each saved file.

The compendium stays in memory (rulepress.live.LiveCompendium). A burst of file events
(an editor writes a temporary file, then renames it) is taken as one batch after a few
milliseconds of quiet; the batch updates the compendium, and then each target: one whose
exporter has a live form (`Exporter.live`: the built-in foundry, markdown and json
targets, a plugin's that offers one) in place, only the rulesets that changed and only
the files whose bytes changed; any other target whole, as a build writes it. A
compendium with errors changes nothing: its findings are printed and the outputs keep
the last good state. When the events stop for a moment, and however the watch ends (a
signal, the compendium folder moved away, an error), the foundry modules' packs and
release zips are written as a fresh build writes them; what could not be is said, and
the exit status is then 1.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import click

from rulepress.commands.build import build
from rulepress.commands.validate import format_findings
from rulepress.commands.watch_events import Events
from rulepress.compendium.model import Compendium
from rulepress.compendium.settings import settings_file
from rulepress.errors import RulepressError, printable
from rulepress.exporters import (
    Exporter,
    ExportOptions,
    LiveExporter,
    available_exporters,
    live_form,
)
from rulepress.exporters.output import (
    MARKER_NAME,
    BuildLock,
    marker_text,
    output_lock,
    replaced_atomically,
)
from rulepress.exporters.output_folder import OutputFolder
from rulepress.exporters.pieces import steady
from rulepress.live import Changes, LiveCompendium, Update
from rulepress.output_names import safe_child

FINISH_QUIET = 1.0
"""Seconds without an event before the work left for a quiet moment is done (zips)."""
WATCH_REFUSES = ("site",)


def watched_targets(targets: Sequence[str]) -> tuple[list[str], str | None]:
    """The targets a watch run keeps up to date, and a note on what it leaves out. The
    site is `rulepress serve`'s: asked for by name, it is refused."""
    exporters = available_exporters()
    unknown = [t for t in targets if t not in exporters]
    if unknown:
        raise RulepressError(f"unknown target {unknown[0]!r}; known: {', '.join(exporters)}")
    if any(t in WATCH_REFUSES for t in targets):
        raise RulepressError(
            "build --watch does not keep the site up to date: `rulepress serve` does "
            "(or build the site with `rulepress build --target site`)"
        )
    if targets:
        return list(dict.fromkeys(targets)), None
    chosen = [name for name in exporters if name not in WATCH_REFUSES]
    return chosen, "the site is left out of --watch (rulepress serve keeps it up to date)"


class Watch:
    """The outputs of `targets` in `out`, following a LiveCompendium."""

    def __init__(
        self,
        live: LiveCompendium,
        out: Path,
        targets: Sequence[str],
        options: ExportOptions,
    ) -> None:
        """Nothing is written until the first update; each target's live form is made once."""
        self.live, self.out, self.options = live, out, options
        self.output = OutputFolder(out)
        self.lock: BuildLock | None = None
        """The output folder's lock, once the watch holds it (held again if removed)."""
        exporters = available_exporters()
        self.targets = {name: exporters[name] for name in targets}
        self.updaters: dict[str, LiveExporter | None] = {}
        self.behind: set[str] = set()
        """Targets an update failed to write: exported whole on the next change."""
        self.failed = False
        """The last update found errors (its fix is reported even if it changes nothing)."""
        self.folder = _identity(live.root)
        """The compendium folder watched: another one at its path is not followed."""
        for name, exporter in self.targets.items():
            self.updaters[name] = live_form(exporter, self.output, safe_child(out, name), options)

    def prime(self) -> None:
        """Render every piece of every target once, before the first save: the build
        before the watch kept none, and the first save would otherwise render them all.
        Nothing on disk changes: the build just wrote the same bytes."""
        current = self.live.validation.compendium
        for updater in self.updaters.values():
            if updater is not None:
                updater.update(current, sorted(current.rulesets), [])

    def apply(self, update: Update) -> list[str]:
        """Bring every target up to date with an update without errors; return the
        problems met (a target that failed is written whole next time)."""
        changes = update.changes
        assert changes is not None  # only an update without errors is applied
        problems = []
        for name, exporter in self.targets.items():
            try:
                self._apply_to(name, exporter, changes)
                self.behind.discard(name)
            except (RulepressError, OSError) as exc:
                self.behind.add(name)
                problems.append(f"{name}: {_reason(exc)}")
        return problems

    def _apply_to(self, name: str, exporter: Exporter, changes: Changes) -> None:
        updater = self.updaters[name]
        current = changes.current
        target = safe_child(self.out, name)
        if updater is None or changes.settings or name in self.behind or self._gone(target):
            self._write_whole(name, exporter, current)
            return
        existing = set(current.rulesets)
        redo = set(changes.documents) | (changes.rulesets & existing)
        steady_ones = {
            ruleset_id
            for ruleset_id, changed in changes.documents.items()
            if steady(changes.previous.ruleset(ruleset_id), current.ruleset(ruleset_id), changed)
        }
        updater.update(current, sorted(redo), sorted(changes.rulesets - existing), steady_ones)

    def _write_whole(self, name: str, exporter: Exporter, current: Compendium) -> None:
        if self.lock is not None:  # `rm -rf dist` took the lock file too
            self.lock.renew()
        target = safe_child(self.out, name)
        exporter.check_replaceable(target)
        with replaced_atomically(target, output=self.output) as staging:
            exporter.export(current, staging, self.options)
        if self.updaters[name] is not None:  # what it kept describes the replaced output
            self.updaters[name] = live_form(exporter, self.output, target, self.options)

    def _gone(self, target: Path) -> bool:
        """Whether the target's folder no longer holds the build's mark (removed with
        `rm -rf dist`): what its live form kept no longer describes it, so it is written
        whole. A link in its place is refused by the whole write."""
        try:
            return self.output.read(target / MARKER_NAME) != marker_text(target)
        except RulepressError:
            return True

    def finish(self) -> list[str]:
        """Do the work left for a quiet moment; return the problems met (each target's
        own: one failing leaves the others to finish, and is written whole on the next
        change)."""
        problems = []
        for name, updater in self.updaters.items():
            if updater is None:
                continue
            try:
                if self._gone(safe_child(self.out, name)):  # removed since: made again whole
                    self._write_whole(name, self.targets[name], self.live.validation.compendium)
                else:
                    updater.finish()
            except (RulepressError, OSError) as exc:
                self.behind.add(name)
                problems.append(f"{name}: {_reason(exc)}")
        return problems

    def gone(self) -> str | None:
        """Why the compendium can no longer be followed (its folder moved, deleted or
        replaced by another), or None while it can."""
        if _identity(self.live.root) == self.folder:
            return None
        return (
            f"the compendium folder {printable(str(self.live.root))} was moved, deleted or "
            "replaced; the watch ends"
        )

    def follow(self, paths: set[Path], say, warn) -> bool:
        """Take one burst of changed paths: update the compendium, then print the outcome
        and apply it; return whether outputs were written. CompendiumGone when the
        folder is gone."""
        started = time.perf_counter()
        try:
            update = self.live.update(paths)
        except (RulepressError, OSError) as exc:  # the folder went during the read
            gone = self.gone()
            if gone is not None:
                raise CompendiumGone(gone) from None
            warn(
                f"rulepress: cannot read the compendium: {_reason(exc)}; kept the last good output"
            )
            self.failed = True
            return False
        return _follow(self, update, list(self.targets), warn, say, started)


class CompendiumGone(RulepressError):
    """The compendium folder watched is no longer there: the watch ends."""


def _identity(folder: Path) -> tuple[int, int] | None:
    """Which folder is at `folder` (device and inode), None if none is."""
    try:
        status = os.stat(folder)
    except OSError:
        return None
    return (status.st_dev, status.st_ino) if os.path.isdir(folder) else None


def _reason(exc: Exception) -> str:
    """An error in one line, for a message (an OSError as its text and file)."""
    if isinstance(exc, OSError):
        where = f" ({printable(str(exc.filename))})" if exc.filename else ""
        return f"{exc.strerror or exc}{where}"
    return printable(str(exc))


def run_watch(
    root: Path,
    out: Path,
    targets: Sequence[str],
    options: ExportOptions,
    *,
    settings: Path | None = None,
    say: Callable[[str], None] = click.echo,
    warn: Callable[[str], None] = lambda text: click.echo(text, err=True),
) -> int:
    """Build `targets` into `out`, then follow the compendium until SIGINT or SIGTERM;
    return the exit status (1 if the first build found errors, else 0)."""
    chosen, note = watched_targets(targets)
    if note:
        say(note)
    stopping = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stopping.set()) for sig in _STOP_SIGNALS}
    try:
        return _watch(root, out, chosen, options, settings, stopping, say, warn)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _watch(root, out, chosen, options, settings, stopping, say, warn) -> int:
    events = Events(root, settings_file(root, settings))
    events.start()  # before anything is read: an edit made from now on is seen
    try:
        live = LiveCompendium(root, settings=settings)
        events.watch_files([Path(p) for p in live.validation.compendium.settings.asset_digests()])
        if not live.validation.ok:
            warn(format_findings(live.validation, "text", relative_to=Path.cwd()))
            warn("build stopped: fix the errors above; nothing was written")
            return 1
        # the live compendium is what is built: the folder is loaded and checked once
        build(root, out, chosen, options, validation=live.validation)
        with output_lock(out, "build --watch") as lock:
            watch = Watch(live, out, chosen, options)
            watch.lock = lock
            watch.prime()
            say(f"watching {printable(str(root))} (Ctrl-C ends); writing {', '.join(chosen)}")
            return follow_events(watch, events, stopping, say, warn)
    finally:
        events.stop()


def follow_events(watch: Watch, events, stopping: threading.Event, say, warn) -> int:
    """Follow each burst of `events` (anything with Events.burst) until `stopping` is
    set or the compendium folder goes; however it ends, even by an error, the work left
    for a quiet moment is done before it returns. The exit status: 0, or 1 when the
    folder went or that work could not all be done (said, with what to run)."""
    status = 0
    try:
        _loop(watch, events, stopping, say, warn)
    except CompendiumGone as gone:
        warn(f"rulepress: {gone}")
        status = 1
    finally:
        left = watch.finish()
        _report(left, warn)
        if left:
            warn(
                f"rulepress: the outputs in {printable(str(watch.out))} may differ from a "
                "fresh build's (above); `rulepress build` writes them afresh"
            )
    return 1 if left else status


def _loop(watch: Watch, events, stopping, say, warn) -> None:
    unfinished = False
    while not stopping.is_set():
        gone = watch.gone()  # moved away, no event may say so: its watch went with it
        if gone is not None:
            raise CompendiumGone(gone)
        paths = events.burst(FINISH_QUIET if unfinished else 0.2)
        if not paths:
            if unfinished:
                _report(watch.finish(), warn)
                unfinished = False
            continue
        unfinished |= watch.follow(paths, say, warn)


def _follow(watch: Watch, update: Update, chosen, warn, say, started: float) -> bool:
    """Print an update's outcome and apply it; return whether outputs were written."""
    if not update.ok:
        warn(format_findings(update.attempt, "text", relative_to=Path.cwd()))
        warn("rulepress: the compendium has errors; kept the last good output")
        watch.failed = True
        return False
    recovered, watch.failed = watch.failed, False
    if update.changes.empty and not recovered:
        return False
    problems = watch.apply(update)
    if problems:
        _report(problems, warn)
        return True
    say(f"rebuilt {', '.join(chosen)} in {time.perf_counter() - started:.3f} s")
    return True


def _report(problems: list[str], warn) -> None:
    for problem in problems:
        warn(f"rulepress: {problem}")
