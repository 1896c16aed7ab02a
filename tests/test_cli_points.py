"""Issue 28's points about the command line, each as a publisher or player meets it: `new`
in a one-ruleset repository, the module id `init --github` derives, shell completion,
`odds cuf` and `odds cool` beside the site's calculators, `odds` tables that fit a
terminal, the printed-odds legend, `roll t2k4e`'s pushed dice, a steady Cool roll, and
the findings' did-you-mean and casing."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

from helpers import COMPENDIUM, WEAPON_FILE, base_tree, build_tree, weapon

from rulepress.cli import cli
from rulepress.cli import run as run_cli
from rulepress.exporters import target_descriptions
from rulepress.games.cool.calculator import cool_calculator
from rulepress.games.cuf.calculator import cuf_calculator
from rulepress.validation import validate


def _messages(root: Path) -> list[str]:
    """The messages of the findings the models give (RP1xx), not the cross-document checks'."""
    return [f.message for f in validate(root).findings if f.code.startswith("RP1")]


# --- The findings: did you mean, and one casing ------------------------------------------


def test_a_misspelt_choice_is_told_the_choice_it_meant(tmp_path):
    tree = base_tree()
    tree[WEAPON_FILE] = weapon().replace("rarity: Common", "rarity: Comon")
    (message,) = _messages(build_tree(tmp_path, tree))
    assert message.endswith("(got 'Comon'; did you mean 'Common'?)"), message
    tree[WEAPON_FILE] = weapon().replace("rarity: Common", "rarity: RARE")  # case alone
    (message,) = _messages(build_tree(tmp_path, tree))
    assert message.endswith("(got 'RARE'; did you mean 'Rare'?)"), message
    tree[WEAPON_FILE] = weapon().replace("rarity: Common", "rarity: Mythic")  # nothing close
    (message,) = _messages(build_tree(tmp_path, tree))
    assert message.endswith("(got 'Mythic')"), message


def test_every_finding_of_the_models_says_its_reason_in_lowercase(tmp_path):
    """pydantic says "Input should...", "String should...", "Value error, ..."; a finding
    says what is wrong after its field in lowercase, whatever error the model gave."""
    tree = base_tree()
    tree[WEAPON_FILE] = weapon(
        [
            "  - {ap: 1, damage: l3, defense: 1, move: Base, range: 10}",  # int_parsing
            "  - {ap: 2, damage: 2, defense: 2, move: Walk, range: 10}",  # union of literal
            "  - [1, 2]",  # model_type
        ],
        head="name_note: x\n",
    ).replace("rarity: Common", "rarity: Comon")
    tree["demo/skills/bio-lore.yaml"] = tree["demo/skills/bio-lore.yaml"].replace(
        "traits: [acuity, resolve]", "traits: [acuity]"
    )  # too_short
    messages = _messages(build_tree(tmp_path, tree))
    assert len(messages) >= 5, messages
    reasons = [message.split(": ", 1)[1] for message in messages]
    assert [r for r in reasons if not r[:1].islower()] == [], reasons
    assert not any("Value error" in message for message in messages), messages
    assert any(r.startswith("input should be") for r in reasons), reasons
    assert any(r.startswith("list should have at least 2 items") for r in reasons), reasons


# --- What `roll` and `odds` print ---------------------------------------------------------


def _rulepress(capsys, *args: str) -> str:
    """`rulepress ARGS` in-process on the bundled compendium, which must succeed: its output."""
    code = run_cli([*args, "--compendium", str(COMPENDIUM)])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_the_odds_legend_says_the_rule_that_stars_a_printed_cell(capsys):
    """A star is `within_rounding`'s verdict: not the exact chance rounded to a whole
    percent, more than half a point from it. 82 against 82.6% is such a cell, and the
    legend must say so, not "a point or more off"."""
    text = _rulepress(capsys, "odds", "t2k4e")
    legend = " ".join(text.split("\n\n")[0].split())
    assert "more than half a point" in legend and "a point or more" not in legend, legend
    data = json.loads(_rulepress(capsys, "odds", "t2k4e", "--json"))
    exact = [
        (cell["printed"], Fraction(cell["computed"]["fraction"]) * 100)
        for table in data["tables"]
        for row in table["rows"]
        for cell in row["cells"]
    ]
    marked = re.findall(r"(\*?)(\d+)% / [\d.]+%", text)
    assert [int(printed) for _, printed in marked] == [printed for printed, _ in exact]
    for (star, _), (printed, chance) in zip(marked, exact, strict=True):
        assert bool(star) == (abs(printed - chance) > Fraction(1, 2)), (printed, float(chance))
    assert "*82% / 82.6%" in text  # 0.64 of a point off: starred, as the legend now says
    assert " 38% / 37.5%" in text  # exactly half-way: agrees with 37 and 38


def test_a_push_names_the_dice_it_rerolled_and_json_keeps_their_indices(capsys):
    roll = ["roll", "t2k4e", "--attribute", "d8", "--skill", "d6", "--faces", "1,3", "--push"]
    text = _rulepress(capsys, *roll, "--push-faces", "5")
    assert "Pushed, re-rolling die 2 (d6 showing 3): 1, 5, so 0 successes." in text
    assert re.search(r"^  rerolled: +die 2 \(d6 showing 3\)$", text, re.M), text
    data = json.loads(_rulepress(capsys, *roll, "--push-faces", "5", "--json"))
    assert data["pushed"]["rerolled"] == [1]  # stable: the index in `faces`, from 0
    every = [*roll[:-2], "2,3", "--push", "--reading", "every-non-success", "--push-faces", "5,4"]
    text = _rulepress(capsys, *every)
    assert "re-rolling die 1 (d8 showing 2) and die 2 (d6 showing 3): 5, 4" in text
    text = _rulepress(capsys, *roll[:-2], "6,6", "--push")
    assert "re-rolling no dice" in text and re.search(r"^  rerolled: +none$", text, re.M)
    # "If you fail your initial roll or need more successes than you got, you can push"
    assert "The rules allow no push here: the roll already succeeded." in text
    data = json.loads(_rulepress(capsys, *roll[:-2], "1,1", "--push", "--json"))
    assert data["pushed"]["allowed"] == "nothing-to-pick-up"
    assert (
        json.loads(_rulepress(capsys, *roll, "--push-faces", "5", "--json"))["pushed"]["allowed"]
        == "may-push"
    )


def test_a_shock_roll_says_how_long_unconsciousness_lasts_only_when_it_knocks_out(capsys):
    shock = ["roll", "cool", "shock", "--cool", "50"]
    for roll, outcome in (("20", "steady"), ("70", "shock")):
        text = _rulepress(capsys, *shock, "--roll", roll)
        assert f"outcome: {outcome}" in text and "unconscious" not in text, text
        assert "unconscious" not in json.loads(_rulepress(capsys, *shock, "--roll", roll, "--json"))
    text = _rulepress(capsys, *shock, "--roll", "99")
    assert re.search(r"^outcome: +unconscious\nunconscious: 1d6\+1 rounds$", text, re.M), text


def _cells(text: str) -> dict[tuple[str, str], str]:
    """A printed `odds iris` table's cells by (rank, k), from however many blocks."""
    cells = {}
    for block in text.split("\n\n"):
        header, *rows = [line.split() for line in block.splitlines() if "%" in line or "\\" in line]
        for row in rows:
            cells.update({(row[0], k): cell for k, cell in zip(header[3:], row[1:], strict=True)})
    return cells


def test_the_iris_odds_table_fits_100_columns_unless_asked_wide(capsys):
    for options in ([], ["--trait-bonus", "5", "--up-to", "120", "--max-rank", "60"]):
        text = _rulepress(capsys, "odds", "iris", *options)
        wide = _rulepress(capsys, "odds", "iris", *options, "--wide")
        assert max(map(len, text.splitlines())) <= 100, max(map(len, text.splitlines()))
        assert max(map(len, wide.splitlines())) > 100 and "\n\n" not in wide.strip()
        assert _cells(text) == _cells(wide) and len(_cells(wide)) >= 200  # every cell, once
        assert {rank for rank, _ in _cells(text)} == {
            str(r) for r in range(1, 11 if not options else 61)
        }


# --- odds cuf and odds cool: the site's calculators' figures ------------------------------


def test_odds_cool_gives_the_cool_calculators_figures(capsys, bundled):
    figures = cool_calculator(bundled.compendium.ruleset("cool")).data["rolls"]
    for cool, penalty in ((50, 0), (50, 10), (0, 100), (100, 0), (37, 63), (96, 0)):
        args = ["odds", "cool", "--cool", str(cool), "--penalty", str(penalty)]
        data = json.loads(_rulepress(capsys, *args, "--json"))
        assert [r["roll"] for r in data["rolls"]] == ["shock", "fear"]
        for roll, shown in zip(data["rolls"], figures, strict=True):
            target = shown["targets"][cool][penalty]
            assert roll["target"] == target
            assert [
                [o["outcome"].replace("-", " ").capitalize(), *_page_cells(o["chance"])]
                for o in roll["outcomes"]
            ] == shown["outcomes"][str(target)]
        text = _rulepress(capsys, *args)
        for roll in data["rolls"]:
            head = f"{roll['roll'].capitalize()} roll with Cool {cool} and a penalty of {penalty}"
            assert f"{head}: {roll['target']} or less on a d100." in text
            for outcome in roll["outcomes"]:
                line = f"{outcome['chance']['percent']:.4f}%  {outcome['chance']['fraction']}"
                assert line in text


def test_odds_cuf_gives_the_cuf_calculators_figures(capsys, bundled):
    figures = cuf_calculator(bundled.compendium.ruleset("t2k-cuf")).data
    for cuf, willpower, tcs in ((4, 6, 9), (4, 6, 3), (0, 0, 0), (0, 40, 1), (40, 40, 200)):
        args = ["odds", "cuf", "--cuf", str(cuf), "--willpower", str(willpower)]
        data = json.loads(_rulepress(capsys, *args, "--tcs", str(tcs), "--json"))
        index, over, failed, passed, _ = figures["situations"][figures["grid"][cuf][tcs]]
        if index < 0:
            assert (data["state"], data["states"]) == ("calm", [])
            assert "Calm: no threat state, so no check" in _rulepress(
                capsys, *args, "--tcs", str(tcs)
            )
            continue
        shown = figures["states"][index]
        (state,) = data["states"]
        assert (state["name"], state["over_tcs"], state["difficulty"]) == (
            shown["name"],
            over,
            shown["difficulty"],
        )
        assert state["target"] == shown["targets"][cuf][willpower]
        chance = figures["chances"][shown["chances"][cuf][willpower]]
        assert _page_cells(state["passes"]) == chance
        assert state["suppression_rounds"] == {"failed": failed, "passed": passed}
        every = json.loads(_rulepress(capsys, *args, "--json"))["states"]
        assert [s["name"] for s in every] == [s["name"] for s in figures["states"]]
        assert state in [{**s, "suppression_rounds": state["suppression_rounds"]} for s in every]


def _page_cells(chance: dict) -> list[str]:
    """A chance of `--json` as the calculator's page shows it: percent to two places, exact."""
    exact = Fraction(chance["fraction"])
    return [f"{exact.numerator * 100 / exact.denominator:.2f}%", chance["fraction"]]


# --- init and new: a publisher's own repository -------------------------------------------


def test_new_in_a_one_ruleset_repository_picks_its_ruleset(tmp_path, monkeypatch, capsys):
    """`init --samples GAME` makes one ruleset, named after the folder, not after a game:
    each `new` the game offers finds it with no --ruleset."""
    commands = {
        "iris": [
            ["new", "skill", "Knot Lore", "--category", "academic", "--traits", "grit,wits"],
            ["new", "weapon", "Rusty Pistol", "--section", "sidearms"],
        ],
        "cuf": [["new", "tc-source", "Mortar fire", "--tc", "3"]],
    }
    for game, news in commands.items():
        monkeypatch.chdir(tmp_path)
        assert run_cli(["init", f"{game}-rules", "--samples", game]) == 0, capsys.readouterr()
        monkeypatch.chdir(tmp_path / f"{game}-rules")
        listed = _rulepress_here(capsys, "new", "--help")
        for new in news:
            assert re.search(rf"^  {new[1]} ", listed, re.M), listed
            wrote = _rulepress_here(capsys, *new)
            assert wrote.startswith(f"wrote {Path('compendium', f'{game}-rules')}"), wrote
        assert run_cli(["validate"]) == 0, capsys.readouterr()  # a new weapon: a draft


def test_init_with_github_prefixes_the_module_ids_with_the_owner(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    built = {}
    for folder, github in (("a", "Acme-Games/iron-oath"), ("b", "zed/iron-oath"), ("c", None)):
        args = ["init", folder, "--ruleset", "iron-oath"]
        assert run_cli([*args, *(["--github", github] if github else [])]) == 0
        monkeypatch.chdir(tmp_path / folder)
        assert run_cli(["build", "--target", "foundry"]) == 0, capsys.readouterr()
        (manifest,) = Path("dist/foundry").glob("*/module.json")
        built[folder] = json.loads(manifest.read_text(encoding="utf-8"))
        monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    ids = {folder: module["id"] for folder, module in built.items()}
    assert ids == {"a": "acme-games-iron-oath", "b": "zed-iron-oath", "c": "rulepress-iron-oath"}
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", module_id) for module_id in ids.values())
    releases = "https://github.com/Acme-Games/iron-oath/releases"
    assert built["a"]["download"] == f"{releases}/download/v0.1.0/acme-games-iron-oath.zip"
    settings = (tmp_path / "a" / "rulepress.yaml").read_text(encoding="utf-8")
    assert re.search(r"^  id_prefix: acme-games  # ", settings, re.M), settings
    assert "# id_prefix: rulepress" in (tmp_path / "c" / "rulepress.yaml").read_text()


def _rulepress_here(capsys, *args: str) -> str:
    """`rulepress ARGS` in-process in the working folder, which must succeed: its output."""
    code = run_cli(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


# --- Shell completion ---------------------------------------------------------------------


def _complete(monkeypatch, capsys, shell: str, words: str) -> list[str]:
    """What rulepress answers the shell `shell` completing `words` (the last one being typed),
    run in-process through click's completion variables, as the shell's script calls it."""
    monkeypatch.setenv("_RULEPRESS_COMPLETE", f"{shell}_complete")
    monkeypatch.setenv("COMP_WORDS", words)
    # bash and zsh give the index of the word typed, fish the word itself
    typed = words.split(" ")[-1] if shell == "fish" else str(len(words.split(" ")) - 1)
    monkeypatch.setenv("COMP_CWORD", typed)
    try:
        cli.main(args=[], prog_name="rulepress")
    except SystemExit as done:
        assert done.code == 0
    return capsys.readouterr().out.splitlines()


def test_the_shell_completes_build_targets(monkeypatch, capsys):
    every = ["foundry", "markdown", "site", "json"]
    assert _complete(monkeypatch, capsys, "bash", "rulepress build --target ") == [
        f"plain,{name}" for name in every
    ]
    assert _complete(monkeypatch, capsys, "bash", "rulepress build --target ma") == [
        "plain,markdown"
    ]
    zsh = _complete(monkeypatch, capsys, "zsh", "rulepress build --target s")
    assert zsh[:2] == ["plain", "site"] and "website" in zsh[2], zsh  # with its description
    fish = _complete(monkeypatch, capsys, "fish", "rulepress build --target j")
    assert fish == ["plain,json\t" + target_descriptions()["json"]]
    # and the rest still completes as click does: the commands, the options
    assert "plain,build" in _complete(monkeypatch, capsys, "bash", "rulepress bu")
    assert "plain,--target" in _complete(monkeypatch, capsys, "bash", "rulepress build --ta")
