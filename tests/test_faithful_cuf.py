"""The Coolness Under Fire data says what the source says.

Every expectation here is parsed out of the source text (tests/fixtures/seeds/cuf.txt):
the bullet lines of both TC lists, the threshold paragraphs and the Initiative penalty
paragraphs. Nothing is copied by hand from the YAML, so a figure changed on either side
fails a test.
"""

from __future__ import annotations

import re

import pytest

from rulepress.errors import Level
from rulepress.games.cuf.models.cuf import CufRating, ThreatThreshold
from rulepress.games.cuf.models.threat import TcLadder, TcSource
from rulepress.models import RuleText
from tests.helpers import normal

SEED = "cuf.txt"
ADDS_HEADING = "THINGS THAT GENERATE THREAT CONDITIONS:"
REDUCES_HEADING = "REDUCING THREAT CONDITIONS:"

# The source's wording for what a per-unit amount counts, and the slug the model uses.
PER_WORDING = {
    "ally": "ally",
    "surplus ally": "surplus-ally",
    "enemy taken down": "enemy-down",
    "enemy who flees": "enemy-fled",
}
ASSET_WORDING = {"CUF": "cuf", "WILL": "willpower"}
COMPARISON_WORDING = {"are reduced to": "at-most", "drop below": "below"}

LINE = re.compile(
    r"^(?P<name>.*?)\s*(?:=\s*|(?=-?\d+TC\b))(?P<amount>(?:-?\d+TCs?|the TC varies).*)$"
)
RANGE = re.compile(r"^(-?\d+)TC (?:up )?to (-?\d+)TC")
PER = re.compile(r"\bper (.+?)(?: \(|$)")
OUTSTANDING = re.compile(r"(-?\d+)TCs?\s*(?:\(|for\s+)outstanding success", re.IGNORECASE)
PARENTHETICAL = re.compile(r"\([^)]*\)")
THRESHOLD = re.compile(
    r"(?:exceeds your CUF score|CUF(?: score)? is exceeded by (?P<times>\d+) times)[^.]*?"
    r"(?:roll|make) an? (?P<name>[A-Z][A-Z ]*[A-Z]) check of "
    r"(?P<difficulty>[A-Z]+):\[(?P<asset>[^\]]+)\]"
)
INITIATIVE = re.compile(
    r"makes their (?:roll for )?(?P<name>[A-Z][A-Z/ ]*?)(?: check)?, they (?:will )?still "
    r"suffer a (?P<penalty>-\d+) to Initiative(?: rolls)? until their TCs "
    r"(?P<comparison>are reduced to|drop below) (?P<level>[^.(]+)"
)
SKILL_PENALTY = re.compile(r'"\+(\d+)" \(added to the dice roll\) penalty|penalty of (\d+) added')
STATE_EXAMPLE = re.compile(r"(\d+) TCs against a CUF of (\d+)")
SUPPRESSION_EXAMPLE = re.compile(r"(\d+) Tcs would equal (\d+) rounds on a CUF of (\d+)", re.I)


# ------------------------------------------------------------------ reading the source


@pytest.fixture(scope="module")
def source(seed_text) -> str:
    return seed_text(SEED)


def printed_lines(source: str, heading: str) -> list[str]:
    """The bullet lines under `heading`, up to the next all-capitals heading."""
    section = source.split(heading, 1)[1]
    section = re.split(r"\n[A-Z][A-Z ]+:\n", section, maxsplit=1)[0]
    return [match.group(1).strip() for match in re.finditer(r"^- (.+)$", section, re.M)]


def split_line(line: str) -> tuple[str, str]:
    """A bullet line -> (name without its parenthetical remarks, the amount part)."""
    match = LINE.match(line)
    assert match, f"cannot find the TC amount in {line!r}"
    name = PARENTHETICAL.sub("", match.group("name"))
    return normal(name), match.group("amount")


def printed_tc(amount: str) -> int | tuple[int, int] | str:
    if amount.startswith("the TC varies"):
        return "referee"
    ranged = RANGE.match(amount)
    if ranged:
        low, high = sorted(int(value) for value in ranged.groups())
        return low, high
    return int(re.match(r"-?\d+", amount).group())


def stored_tc(source: TcSource) -> int | tuple[int, int] | str:
    if isinstance(source.tc, int | str):
        return source.tc
    return source.tc.min, source.tc.max


def all_printed_lines(source: str) -> list[tuple[str, str]]:
    """(effect, line) for both lists, in printed order."""
    return [("adds", line) for line in printed_lines(source, ADDS_HEADING)] + [
        ("reduces", line) for line in printed_lines(source, REDUCES_HEADING)
    ]


def by_name(cuf) -> dict[str, TcSource]:
    return {normal(source.name): source for source in cuf.all(TcSource)}


def line_of(source_text: str, tc_source: TcSource) -> str:
    for _, line in all_printed_lines(source_text):
        if split_line(line)[0] == normal(tc_source.name):
            return line
    raise AssertionError(f"no printed line for {tc_source.id}")


def paragraphs(text: str) -> list[str]:
    return [normal(part) for part in re.split(r"\n\s*\n", text) if part.strip()]


def assert_verbatim(text: str, source: str, where: str) -> None:
    for paragraph in paragraphs(text):
        assert paragraph in normal(source), f"{where}: not in the source: {paragraph!r}"


def threshold_paragraphs(source: str) -> list[tuple[re.Match, str]]:
    found = []
    for paragraph in re.split(r"\n\s*\n", source):
        match = THRESHOLD.search(paragraph)
        if match:
            found.append((match, paragraph))
    return found


def threshold_named(cuf, printed: str) -> ThreatThreshold:
    for threshold in cuf.all(ThreatThreshold):
        if threshold.name.upper() == printed.upper():
            return threshold
    raise AssertionError(f"no threshold named {printed!r}")


# ------------------------------------------------------------------ the TC lists


def test_every_generating_line_is_a_source_that_adds(source, cuf):
    stored = by_name(cuf)
    for line in printed_lines(source, ADDS_HEADING):
        name, _ = split_line(line)
        assert name in stored, f"missing TC source: {line!r}"
        assert stored[name].effect == "adds"


def test_every_reducing_line_is_a_source_that_reduces(source, cuf):
    stored = by_name(cuf)
    for line in printed_lines(source, REDUCES_HEADING):
        name, _ = split_line(line)
        assert name in stored, f"missing TC source: {line!r}"
        assert stored[name].effect == "reduces"


def test_there_are_no_sources_the_lists_do_not_print(source, cuf):
    printed = {split_line(line)[0] for _, line in all_printed_lines(source)}
    extra = [s.id for s in cuf.all(TcSource) if normal(s.name) not in printed]
    assert extra == []
    assert len(cuf.all(TcSource)) == len(printed)


def test_sources_follow_the_printed_order_adds_first(source, cuf):
    printed = [split_line(line)[0] for _, line in all_printed_lines(source)]
    stored = [normal(s.name) for s in cuf.all(TcSource)]
    assert stored == printed


def test_fixed_amounts_match_the_printed_tc(source, cuf):
    stored = by_name(cuf)
    for _, line in all_printed_lines(source):
        name, amount = split_line(line)
        expected = printed_tc(amount)
        if isinstance(expected, int):
            assert stored_tc(stored[name]) == expected, line


def test_printed_ranges_are_stored_as_min_and_max(source, cuf):
    stored = by_name(cuf)
    ranges = 0
    for _, line in all_printed_lines(source):
        name, amount = split_line(line)
        expected = printed_tc(amount)
        if isinstance(expected, tuple):
            ranges += 1
            assert stored_tc(stored[name]) == expected, line
    assert ranges == 2  # "1TC up to 4TC" and "-1TC to -4TC"


def test_an_amount_that_varies_by_monster_is_left_to_the_referee(source, cuf):
    stored = by_name(cuf)
    varying = [
        line
        for _, line in all_printed_lines(source)
        if printed_tc(split_line(line)[1]) == "referee"
    ]
    assert varying
    for line in varying:
        assert stored[split_line(line)[0]].tc == "referee", line


def test_per_ally_and_per_enemy_amounts_name_what_they_count(source, cuf):
    stored = by_name(cuf)
    for _, line in all_printed_lines(source):
        name, amount = split_line(line)
        per = PER.search(amount)
        expected = PER_WORDING[per.group(1)] if per else None
        assert stored[name].per == expected, line


def test_outstanding_success_amounts_match(source, cuf):
    stored = by_name(cuf)
    for _, line in all_printed_lines(source):
        name, amount = split_line(line)
        outstanding = OUTSTANDING.search(amount)
        expected = int(outstanding.group(1)) if outstanding else None
        assert stored[name].outstanding_success_tc == expected, line


def test_printed_parenthetical_remarks_are_kept_in_the_note(source, cuf):
    stored = by_name(cuf)
    for _, line in all_printed_lines(source):
        note = stored[split_line(line)[0]].note or ""
        for remark in PARENTHETICAL.findall(line):
            assert remark in note, f"{remark!r} of {line!r} is not in the note"


def test_every_note_quotes_its_printed_line(source, cuf):
    for tc_source in cuf.all(TcSource):
        if tc_source.note is None:
            continue
        line = normal(line_of(source, tc_source))
        pieces = [*PARENTHETICAL.findall(tc_source.note), PARENTHETICAL.sub("", tc_source.note)]
        for piece in pieces:
            if piece.strip(" ."):
                assert normal(piece) in line, f"{tc_source.id}: {piece!r} is not printed"


# ------------------------------------------------------------------ ladders


def test_every_includes_above_line_is_a_higher_step_of_a_ladder(source, cuf):
    higher_steps = {step for ladder in cuf.all(TcLadder) for step in ladder.steps[1:]}
    for _, line in all_printed_lines(source):
        if re.search(r"\binclud(?:es|ing)\b[^)]*\babove\b", line):
            tc_source = by_name(cuf)[split_line(line)[0]]
            assert tc_source.id in higher_steps, line


def test_a_ladder_step_without_includes_above_rests_on_a_ruling(source, cuf):
    for ladder in cuf.all(TcLadder):
        lines = [line_of(source, cuf.get(step)) for step in ladder.steps[1:]]
        stated = all(re.search(r"\binclud", line) for line in lines)
        assert ladder.stated_in_source == stated, ladder.id
        if not stated:
            assert ladder.rulings, f"{ladder.id} is not stated in the source but has no ruling"


def test_ladder_texts_quote_the_printed_lines(source, cuf):
    printed = {line for _, line in all_printed_lines(source)}
    for ladder in cuf.all(TcLadder):
        for line in (ladder.text or "").splitlines():
            assert line in printed, f"{ladder.id}: {line!r}"


# ------------------------------------------------------------------ thresholds


def test_each_threshold_starts_at_the_printed_multiple_of_cuf(source, cuf):
    found = threshold_paragraphs(source)
    assert len(found) == len(cuf.all(ThreatThreshold)) == 3
    for match, _ in found:
        expected = int(match.group("times") or 1)
        assert threshold_named(cuf, match.group("name")).exceeds == expected


def test_each_threshold_check_has_the_printed_difficulty_and_asset(source, cuf):
    for match, _ in threshold_paragraphs(source):
        check = threshold_named(cuf, match.group("name")).check
        assert check.difficulty == match.group("difficulty").capitalize()
        assets = [ASSET_WORDING[part.strip()] for part in match.group("asset").split("+")]
        assert check.asset == assets


def test_a_successful_check_carries_the_printed_initiative_penalty(source, cuf):
    found = list(INITIATIVE.finditer(source))
    assert len(found) == 3
    for match in found:
        threshold = threshold_named(cuf, match.group("name").split("/")[0])
        assert threshold.on_success.initiative_penalty == int(match.group("penalty"))


def test_penalties_end_at_the_printed_comparison_and_multiple(source, cuf):
    for match in INITIATIVE.finditer(source):
        threshold = threshold_named(cuf, match.group("name").split("/")[0])
        number = re.search(r"\d+", match.group("level"))
        assert threshold.penalties_end.tcs == COMPARISON_WORDING[match.group("comparison")]
        assert threshold.penalties_end.multiple == (int(number.group()) if number else 1)


def test_a_successful_check_carries_the_printed_skill_penalty(source, cuf):
    for match, paragraph in threshold_paragraphs(source):
        penalty = SKILL_PENALTY.search(paragraph)
        expected = int(penalty.group(1) or penalty.group(2)) if penalty else 0
        assert threshold_named(cuf, match.group("name")).on_success.skill_penalty == expected


def test_each_printed_state_example_is_stored_with_its_figures(source, cuf):
    for match, paragraph in threshold_paragraphs(source):
        threshold = threshold_named(cuf, match.group("name"))
        for tcs, rating in STATE_EXAMPLE.findall(paragraph):
            stored = [
                e
                for e in threshold.examples
                if e.given.get("tcs") == int(tcs) and e.given.get("cuf") == int(rating)
            ]
            assert stored, f"{threshold.id}: no example for {tcs} TCs against CUF {rating}"
            assert stored[0].expect == {"state": threshold.id}


def test_each_printed_suppression_example_is_stored_with_its_rounds(source, cuf):
    found = SUPPRESSION_EXAMPLE.findall(source)
    assert found
    examples = [e for t in cuf.all(ThreatThreshold) for e in t.examples]
    for tcs, rounds, rating in found:
        stored = [
            e
            for e in examples
            if e.given.get("tcs") == int(tcs) and e.given.get("cuf") == int(rating)
        ]
        assert stored and stored[0].expect == {"suppression-rounds": int(rounds)}


def test_state_examples_name_the_highest_threshold_exceeded(cuf):
    thresholds = cuf.all(ThreatThreshold)
    for threshold in thresholds:
        for example in threshold.examples:
            if "state" not in example.expect:
                continue
            tcs, rating = example.given["tcs"], example.given["cuf"]
            exceeded = [t for t in thresholds if tcs > t.exceeds * rating]
            assert max(exceeded, key=lambda t: t.exceeds).id == example.expect["state"]


# ------------------------------------------------------------------ the CUF trait


def test_cuf_is_a_die_roll_plus_initiative_modifiers_averaged_with_willpower(source, cuf):
    rating = cuf.one(CufRating)
    die = re.search(r"roll a 1D(\d+) and add (.+?) to that roll", source)
    averaged = re.search(r"AVERAGE this roll with the (\w+) Attribute", source)
    assert rating.die == f"d{die.group(1)}"
    assert rating.add == die.group(2)
    assert rating.average_with == averaged.group(1).lower()


def test_cuf_rating_rounding_rests_on_a_ruling(source, cuf):
    assert "round" not in source.lower().split("rolling up the cuf trait", 1)[1][:400]
    assert cuf.one(CufRating).rulings


# ------------------------------------------------------------------ wording


def test_rule_texts_occur_verbatim_in_the_source(source, cuf):
    rules = cuf.all(RuleText)
    assert rules
    for rule in rules:
        assert_verbatim(rule.text, source, rule.id)


def test_cuf_rating_text_occurs_verbatim_in_the_source(source, cuf):
    assert_verbatim(cuf.one(CufRating).text, source, "cuf-rating")


def test_threshold_texts_occur_verbatim_in_the_source(source, cuf):
    for threshold in cuf.all(ThreatThreshold):
        texts = [
            threshold.text,
            threshold.on_failure.text,
            threshold.on_success.text,
            threshold.penalties_end.text,
            *(e.text for e in threshold.examples),
        ]
        for text in texts:
            assert_verbatim(text, source, threshold.id)


def test_ruleset_credits_the_author_and_games_studio_93(source, cuf):
    author = re.match(r"\[(\w+)\]", source).group(1)
    owner = re.search(r"all credit goes to (.+?) for them", source).group(1)
    credit = cuf.info.sources[0]
    assert credit.author == author
    assert owner in credit.credit
    assert "retrofit" in credit.credit and "TW2K13" in credit.credit


def test_the_cuf_compendium_validates_without_errors(bundled, cuf):
    errors = [
        f
        for f in bundled.findings
        if f.level == Level.ERROR and f.file and cuf.folder in f.file.parents
    ]
    assert errors == []
