"""`rulepress fmt` never drops a comment: each case is a comment in a place ruamel's round
trip or the canonical restyling used to lose, or a file fmt must refuse (RP012) instead
of writing. The property test at the end puts random comments in every place class.

The CLI cases run in-process through click's CliRunner; the property test calls the
formatting function itself.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepress import kinds
from rulepress.cli import cli
from rulepress.commands.fmt import canonical_text, format_paths
from rulepress.compendium.comments import comments
from rulepress.compendium.yaml_source import parse_yaml
from tests.helpers import MESSY_SKILL, SKILL_FILE, WEAPON_FILE, build_tree, weapon

OUT_OF_ORDER = ("kind: weapon\nid: test-pistol\n", "id: test-pistol\nkind: weapon\n")
"""A weapon with `id` before `kind`, so that fmt has something to rewrite."""
BLOCK_ROW = "  - ap: {ap}\n    damage: 1\n    defense: 1\n    move: Base\n    range: 10"
"""A table row in block style, which fmt rewrites as a one-line flow mapping."""


def messy_weapon(rows: list[str] | None = None) -> str:
    """The demo weapon, not in canonical order."""
    return weapon(rows).replace(*OUT_OF_ORDER)


def fmt(root: Path, *args: str):
    """`rulepress fmt ROOT ARGS` in-process."""
    result = CliRunner().invoke(cli, ["fmt", str(root), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def formatted(tmp_path: Path, text: str, file: str = WEAPON_FILE) -> str:
    """The file's text after `rulepress fmt`, which must succeed and rewrite it."""
    build_tree(tmp_path, {file: text})
    result = fmt(tmp_path)
    assert result.exit_code == 0, result.output
    assert "1 reformatted" in result.output
    return (tmp_path / file).read_text()


def comment_texts(text: str) -> list[str]:
    """The comments of a YAML text, in order."""
    return [comment.text for comment in comments(text)]


# --- The places a comment used to be lost from -----------------------------------------------


def test_a_comment_on_the_last_line_after_a_weapon_table_is_kept(tmp_path):
    text = formatted(tmp_path, messy_weapon() + "# the table ends at AP 30\n")
    assert text.startswith("kind: weapon\nid: test-pistol\n")
    assert text.endswith("range: 10}\n# the table ends at AP 30\n")


def test_a_comment_after_the_document_end_marker_is_kept(tmp_path):
    text = formatted(tmp_path, messy_weapon() + "...\n# after the end marker\n")
    assert text.endswith("range: 10}\n# after the end marker\n") and "..." not in text


def test_comments_beside_the_document_start_marker_are_kept(tmp_path):
    text = formatted(tmp_path, "# a weapon\n--- # the document\n" + messy_weapon())
    assert text.startswith("# a weapon\n# the document\nkind: weapon\n")


def test_a_comment_only_tail_after_blank_lines_is_kept(tmp_path):
    text = formatted(tmp_path, messy_weapon() + "\n\n# notes\n# on two lines\n")
    assert comment_texts(text) == ["# notes", "# on two lines"]
    assert text.endswith("range: 10}\n\n\n# notes\n# on two lines\n")


def test_a_comment_between_block_rows_of_a_table_is_kept_in_its_place(tmp_path):
    rows = [BLOCK_ROW.format(ap=1), "  # AP 2 is the source's guess", BLOCK_ROW.format(ap=2)]
    text = formatted(tmp_path, messy_weapon(rows))
    assert "range: 10\n  # AP 2 is the source's guess\n  - {ap: 2, damage: 1," in text


def test_a_comment_inside_a_block_row_keeps_the_row_in_block_style(tmp_path):
    rows = [BLOCK_ROW.format(ap=1).replace("damage: 1", "damage: 1  # sic"), BLOCK_ROW.format(ap=2)]
    text = formatted(tmp_path, messy_weapon(rows))
    assert "  - ap: 1\n    damage: 1  # sic\n    defense: 1\n" in text  # not folded into a flow row
    assert "  - {ap: 2, damage: 1, defense: 1, move: Base, range: 10}\n" in text


def test_a_comment_on_a_default_value_keeps_the_value_and_the_comment(tmp_path):
    messy = MESSY_SKILL.replace("status: published", "status: published  # checked 2024")
    text = formatted(tmp_path, messy, SKILL_FILE)
    assert "status: published  # checked 2024\n" in text


def test_a_hash_inside_a_quoted_scalar_is_not_a_comment(tmp_path):
    messy = MESSY_SKILL.replace("name: 'Bio Lore'", "name: 'Bio # Lore'  # the real one")
    assert comment_texts(messy) == ["# Bio Lore: a lore skill.", "# the slug", "# the real one"]
    text = formatted(tmp_path, messy, SKILL_FILE)
    assert "name: 'Bio # Lore'  # the real one\n" in text
    assert parse_yaml(text, Path("x.yaml"))[0]["name"] == "Bio # Lore"


def test_fmt_check_reports_but_does_not_write(tmp_path):
    messy = messy_weapon() + "# the table ends at AP 30\n"
    build_tree(tmp_path, {WEAPON_FILE: messy})
    result = fmt(tmp_path, "--check")
    assert result.exit_code == 1 and "would reformat" in result.output
    assert (tmp_path / WEAPON_FILE).read_text() == messy


# --- What fmt cannot keep: refused, the file untouched ----------------------------------------


def test_a_comment_inside_a_flow_row_is_refused_at_its_place_and_the_file_untouched(tmp_path):
    rows = ["  - {ap: 1, # one\n     damage: 1, defense: 1, move: Base, range: 10}"]
    messy = messy_weapon(rows)
    build_tree(tmp_path, {WEAPON_FILE: messy})
    result = fmt(tmp_path)
    assert result.exit_code == 1
    assert f"{WEAPON_FILE}:14:13: error RP012: formatting would drop" in result.stderr
    assert "drop the comment `# one`" in result.stderr and "1 failed" in result.output
    assert (tmp_path / WEAPON_FILE).read_text() == messy


def test_fmt_check_says_a_file_would_be_refused_rather_than_reformatted(tmp_path):
    rows = ["  - {ap: 1, # one\n     damage: 1, defense: 1, move: Base, range: 10}"]
    build_tree(tmp_path, {WEAPON_FILE: messy_weapon(rows)})
    result = fmt(tmp_path, "--check")
    assert result.exit_code == 1 and "error RP012" in result.stderr
    assert "would reformat" not in result.output


def test_comments_that_reordering_keys_would_swap_are_refused(tmp_path):
    messy = MESSY_SKILL.replace("kind: skill", "kind: skill  # the kind")
    build_tree(tmp_path, {SKILL_FILE: messy})
    result = format_paths(tmp_path, check=False)
    [finding] = result.refused
    assert (finding.code, finding.line, finding.col) == ("RP012", 2, 16)
    assert "move the comment `# the slug`" in finding.message
    assert (tmp_path / SKILL_FILE).read_text() == messy and result.changed == []


# --- The property: every comment survives, in order, or fmt refuses ----------------------------

settings.register_profile(
    "fmt-fast", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "fmt-long", max_examples=2_000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
PROFILE = "fmt-long" if os.environ.get("RULEPRESS_FUZZ") == "long" else "fmt-fast"

comment_words = st.text(
    alphabet=st.sampled_from("abc XYZ#:'\"-{}[],|>"), min_size=0, max_size=12
).map(lambda words: "# " + words.strip())
names = st.sampled_from(["Test Pistol", "'Test # Pistol'", '"Pistol: #1"', "Pistol #2"])


@st.composite
def commented_weapons(draw) -> str:
    """A weapon file (keys maybe out of order, rows in flow or block style, a quoted name
    holding `#`) with comments in random places: a line of its own before or after any
    line, trailing on a line, after the last line, after blank lines, beside `---` and
    after `...`."""
    head = [
        "kind: weapon",
        "id: test-pistol",
        f"name: {draw(names)}",
        "header: Test Pistol",
        "tier: 1",
        "section: pistols",
        "order: 1",
        "magazine: 3",
        "reload: 3",
        "weight: 2",
        "cost: 1",
        "rarity: Common",
    ]
    if draw(st.booleans()):
        head[0], head[1] = head[1], head[0]
    rows = []
    for ap in range(1, draw(st.integers(1, 4)) + 1):
        block = draw(st.booleans())
        cells = f"ap: {ap}, damage: {ap}, defense: 1, move: Base, range: 10"
        rows += BLOCK_ROW.format(ap=ap).split("\n") if block else [f"  - {{{cells}}}"]
    lines = [*head, "table:", *rows]
    for _ in range(draw(st.integers(1, 5))):
        lines = _with_a_comment(draw, lines, draw(comment_words))
    if draw(st.booleans()):
        lines = ["---" + draw(st.sampled_from(["", " " + draw(comment_words)])), *lines]
    if draw(st.booleans()):
        lines += ["...", *draw(st.lists(st.sampled_from(["", draw(comment_words)]), max_size=3))]
    return "\n".join(lines) + "\n"


def _with_a_comment(draw, lines: list[str], comment: str) -> list[str]:
    """`lines` with `comment` trailing one of them, or on a line of its own (indented as
    the line after it, or not), maybe with blank lines around."""
    index = draw(st.integers(0, len(lines)))
    if index < len(lines) and draw(st.booleans()):
        return [*lines[:index], f"{lines[index]}  {comment}", *lines[index + 1 :]]
    following = lines[index] if index < len(lines) else ""
    indent = following[: len(following) - len(following.lstrip())] if draw(st.booleans()) else ""
    blank = [""] * draw(st.integers(0, 2))
    return [*lines[:index], *blank, indent + comment, *blank, *lines[index:]]


def model_data(text: str) -> dict:
    """What the weapon model makes of the text: the data fmt must not change."""
    data, _ = parse_yaml(text, Path("weapon.yaml"))
    return kinds.models()["weapon"].model_validate(data).model_dump()


@settings(settings.get_profile(PROFILE))
@given(commented_weapons())
def test_every_comment_survives_in_order_or_fmt_refuses(text):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "weapon.yaml")
        path.write_text(text, encoding="utf-8")
        result = format_paths(path, check=False)
        after = path.read_text(encoding="utf-8")
    assert result.failed == []
    if result.refused:
        [finding] = result.refused
        assert after == text  # untouched
        assert finding.code == "RP012" and (finding.line, finding.col) in {
            tuple(comment.position) for comment in comments(text)
        }
        return
    assert comment_texts(after) == comment_texts(text)
    assert model_data(after) == model_data(text)
    assert canonical_text(after, path) == after  # and formatting twice changes nothing
