"""Which files a compendium folder holds: its ruleset folders, and each one's YAML files
in a stable order. What cannot be read safely is refused with a finding, never walked
into or read: a link leading out of the compendium (or into a `.git`), a name that is not
UTF-8, a document outside any ruleset folder."""

from __future__ import annotations

import os
from pathlib import Path

from rulepress.errors import Code, Finding, Level
from rulepress.files import link_refusal

YAML_SUFFIXES = (".yaml", ".yml")
RULESET_FILE = "ruleset.yaml"


def refused(path: Path, message: str, code: Code = Code.OUTSIDE_COMPENDIUM) -> Finding:
    """An error at the file's first line: what a refused file or folder is reported as."""
    return Finding(Level.ERROR, code, message, path, 1, 1)


def _name_not_utf8(path: Path, what: str = "file") -> Finding | None:
    """A file or folder whose name is not UTF-8 is refused: no output could name it."""
    try:
        path.name.encode("utf-8")
    except UnicodeEncodeError as exc:  # os.fsdecode kept the bad byte as a surrogate
        byte = ord(path.name[exc.start]) - 0xDC00
        return refused(
            path,
            f"{what} name is not UTF-8: byte 0x{byte:02x} cannot be decoded; rename it",
            Code.NOT_UTF8,
        )
    return None


def ruleset_folders(root: Path, findings: list[Finding]) -> list[Path]:
    """The ruleset folders (those with a `ruleset.yaml`) right below `root`, sorted."""
    folders = []
    for child in sorted(root.iterdir()):
        if child.name.startswith("."):
            continue
        bad_name = _name_not_utf8(child, "folder" if child.is_dir() else "file")
        refusal = link_refusal(child, root)
        if bad_name is not None:
            findings.append(bad_name)
        elif refusal is not None:
            findings.append(refused(child, refusal))
        elif child.is_dir():
            if (child / RULESET_FILE).exists():
                folders.append(child)
            elif any(_yaml_files(root, child, [])):
                findings.append(
                    refused(
                        child / RULESET_FILE,
                        f"folder has YAML files but no {RULESET_FILE}",
                        Code.NO_RULESET,
                    )
                )
        elif child.suffix in YAML_SUFFIXES:
            findings.append(refused(child, "document outside any ruleset folder", Code.NO_RULESET))
    return folders


def _yaml_files(root: Path, folder: Path, findings: list[Finding]):
    """YAML files below `folder` in a stable order. Links leaving `root` (or entering a
    `.git`) are refused, and so are names that are not UTF-8."""
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        for name in sorted(dirnames):
            refusal = link_refusal(Path(dirpath) / name, root)
            if refusal is not None:
                findings.append(refused(Path(dirpath) / name, refusal))
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in list(dirnames):
            bad_name = _name_not_utf8(Path(dirpath) / name, "folder")
            if bad_name is not None:  # reported once, not walked into
                findings.append(bad_name)
                dirnames.remove(name)
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if not name.endswith(YAML_SUFFIXES) or name.startswith("."):
                continue
            refusal = _name_not_utf8(path) or link_leaving(path, root)
            if refusal is not None:
                findings.append(refusal)
                continue
            yield path  # read by read_inside, which refuses a pipe or a device


def link_leaving(path: Path, root: Path) -> Finding | None:
    """A link that leads out of the compendium (or nowhere) is refused, never read."""
    refusal = link_refusal(path, root)
    return None if refusal is None else refused(path, refusal)


def ruleset_document_files(root: Path, folder: Path, findings: list[Finding]) -> list[Path]:
    """The document files of a ruleset folder in the walk's (stable) order, without its
    `ruleset.yaml`; what the walk refuses goes to `findings`."""
    return [path for path in _yaml_files(root, folder, findings) if path != folder / RULESET_FILE]
