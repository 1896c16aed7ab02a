"""Hostile inputs against time and memory: rule data and arguments that make the rules
work without end, and careless arguments to `rulepress roll` and `rulepress odds`.

Tables of cases, each asserting the exact outcome it expects:

- `DATA_CASES`: rule documents in an otherwise valid tree, validated in process (the
  `Hostile` cases of test_hostile_inputs): the finding's code and `path:line:col`, within
  the case's `seconds`.
- `COMMAND_CASES`: `rulepress roll` and `rulepress odds` run as a user runs them: the exit
  code, what the output must say (the option at fault), no traceback, within a bound.
- Tests of the worst data the models accept: every exact computation on it finishes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import pytest

from rulepress.api import load
from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.games.t2k4e.models.step_dice import ModifierRule
from tests.helpers import (
    REPO,
    SKILL,
    Hostile,
    base_tree,
    build_tree,
    make_tree,
    params,
    run,
    validate_within,
    within,
)

# --- the worst rule data the models accept ----------------------------------------------------

SKILL_TEST_FILE = "demo/skill-test.yaml"
# The largest die, ten dice a rank and faces worth 0 to 10 AP: 11 AP values a die, so a
# rank-60 test sums 600 dice into 6,001 outcomes.
WORST_SKILL_TEST = (
    "kind: skill-test\nid: skill-test\nname: Skill Test\ndie: d20\ndice_per_rank: 10\n"
    "ap_by_face: {"
    + ", ".join(f"{face}: {(face - 1) % 11}" for face in range(1, 21))
    + "}\ntrait_bonus: higher-of-skill-traits\ntext: Roll.\n"
)
STEP_DICE_FILE = "demo/dice/step-dice.yaml"
STEP_DICE = (
    "kind: step-dice\nid: step-dice\nname: Task Resolution\ntext: Roll.\n"
    "levels:\n  - {level: A, die: d12}\n  - {level: D, die: d6}\n"
    "successes:\n  - {at_least: 6, successes: 1}\n  - {at_least: 10, successes: 2}\n"
)
MODIFIERS_FILE = "demo/dice/modifiers.yaml"
MODIFIERS = (
    "kind: modifier-rule\nid: modifiers\nname: Modifiers\ntext: Shift.\nsteps_per_point: 1\n"
    "net_before_shifting: true\nkeep_balanced: true\nhighest_pool: [d12, d12]\n"
    "lowest_pool: [d6]\nbelow_two_lowest: remove-one-die\n"
)
SHOCK_FILE = "demo/shock-roll.yaml"
SHOCK = (
    "kind: shock-roll\nid: shock-roll\nname: Shock\ntext: Roll.\n"
    "triggers:\n  - {id: half, text: Half., when: single-wound-at-least, fractions_of_hp: [0.5]}\n"
    "wound_penalty: damage-taken\non_failure: Stunned.\nrecovery: Roll.\n"
    "critical_failure: Out.\nunconscious:\n  dice: 1d6+1\n  unit: rounds\n"
)


def worst_tree() -> dict[str, str | bytes]:
    return {**base_tree(), SKILL_TEST_FILE: WORST_SKILL_TEST}


def replaced(file: str, text: str, old: str, new: str) -> dict[str, str]:
    assert old in text, old
    return {file: text.replace(old, new, 1)}


# --- rule data the models refuse at its place -------------------------------------------------

DATA_CASES = [
    Hostile(
        "thirteen success steps, one more than a d12 has faces",
        {
            STEP_DICE_FILE: STEP_DICE
            + "".join(f"  - {{at_least: {n}, successes: 1}}\n" for n in range(1, 12))
        },
        "RP104",
        STEP_DICE_FILE,
        9,
        3,
    ),
    Hostile(
        "five die levels, one more than A to D",
        replaced(
            STEP_DICE_FILE,
            STEP_DICE,
            "  - {level: D, die: d6}\n",
            "  - {level: D, die: d6}\n" * 4,
        ),
        "RP104",
        STEP_DICE_FILE,
        6,
        3,
    ),
    Hostile(
        "a highest pool of d20s, which no step reaches",
        replaced(MODIFIERS_FILE, MODIFIERS, "highest_pool: [d12, d12]", "highest_pool: [d20]"),
        "RP105",
        MODIFIERS_FILE,
        8,
        16,
    ),
    Hostile(
        "a lowest pool of d20s, below which a step would wrap round to d12",
        replaced(MODIFIERS_FILE, MODIFIERS, "lowest_pool: [d6]", "lowest_pool: [d20]"),
        "RP105",
        MODIFIERS_FILE,
        9,
        15,
    ),
    Hostile(
        "a duration of a million dice of a million sides",
        replaced(SHOCK_FILE, SHOCK, "dice: 1d6+1", "dice: 1000000d1000000"),
        "RP104",
        SHOCK_FILE,
        12,
        9,
    ),
    Hostile(
        "a duration die of no sides",
        replaced(SHOCK_FILE, SHOCK, "dice: 1d6+1", "dice: 1d0"),
        "RP104",
        SHOCK_FILE,
        12,
        9,
    ),
    Hostile(
        "a duration of no dice",
        replaced(SHOCK_FILE, SHOCK, "dice: 1d6+1", "dice: 0d6"),
        "RP104",
        SHOCK_FILE,
        12,
        9,
    ),
    Hostile(
        "a duration written in Arabic-Indic digits",
        replaced(SHOCK_FILE, SHOCK, "dice: 1d6+1", "dice: \u0661d\u0666"),
        "RP105",
        SHOCK_FILE,
        12,
        9,
    ),
    Hostile(
        "eleven dice a rank, one more than the most",
        replaced(SKILL_TEST_FILE, WORST_SKILL_TEST, "dice_per_rank: 10", "dice_per_rank: 11"),
        "RP104",
        SKILL_TEST_FILE,
        5,
        16,
    ),
    Hostile(
        "the worst skill test the models accept validates quickly",
        {SKILL_TEST_FILE: WORST_SKILL_TEST},
        "",
        SKILL_TEST_FILE,
        1,
        1,
    ),
]


@pytest.mark.parametrize("case", params(DATA_CASES))
def test_hostile_rule_data_gives_its_finding_at_its_place(tmp_path, case: Hostile):
    root = make_tree(tmp_path / "c", case)
    validation = validate_within(root, case.seconds)
    if not case.code:
        assert validation.findings == ()
        return
    wanted = [f for f in validation.findings if f.code == case.code]
    assert wanted, f"no {case.code} in {[(f.code, f.message) for f in validation.findings]}"
    finding = wanted[0]
    assert (finding.file, finding.line, finding.col) == (root / case.file, case.line, case.col), (
        finding.message
    )
    assert not validation.ok


# --- every computation on the worst data finishes ---------------------------------------------


@pytest.fixture(scope="module")
def worst(tmp_path_factory):
    """The demo ruleset with the worst skill test the models accept."""
    root = build_tree(tmp_path_factory.mktemp("worst") / "c", worst_tree())
    return load(root).ruleset("demo")


def test_the_highest_rank_of_the_worst_skill_test_has_its_exact_distribution(worst):
    test = worst.one(SkillTest)
    distribution = within(60, lambda: test.distribution(60))
    assert min(distribution) == 0 and max(distribution) == 6000
    # two faces in twenty earn nothing, one (the 11) earns 10 AP
    assert distribution[0] == Fraction(1, 10**600)
    assert distribution[6000] == Fraction(1, 20**600)
    assert sum(distribution.values()) == 1


def test_a_rank_above_the_highest_is_refused_not_worked_out(iris):
    with pytest.raises(ValueError, match="rank 61 is above the highest rank, 60"):
        iris.one(SkillTest).distribution(61)


def test_the_site_charts_of_the_worst_skill_test_are_drawn_in_bounded_time(worst):
    from rulepress.exporters.site.charts import charts_for

    charts = within(10, lambda: charts_for(worst))
    assert list(charts) == ["demo-skill-test-odds.svg"]


def test_the_figures_diff_compares_for_the_worst_skill_test_in_bounded_time(worst):
    from rulepress.history import computed_figures, percent

    figures = within(30, lambda: computed_figures(worst))
    # a die shows no AP on 2 faces in 20: one rank fails to earn any 1 time in 10**10
    assert percent(figures["chance of 1 AP or more at rank 1"]) == "100.0%"
    assert len([label for label in figures if label.endswith("at rank 10")]) == 20


def test_a_modifier_of_a_hundred_billion_shifts_only_as_far_as_the_dice_go():
    rules = load(REPO / "compendium").ruleset("t2k4e").one(ModifierRule)
    assert within(10, lambda: rules.shift(["d12", "d8"], 10**11)) == ["d12", "d12"]
    assert within(10, lambda: rules.shift(["d12", "d8"], -(10**11))) == ["d6"]


# --- careless arguments to roll and odds ---------------------------------------------------------


@dataclass
class Command:
    name: str
    args: list[str]
    exit: int
    says: str
    """Text the output (stdout and stderr) must contain: the option at fault, the result."""
    tree: Callable[[], dict] | None = None
    """A compendium to run on (as `c`); the bundled one if None."""
    seconds: float = 30.0


T2K = ["roll", "t2k4e", "--attribute", "d12", "--skill", "d8"]
WORST_ODDS = ["odds", "iris", "--compendium", "c", "--ruleset", "demo"]
COMMAND_CASES = [
    Command(
        "a modifier of a hundred billion is refused, not looped over",
        [*T2K, "--modifier", "100000000000", "--faces", "3,7"],
        2,
        "--modifier",
    ),
    Command(
        "modifiers netting past the dice's range roll the range's end",
        [*T2K, "--modifier", "-10", "--modifier", "-10", "--modifier", "-10", "--faces", "4"],
        0,
        "shifted by -30 to d6, rolls 4: 0 successes.",
    ),
    Command(
        "two push faces for the one die a push re-rolls",
        [*T2K, "--faces", "3,7", "--push-faces", "1,2"],
        2,
        "--push-faces: the push re-rolls 1 die, 2 faces given",
    ),
    Command(
        "a push face larger than the die it re-rolls",
        [*T2K, "--faces", "3,7", "--push-faces", "13"],
        2,
        "--push-faces: a d12 cannot show 13",
    ),
    Command(
        "a push face of zero",
        [*T2K, "--faces", "3,7", "--push-faces", "0"],
        2,
        "--push-faces: a d12 cannot show 0",
    ),
    Command(
        "one face for a pool of two dice",
        [*T2K, "--faces", "3"],
        2,
        "--faces: the pool d12+d8 rolls 2 dice, 1 face given",
    ),
    Command(
        "a face larger than its die",
        [*T2K, "--faces", "3,9"],
        2,
        "--faces: a d8 cannot show 9",
    ),
    Command(
        "a face that is not a number",
        [*T2K, "--faces", "3,seven"],
        2,
        "Invalid value for '--faces'",
    ),
    Command(
        "faces written in Arabic-Indic digits",
        [*T2K, "--faces", "\u0663,\u0667"],
        2,
        "Invalid value for '--faces'",
    ),
    Command(
        "an IRIS face larger than a d6",
        ["roll", "iris", "--rank", "2", "--faces", "1,7"],
        2,
        "--faces: a d6 cannot show 7",
    ),
    Command(
        "more IRIS faces than the rank rolls",
        ["roll", "iris", "--rank", "2", "--faces", "1,2,3"],
        2,
        "--faces: rank 2 rolls 2 dice, 3 faces given",
    ),
    Command(
        "three trait ranks for a skill's two traits",
        ["roll", "iris", "--rank", "1", "--traits", "5,3,9", "--faces", "6"],
        2,
        "--traits: a skill has two traits, 3 ranks given",
    ),
    Command(
        "a negative trait rank",
        ["roll", "iris", "--rank", "1", "--traits=-4", "--faces", "6"],
        2,
        "--traits: a trait rank is 0 to 60, not -4",
    ),
    Command(
        "a d20 check of 21",
        ["roll", "cuf", "--cuf", "4", "--willpower", "6", "--tcs", "10", "--d20", "21"],
        2,
        "Invalid value for '--d20'",
    ),
    Command(
        "a d20 check of 0",
        ["roll", "cuf", "--cuf", "4", "--willpower", "6", "--tcs", "10", "--d20", "0"],
        2,
        "Invalid value for '--d20'",
    ),
    Command(
        "a percentile roll of 101",
        ["roll", "cool", "fear", "--cool", "80", "--roll", "101"],
        2,
        "Invalid value for '--roll'",
    ),
    Command(
        "the highest rank of the worst skill test, one outcome at a time",
        [*WORST_ODDS, "--rank", "60"],
        0,
        "\n6000  ",
        tree=worst_tree,
        seconds=60,
    ),
    Command(
        "every rank of the worst skill test to the largest table",
        [*WORST_ODDS, "--max-rank", "60", "--up-to", "120"],
        0,
        "  60 ",
        tree=worst_tree,
        seconds=60,
    ),
    Command(
        "a rank above the highest",
        ["odds", "iris", "--rank", "61"],
        2,
        "Invalid value for '--rank'",
    ),
]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in COMMAND_CASES])
def test_careless_arguments_get_a_clear_outcome(tmp_path, case: Command):
    cwd = REPO
    if case.tree is not None:
        build_tree(tmp_path / "c", case.tree())
        cwd = tmp_path
    result = run(*case.args, cwd=cwd, seconds=case.seconds)
    output = result.stdout + result.stderr
    assert result.returncode == case.exit, output[-2000:]
    assert case.says in output, output[-2000:]
    assert "internal error" not in output


def test_the_command_line_takes_exactly_the_ranks_the_rules_are_worked_for():
    from rulepress.cli import cli
    from rulepress.games.iris.models.skill_test import MAX_RANK

    for group, option in (("roll", "rank"), ("odds", "rank"), ("odds", "max_rank")):
        params = cli.commands[group].get_command(None, "iris").params
        assert next(p for p in params if p.name == option).type.max == MAX_RANK


# --- the site: pages of bounded size ------------------------------------------------------------


def test_rulings_are_shown_a_bounded_number_to_a_page(tmp_path):
    """Material's search plugin indexes a page in time growing with the square of its
    headings (one page of 20,000 rulings was 102 s of a build): rulings come at most
    RULINGS_PER_PAGE to a page, so a build grows with their number. The structure is
    asserted, not the time; the strict mkdocs build checks the navigation and links."""
    import yaml

    from rulepress.exporters.site import run_mkdocs
    from rulepress.exporters.site.pages import generate
    from rulepress.exporters.site.ruleset_pages import RULINGS_PER_PAGE

    count = 2 * RULINGS_PER_PAGE + 1
    rulings = "rulings:\n" + "".join(
        f"  - {{id: r{n:04d}, question: q{n:04d}, ruling: r, alternative: a, why: w}}\n"
        for n in range(count)
    )
    root = build_tree(tmp_path / "c", {**base_tree(), "demo/skills/bio-lore.yaml": SKILL + rulings})
    config = generate(load(root), tmp_path / "project")
    docs = tmp_path / "project" / "docs" / "demo"
    pages = ["rulings.md", "rulings-2.md", "rulings-3.md"]
    assert sorted(p.name for p in docs.glob("rulings*.md")) == sorted(pages)
    headings = [
        [
            line
            for line in (docs / page).read_text(encoding="utf-8").splitlines()
            if line[:3] == "## "
        ]
        for page in pages
    ]
    assert [len(page) for page in headings] == [RULINGS_PER_PAGE, RULINGS_PER_PAGE, 1]
    assert [line for page in headings for line in page] == [
        f"## Bio Lore: q{n:04d}" for n in range(count)
    ]
    nav = yaml.safe_load(config.read_text(encoding="utf-8"))["nav"]
    demo = next(entry["Demo"] for entry in nav if "Demo" in entry)
    assert next(entry["Rulings"] for entry in demo if "Rulings" in entry) == [
        {"Rulings 1–100": "demo/rulings.md"},
        {"Rulings 101–200": "demo/rulings-2.md"},
        {"Rulings 201–201": "demo/rulings-3.md"},
    ]
    run_mkdocs(config, tmp_path / "site")
    assert (tmp_path / "site" / "demo" / "rulings-3.html").is_file()


def test_there_are_at_least_twelve_new_bounds_cases():
    assert len(DATA_CASES) + len(COMMAND_CASES) >= 12
