"""Shared fixtures: the bundled compendium, the source texts, throwaway compendium trees."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.commands.validate import Validation, validate

REPO = Path(__file__).resolve().parents[1]
COMPENDIUM = REPO / "compendium"
SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"


@pytest.fixture(scope="session")
def bundled() -> Validation:
    """The bundled compendium, loaded and checked once per test session."""
    return validate(COMPENDIUM)


@pytest.fixture(scope="session")
def seed_text():
    def read(name: str) -> str:
        return (SEEDS / name).read_text(encoding="utf-8")

    return read


def build_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `files` (relative path -> text or bytes) under `root`; return `root`."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root
