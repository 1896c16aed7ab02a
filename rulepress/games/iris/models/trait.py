"""IRIS traits (seed 003): the five ranks a skill test adds the higher of two from."""

from __future__ import annotations

from typing import Literal

from rulepress.plugin import Document, Name, Text


class Trait(Document):
    """An IRIS trait such as Acuity; skills name two traits each."""

    KIND = "trait"
    kind: Literal["trait"]
    name: Name
    order: int
    text: Text | None = None
