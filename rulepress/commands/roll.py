"""`rulepress roll`: resolve one test with given faces or a seeded roll, the rules' way.

Each function returns plain data (what `--json` prints); the CLI formats it for people.
Given faces are resolved as they are; otherwise the dice are rolled with
`random.Random(seed)`, so the same seed gives the same result.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulepress.errors import RulepressError


def check_faces(option: str, faces: Sequence[int], sides: Sequence[int], needs: str) -> None:
    """Faces given with `option`, one for each die of `sides`: the right count, each on its
    die. `needs` says how many are needed ("rank 2 rolls 2 dice")."""
    if len(faces) != len(sides):
        given = "1 face" if len(faces) == 1 else f"{len(faces)} faces"
        raise RulepressError(f"{option}: {needs}, {given} given")
    for face, size in zip(faces, sides, strict=True):
        if not 1 <= face <= size:
            raise RulepressError(f"{option}: a d{size} cannot show {face}")


def dice_count(count: int) -> str:
    """A number of dice in words: "1 die", "3 dice"."""
    return "1 die" if count == 1 else f"{count} dice"


def faces_text(faces: Sequence[int]) -> str:
    """Faces rolled as a list for people: "6, 2, 1" ("no dice" for none)."""
    return ", ".join(map(str, faces)) or "no dice"
