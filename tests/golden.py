"""Golden files: compare an output with its pinned copy under tests/golden/.

Run the tests with UPDATE_GOLDEN=1 to rewrite the pinned copies after an intended change,
then read the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"


def assert_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no golden file {path}; run with UPDATE_GOLDEN=1 to create it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from its golden file (UPDATE_GOLDEN=1 rewrites it)"
