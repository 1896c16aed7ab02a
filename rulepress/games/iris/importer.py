"""Parse weapon profiles out of a quick-reference wiki page (the seed-003 text format).

The page is plain text: headings on lines of their own, then for each weapon

    Weapon Profile - Salvaged Pistol (Tier 1)
    Salvaged Pistol
    Magazine: 3<TAB>Reload: 3<TAB>Weight: 2<TAB>Cost: 1Bar<TAB>Rarity: Ubiquitous
    AP<TAB>Damage<TAB>Defense<TAB>Move<TAB>Range
    1<TAB>1<TAB>1<TAB>-5<TAB>10   (30 rows; a placeholder prints the AP column only)

or the same table as Markdown (`| AP | Damage | Defense | Move | Range |`, its separator
row `| --- | ... |`, then a row per AP), read by rulepress.plugin's `read_markdown_table`.

A heading directly above a profile names its section; a heading directly above that
heading names the group the following sections belong to, until a heading that ends
in "Weapons" starts a new top-level section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from rulepress.plugin import SourceFormatError, is_table_row, read_markdown_table

HEADER = "Weapon Profile - "
# Numbers in ASCII digits and of a bounded length: str.isdigit() and int() also take
# superscripts, fullwidth and other scripts' digits, and int() refuses 4,300 digits.
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")
STAT = re.compile(r"^(?P<label>[A-Za-z]+):\s*(?P<value>.*)$")
COLUMNS = ("AP", "Damage", "Defense", "Range")
MOVE_LABELS = ("Move", "Speed")


class WikiFormatError(SourceFormatError):
    """A page that does not follow the format, pointing at its line like a finding
    (`page:line:1`; a Markdown table's problems are SourceFormatErrors at their column)."""


def profile_header(line: str) -> tuple[str, str] | None:
    """(name, tier) of a line `Weapon Profile - NAME (Tier N)`, else None. Split by hand,
    in one pass: a regular expression with a lazy name before optional spaces takes time
    growing with the square of a line of spaces."""
    line = line.strip()
    if not (line.startswith(HEADER) and line.endswith(")")):
        return None
    name, found, tier = line[len(HEADER) : -1].rpartition("(Tier ")
    if not found or ")" in tier:
        return None
    return name.strip(), tier.strip()


def whole_number(text: str, path: Path, line: int, what: str) -> int:
    """`text` as a whole number, or a WikiFormatError at `path:line` naming `what`."""
    if not WHOLE_NUMBER.fullmatch(text):
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise WikiFormatError(path, line, f"{what} {shown!r} is not a whole number")
    return int(text)


@dataclass
class ParsedProfile:
    """One weapon profile as the page gives it, before it becomes a document."""

    header: str
    tier: int
    section: str
    group: str | None
    line: int
    name: str | None = None
    stats_line: int = 0
    stats: dict[str, str | None] = field(default_factory=dict)
    move_column: str = "Move"
    rows: list[dict[str, int | str]] = field(default_factory=list)

    @property
    def is_draft(self) -> bool:
        """A placeholder profile (no figures yet): it is imported as a draft."""
        return not self.rows and not any(self.stats.values())


@dataclass
class ParsedSection:
    """A weapon section heading, and the group it falls under."""

    name: str
    group: str | None


def parse_page(text: str, path: Path) -> tuple[list[ParsedSection], list[ParsedProfile]]:
    """The sections and weapon profiles of a page, in page order; WikiFormatError where it breaks
    the format."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    sections: list[ParsedSection] = []
    profiles: list[ParsedProfile] = []
    group: str | None = None
    index = 0
    while index < len(lines):
        match = profile_header(lines[index])
        if not match:
            index += 1
            continue
        headings = _headings_above(lines, index)
        if headings:
            section_name = headings[-1]
            if section_name.endswith("Weapons"):
                group = None
            if len(headings) > 1:
                group = headings[-2]
            if not sections or sections[-1].name != section_name:
                sections.append(ParsedSection(section_name, group))
        if not sections:
            raise WikiFormatError(path, index + 1, "weapon profile before any section heading")
        profile = ParsedProfile(
            header=match[0],
            tier=whole_number(match[1], path, index + 1, "tier"),
            section=sections[-1].name,
            group=sections[-1].group,
            line=index + 1,
        )
        index = _read_profile(lines, index + 1, profile, path)
        profiles.append(profile)
    return sections, profiles


def _headings_above(lines: list[str], index: int) -> list[str]:
    """The heading lines (non-empty, no tabs) right above line `index`, top to bottom,
    stopping at a table row or a previous profile's last line."""
    found: list[str] = []
    cursor = index - 1
    while cursor >= 0 and len(found) < 2:
        line = lines[cursor].strip()
        cursor -= 1
        if not line:
            continue
        if "\t" in line or line[0].isdigit() or profile_header(line) or ":" in line:
            break
        found.insert(0, line)
    return found


def _read_profile(lines: list[str], index: int, profile: ParsedProfile, path: Path) -> int:
    # The name: the first non-empty line before the stats line, if any.
    while index < len(lines) and not STAT.match(lines[index].split("\t")[0].strip()):
        if lines[index].strip() and profile.name is None:
            profile.name = lines[index].strip()
        index += 1
    if index >= len(lines):
        raise WikiFormatError(path, profile.line, "profile has no stats line")
    profile.stats = _stats(lines[index], path, index + 1)
    profile.stats_line = index + 1
    index += 1
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index >= len(lines):
        raise WikiFormatError(path, profile.line, "profile has no table header")
    if is_table_row(lines[index]):  # the page as Markdown: `| AP | Damage | ... |`
        table = read_markdown_table(lines, index, path)
        profile.move_column = _columns("\t".join(table.header), path, index + 1)
        rows = [
            (number, list(cells)) for number, cells in zip(table.row_lines, table.rows, strict=True)
        ]
        _read_rows(rows, profile, path)
        return table.end
    profile.move_column = _columns(lines[index], path, index + 1)
    index += 1
    rows = []
    while index < len(lines):
        cells = lines[index].strip().split("\t")
        if not cells[0].isdigit():  # digits of any script: odd ones are reported, not skipped
            break
        rows.append((index + 1, cells))
        index += 1
    _read_rows(rows, profile, path)
    return index


def _read_rows(rows: list[tuple[int, list[str]]], profile: ParsedProfile, path: Path) -> None:
    """The AP rows (line number, cells) of a profile's table into `profile.rows`: AP 1 up,
    five cells each, or the AP alone in a placeholder."""
    for expected_ap, (number, cells) in enumerate(rows, 1):
        if whole_number(cells[0], path, number, "AP") != expected_ap:
            raise WikiFormatError(path, number, f"expected the row for AP {expected_ap}")
        if len(cells) == 5:
            profile.rows.append(_row(cells, path, number))
        elif len(cells) != 1:
            raise WikiFormatError(path, number, f"a table row needs 5 cells, found {len(cells)}")


def _stats(line: str, path: Path, number: int) -> dict[str, str | None]:
    stats: dict[str, str | None] = {}
    for cell in line.split("\t"):
        match = STAT.match(cell.strip())
        if not match:
            raise WikiFormatError(path, number, f"cannot read stat {cell.strip()!r}")
        stats[match["label"]] = match["value"].strip() or None
    return stats


def _columns(line: str, path: Path, number: int) -> str:
    cells = [cell.strip() for cell in line.split("\t")]
    if (
        len(cells) != 5
        or tuple(cells[:3]) != COLUMNS[:3]
        or cells[4] != "Range"
        or cells[3] not in MOVE_LABELS
    ):
        raise WikiFormatError(path, number, f"unexpected table header {line.strip()!r}")
    return cells[3]


def _row(cells: list[str], path: Path, number: int) -> dict[str, int | str]:
    if not all(WHOLE_NUMBER.fullmatch(cells[i]) for i in (0, 1, 2, 4)):
        raise WikiFormatError(path, number, "table cells must be whole numbers")
    ap, damage, defense, range_ = (int(cells[i]) for i in (0, 1, 2, 4))
    move_cell = cells[3].strip()
    if move_cell != "Base" and not WHOLE_NUMBER.fullmatch(move_cell):
        raise WikiFormatError(path, number, f"move must be a number or Base, not {move_cell!r}")
    move: int | str = move_cell if move_cell == "Base" else int(move_cell)
    return {"ap": ap, "damage": damage, "defense": defense, "move": move, "range": range_}
