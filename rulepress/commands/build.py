"""`rulepress build`: validate, then run each exporter into its own folder under `out`."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import jinja2

from rulepress import build_stamp
from rulepress.commands.validate import build_summary
from rulepress.compendium.model import Compendium
from rulepress.compendium.settings import settings_file
from rulepress.errors import RulepressError
from rulepress.exporters import Exporter, ExportOptions, available_exporters
from rulepress.exporters.output import (
    output_lock,
    refuse_unless_built,
    replaced_atomically,
)
from rulepress.output_names import safe_child
from rulepress.progress import current
from rulepress.validation import Validation, validate

MODULE_TARGETS = frozenset({"foundry", "site"})
"""The targets that write a Foundry module (the site for its downloads, unless the build
wrote it): their build forks the module's writer before the compendium loads."""


@contextlib.contextmanager
def loaded_objects_frozen() -> Iterator[None]:
    """While a loaded compendium is exported: everything that exists now is left out of
    the cycle collector's scans (gc.freeze). Its millions of long-lived, cycle-free
    objects would otherwise be scanned again and again, a tenth of a rebuild of 10,000
    weapons. Process-wide, so no library call does it: only `rulepress build`'s own
    command, around its exports. Undone on leaving."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def build(
    root: Path | str,
    out: Path | str,
    targets: Sequence[str] = (),
    options: ExportOptions | None = None,
    *,
    cache: bool = False,
    after_writing: Callable[[Validation, list[Path]], None] | None = None,
    settings: Path | None = None,
    validation: Validation | None = None,
) -> tuple[Validation, list[Path]]:
    """Validate `root`; when it has no errors, write each target into `out/<target>`.

    With errors nothing is written. Each target's folder is replaced whole, so a failed
    export leaves the previous output as it was. With `cache`, documents come from the
    document cache.
    `after_writing` runs while the output lock is still held (stamped_build stamps the
    build there: the outputs are still its own). `settings` names the publisher's
    settings file (default: rulepress.yaml beside `root`). `validation`, one already made
    of `root` (build --watch's live compendium), is used instead of validating again.
    """
    options = options or ExportOptions()
    exporters = available_exporters()
    unknown = [t for t in targets if t not in exporters]
    if unknown:
        raise RulepressError(f"unknown target {unknown[0]!r}; known: {', '.join(exporters)}")
    chosen = list(targets or exporters)
    with _writer_forked_early(validation is None and not MODULE_TARGETS.isdisjoint(chosen)):
        if validation is None:
            validation = validate(root, cache=cache, settings=settings)
        if not validation.ok:
            return validation, []
        out = Path(out)
        _refuse_overlap(Path(root), out, chosen)
        chosen_exporters = [exporters[name] for name in chosen]
        written = _write_targets(validation, out, chosen_exporters, options, after_writing)
    return validation, written


def _writer_forked_early(wanted: bool) -> contextlib.AbstractContextManager:
    """A module's writer forked now, while this process is small (module_writer says why)."""
    if not wanted:
        return contextlib.nullcontext()
    from rulepress.exporters.foundry.module_writer import writer_forked_early

    return writer_forked_early()


def _write_targets(
    validation: Validation,
    out: Path,
    chosen: list[Exporter],
    options: ExportOptions,
    after_writing: Callable[[Validation, list[Path]], None] | None,
) -> list[Path]:
    """Write each chosen target into `out/<target>`, in order, then run `after_writing`
    while the output lock is held; the folders written."""
    if out.exists() and not out.is_dir():
        raise RulepressError(f"output path is not a folder: {out}")
    if out.resolve() == Path(out.resolve().anchor):
        raise RulepressError(f"refusing to write outputs into the file system's root {out}")
    for exporter in chosen:  # before anything is written, even the lock
        refuse_unless_built(safe_child(out, exporter.name))
    written = []
    with output_lock(out, "build"), loaded_objects_frozen():
        for exporter in chosen:  # refuse early, before any target is written
            if safe_child(out, exporter.name).is_dir():
                exporter.check_replaceable(safe_child(out, exporter.name))
        for exporter in chosen:
            target = safe_child(out, exporter.name)
            built = {path.name: path for path in written}  # the site copies its downloads
            with current().stage(exporter.name) as stage:  # its line says what it wrote
                exported = dataclasses.replace(options, built=built)
                _export(exporter, validation.compendium, target, exported)
                stage.result, stage.details = _written_said(target)
            written.append(target)
        if after_writing is not None:
            after_writing(validation, written)
    return written


def stamped_build(
    root: Path,
    out: Path,
    targets: Sequence[str],
    options: ExportOptions,
    argv: list[str],
    *,
    force: bool = False,
    cache: bool = True,
    settings: Path | None = None,
) -> tuple[Validation, list[Path]]:
    """The build `rulepress build` runs with the command line `argv`: cached unless told
    not to, and then stamped (rulepress.build_stamp), so that the launcher answers the
    same command from the stamp while nothing it read or wrote changes. `force` builds
    all the same and stamps the build as the same command without --force."""
    # what the build is about to read, taken before it starts: an edit made while it
    # runs is seen next time
    # (the site's assets are package data: the package's digests cover them)
    others = [str(options.templates)] if options.templates else []
    inputs = build_stamp.snapshot(str(root), others, [str(settings_file(root, settings))])
    argv = [arg for arg in argv if not (force and arg == "--force")]

    def stamp(validation: Validation, written: list[Path]) -> None:
        # the files the settings name, by the bytes this build used
        inputs["single"].update(validation.compendium.settings.asset_digests())
        report = [build_summary(validation, root)]
        report += [
            f"up to date: {path} (nothing changed; --force builds again)" for path in written
        ]
        build_stamp.record(argv, inputs, [str(path) for path in written], report)

    return build(
        root,
        out,
        targets,
        options,
        cache=cache,
        after_writing=stamp if cache else None,
        settings=settings,
    )


def _export(
    exporter: Exporter,
    compendium: Compendium,
    target: Path,
    options: ExportOptions,
) -> None:
    """Replace `target` with the exporter's new output, or leave it as it was."""
    try:
        with replaced_atomically(target) as staging:
            exporter.export(compendium, staging, options)
    except jinja2.TemplateError as exc:
        raise _template_problem(exc) from None


def _written_said(target: Path) -> tuple[str, list[str]]:
    """What a target wrote: its files and bytes, and for --verbose the same of each of
    its folders (a Foundry module's packs, the site's sections), any exporter's alike."""
    folders: dict[Path, list[int]] = {}
    for path in sorted(target.rglob("*")):
        if path.is_file() and not path.is_symlink():
            counted = folders.setdefault(path.parent, [0, 0])
            counted[0] += 1
            counted[1] += path.stat().st_size
    files = sum(count for count, _ in folders.values())
    size = sum(size for _, size in folders.values())
    details = [f"{folder}: {_files_and_bytes(*folders[folder])}" for folder in sorted(folders)]
    return f"wrote {target}, {_files_and_bytes(files, size)}", details


def _files_and_bytes(files: int, size: int) -> str:
    return f"{files:,} file{'s' if files != 1 else ''}, {_bytes(size)}"


def _bytes(size: int) -> str:
    if size < 1000:
        return f"{size:,} bytes"
    return f"{size / 1000:.1f} kB" if size < 1000**2 else f"{size / 1000**2:,.1f} MB"


def _template_problem(exc: jinja2.TemplateError) -> RulepressError:
    """A template (most likely one of --templates) that fails: its file and line. Jinja
    puts the template's own file and line into the traceback of a failed render."""
    place = None
    if isinstance(exc, jinja2.TemplateSyntaxError) and exc.filename:
        place = f"{exc.filename}:{exc.lineno}"
    traceback = exc.__traceback__
    while traceback is not None:
        code = traceback.tb_frame.f_code
        if code.co_filename.endswith(".j2"):
            place = f"{code.co_filename}:{traceback.tb_lineno}"
        traceback = traceback.tb_next
    message = exc.message or type(exc).__name__
    return RulepressError(f"{place or 'a template'}: template error: {message}")


def _refuse_overlap(root: Path, out: Path, targets: list[str]) -> None:
    """Replacing a target folder must never touch the compendium it was built from."""
    compendium = root.resolve()
    for name in targets:
        target = (out / name).resolve()
        if (
            target == compendium
            or compendium.is_relative_to(target)
            or target.is_relative_to(compendium)
        ):
            raise RulepressError(
                f"output {out / name} overlaps the compendium {root}; choose another --out"
            )
