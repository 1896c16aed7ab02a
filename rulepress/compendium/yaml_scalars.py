"""The scalars of the YAML 1.2 core schema, built from their text by tag: what a
compendium's YAML may hold (yaml_source resolves each plain scalar's tag first)."""

from __future__ import annotations

CORE = "tag:yaml.org,2002:"
MAX_DIGITS = 30  # no figure of a game needs more; printing a huge one is costly in Python


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise ValueError("too many digits")
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text)  # Python refuses more than 4,300 digits with ValueError


def _float(text: str) -> float:
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return float("-inf") if lowered.startswith("-") else float("inf")
    if lowered == ".nan":
        return float("nan")
    return float(text)


def _bool(text: str) -> bool:
    if text.lower() not in ("true", "false"):
        raise ValueError(text)
    return text.lower() == "true"


def _null(text: str) -> None:
    if text not in ("", "~", "null", "Null", "NULL"):
        raise ValueError(text)


CONSTRUCTORS = {
    f"{CORE}str": str,
    f"{CORE}int": _int,
    f"{CORE}float": _float,
    f"{CORE}bool": _bool,
    f"{CORE}null": _null,
}
