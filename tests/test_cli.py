"""The command line end to end, run as a user runs it: exit codes, formats, no tracebacks."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import COMPENDIUM, base_tree, build_tree, run


@pytest.fixture
def broken(tmp_path) -> Path:
    tree = base_tree()
    tree["demo/weapons/test-pistol.yaml"] = tree["demo/weapons/test-pistol.yaml"].replace(
        "cost: 1", "cost: one"
    )
    return build_tree(tmp_path / "broken", tree)


def test_validate_on_the_bundled_compendium_shows_no_finding_all_being_acknowledged():
    result = run("validate")
    assert result.returncode == 0
    assert re.fullmatch(r"0 errors, 0 warnings, 0 info, \d+ acknowledged\n", result.stdout)


def test_every_acknowledged_finding_on_the_bundled_compendium_points_at_a_yaml_line():
    output = run("validate", "--show-acknowledged").stdout.strip().splitlines()
    lines = output[: output.index("")]  # the findings, before the count by code
    assert lines
    for line in lines:
        place = line.split(": ", 1)[0]
        path, row, col = place.rsplit(":", 2)
        assert path.startswith("compendium/") and path.endswith(".yaml"), line
        assert int(row) >= 1 and int(col) >= 1
        assert " (acknowledged: The " in line, line


def test_validate_exits_1_and_names_the_line_of_an_error(broken):
    result = run("validate", str(broken))
    assert result.returncode == 1
    assert "demo/weapons/test-pistol.yaml:11:7: error RP103: cost:" in result.stdout


def test_validate_exits_2_for_a_compendium_that_does_not_exist(tmp_path):
    result = run("validate", str(tmp_path / "missing"))
    assert result.returncode == 2
    assert "compendium folder not found" in result.stderr


def test_validate_exits_2_for_an_unknown_option():
    assert run("validate", "--colour").returncode == 2


def test_json_output_lists_findings_with_positions(broken):
    result = run("validate", str(broken), "--format", "json")
    data = json.loads(result.stdout)
    assert data["ok"] is False and data["counts"]["error"] == 1
    (finding,) = data["findings"]
    assert (finding["code"], finding["name"], finding["line"], finding["col"]) == (
        "RP103",
        "wrong-type",
        11,
        7,
    )


def test_github_format_prints_annotations(broken):
    result = run("validate", str(broken), "--format", "github")
    assert result.stdout.startswith("::error file=")
    assert ",line=11,col=7,title=RP103 wrong-type::" in result.stdout


def test_strict_passes_on_the_bundled_compendium_every_source_problem_acknowledged():
    result = run("validate", "--strict")
    assert result.returncode == 0, result.stdout
    assert result.stdout.startswith("0 errors, 0 warnings, 0 info, ")


def test_strict_fails_on_one_new_mistake_and_shows_only_it(tmp_path):
    """A wrong damage figure in an acknowledged document: its acknowledgements still
    match their findings, and the one new finding is the only one shown. (Too high, not
    too low: a tier 4 damage too low is also below the tier 3 one, RP225.)"""
    copy = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM, copy)
    cannon = copy / "iris/weapons/rapid-fire-weapons/tactical-auto-cannon.yaml"
    text = cannon.read_text()
    wrong = "{ap: 18, damage: 36, defense: 26,"
    cannon.write_text(text.replace("{ap: 18, damage: 26, defense: 26,", wrong))
    result = run("validate", "--strict", str(copy))
    assert result.returncode == 1
    findings = result.stdout.splitlines()[: result.stdout.splitlines().index("")]
    assert len(findings) == 1, result.stdout
    assert findings[0].endswith(
        "tactical-auto-cannon.yaml:33:22: error RP209: damage falls from 36 at AP 18 to 26 at AP 19"
    )
    assert result.stdout.splitlines()[-1].startswith("1 error, 0 warnings, 0 info, ")


def test_strict_fails_on_one_unknown_field_and_shows_only_it(tmp_path):
    copy = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM, copy)
    pistol = next((copy / "iris/weapons").rglob("heavy-shotgun.yaml"))
    pistol.write_text(
        pistol.read_text().replace("rarity: Uncommon", "rarity: Uncommon\nrarety: Rare")
    )
    result = run("validate", "--strict", str(copy))
    assert result.returncode == 1
    findings = result.stdout.splitlines()[: result.stdout.splitlines().index("")]
    assert len(findings) == 1 and " error RP101: " in findings[0], result.stdout


def test_show_acknowledged_prints_them_marked_with_their_reason_and_counts_them_apart():
    result = run("validate", "--show-acknowledged")
    assert result.returncode == 0
    assert (
        "compendium/t2k4e/dice/odds-initial.yaml:9:31: warning RP301 (acknowledged: The "
        "source prints 49% for a d8 attribute with a d6 skill, where the exact chance is "
        "47.9%. Kept as printed (ruling printed-percentages-kept).): attribute d8 + skill "
        "d6: printed 49%, the rules give 47.9%"
    ) in result.stdout.splitlines()
    assert "RP301 printed-odds-differ (warning, acknowledged)" in result.stdout


def test_json_lists_acknowledged_findings_flagged_with_their_reason():
    data = json.loads(run("validate", "--format", "json").stdout)
    assert data["version"] == 1 and data["ok"] is True
    assert data["counts"]["warning"] == 0 and data["counts"]["acknowledged"] > 0
    assert len(data["findings"]) == data["counts"]["acknowledged"]
    for finding in data["findings"]:
        assert finding["acknowledged"] is True and "kept as" in finding["reason"].lower()


def test_github_format_leaves_acknowledged_findings_out():
    result = run("validate", "--format", "github")
    assert result.returncode == 0 and result.stdout.strip() == ""


def test_build_writes_nothing_when_validation_fails(broken, tmp_path):
    out = tmp_path / "dist"
    result = run("build", str(broken), "--out", str(out))
    assert result.returncode == 1
    assert "nothing was written" in result.stderr
    assert not out.exists()


def test_build_writes_every_target_and_is_deterministic(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    assert run("build", str(COMPENDIUM), "--out", str(first)).returncode == 0
    assert run("build", str(COMPENDIUM), "--out", str(second)).returncode == 0
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files
    for relative in files:
        assert (first / relative).read_bytes() == (second / relative).read_bytes()


def test_build_replaces_the_previous_output_whole(tmp_path):
    out = tmp_path / "dist"
    assert run("build", "--out", str(out), "--target", "json").returncode == 0
    (out / "json" / "stale.json").write_text("{}")
    assert run("build", "--out", str(out)).returncode == 0
    assert not (out / "json" / "stale.json").exists()
    assert (out / "json" / "iris.json").is_file()
    # no staging folder is left, only the lock that keeps builds from overlapping
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == [".rulepress-build.lock"]


def test_a_failed_build_keeps_the_previous_output(broken, tmp_path):
    out = tmp_path / "dist"
    assert run("build", "--out", str(out)).returncode == 0
    before = (out / "json" / "iris.json").read_bytes()
    assert run("build", str(broken), "--out", str(out)).returncode == 1
    assert (out / "json" / "iris.json").read_bytes() == before


@pytest.mark.parametrize(
    ("target", "name", "text", "line", "message"),
    [
        ("foundry", "weapon-item.html.j2", "<p>\n{{ nothing }}\n", 2, "'nothing' is undefined"),
        ("markdown", "sections/weapon.md.j2", "{% if %}\n", 1, "Expected an expression"),
    ],
)
def test_a_broken_template_is_named_at_its_line_and_its_target_is_not_written(
    tmp_path, target, name, text, line, message
):
    templates = tmp_path / "templates"
    (templates / name).parent.mkdir(parents=True)
    (templates / name).write_text(text, encoding="utf-8")
    out = tmp_path / "dist"
    result = run("build", "--target", target, "--templates", str(templates), "--out", str(out))
    assert result.returncode == 2
    assert f"error: {templates / name}:{line}: template error: {message}" in result.stderr
    assert not (out / target).exists()


def test_build_refuses_an_unknown_target(tmp_path):
    result = run("build", "--target", "roll20", "--out", str(tmp_path / "d"))
    assert result.returncode == 2
    assert "unknown target 'roll20'" in result.stderr


def test_build_refuses_an_output_path_that_is_a_file(tmp_path):
    out = tmp_path / "dist"
    out.write_text("not a folder")
    result = run("build", "--out", str(out))
    assert result.returncode == 2
    assert "not a folder" in result.stderr


def test_help_lists_every_command():
    result = run("--help")
    for command in ("validate", "build", "import"):
        assert command in result.stdout


def test_build_with_the_default_relative_out_writes_every_target(tmp_path):
    """`make build` runs `rulepress build` from the repository: relative `compendium` and
    `dist` must work for every target, the site included."""
    work = tmp_path / "work"
    shutil.copytree(COMPENDIUM, work / "compendium")
    result = run("build", cwd=work)
    assert result.returncode == 0, result.stderr
    for page in (
        "site/index.html",
        "site/iris/weapons/pistols.html",
        "markdown/iris.md",
        "foundry/rulepress-iris/module.json",
        "json/iris.json",
    ):
        assert (work / "dist" / page).is_file(), page


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "iris", "--rank", "3", "--traits", "5,3", "--faces", "1,4,6"],
        [
            "roll",
            "t2k4e",
            "--attribute",
            "d12",
            "--skill",
            "d8",
            "--push",
            "--for",
            "AGL",
            "--seed",
            "2",
        ],
        ["roll", "cuf", "--cuf", "4", "--willpower", "6", "--tcs", "9", "--d20", "12"],
        ["roll", "cool", "fear", "--cool", "50", "--roll", "70"],
    ],
    ids=["iris", "t2k4e pushed", "cuf", "cool"],
)
def test_a_roll_prints_plain_words_not_python(args):
    result = run(*args)
    assert result.returncode == 0, result.stderr
    for line in result.stdout.splitlines():
        label, _, value = line.partition(": ")
        assert "_" not in label, line
        assert not value.startswith(("[", "{", "(")), line  # no repr of a list or dict
        assert value not in ("True", "False", "None"), line


def test_the_t2k4e_odds_json_gives_each_computed_chance_as_an_exact_fraction():
    result = run("odds", "t2k4e", "--json")
    data = json.loads(result.stdout)
    cell = data["tables"][0]["rows"][0]["cells"][0]
    assert cell["attribute"] == "d6"
    assert cell["computed"] == {"fraction": "1/6", "percent": 16.6667}


def test_validate_ends_with_the_findings_counted_by_code():
    result = run("validate", "--show-acknowledged", str(COMPENDIUM))
    lines = result.stdout.splitlines()
    findings = [line for line in lines if ": warning RP" in line or ": info RP" in line]
    block = lines[lines.index("by code:") + 1 : -1]
    counted = {}
    for line in block:
        count, code_and_name = line.split(maxsplit=1)
        counted[code_and_name] = int(count)
    assert sum(counted.values()) == len(findings) > 0
    drafts = sum(": warning RP211 (acknowledged" in line for line in findings)
    assert counted["RP211 draft (warning, acknowledged)"] == drafts
    assert list(counted.values()) == sorted(counted.values(), reverse=True)


def test_build_says_how_to_list_the_findings_it_counted(tmp_path):
    result = run("build", str(COMPENDIUM), "--out", str(tmp_path / "dist"), "--target", "json")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("validated: 0 errors, ")
    assert first.endswith(f"(to list them: rulepress validate --show-acknowledged {COMPENDIUM})")


ROLLS = [
    ["roll", "iris", "--rank", "3", "--traits", "5,3", "--faces", "1,4,6"],
    [
        *("roll", "t2k4e", "--attribute", "d12", "--skill", "d8", "--modifier", "-1"),
        *("--faces", "3,7", "--push", "--push-faces", "10", "--for", "STR"),
    ],
    ["roll", "cuf", "--cuf", "4", "--willpower", "6", "--tcs", "9", "--d20", "12"],
    ["roll", "cool", "shock", "--cool", "40", "--roll", "50"],
]


@pytest.mark.parametrize("args", ROLLS, ids=lambda args: args[1])
def test_a_roll_says_its_result_in_a_sentence_over_aligned_values(args):
    result = run(*args)
    assert result.returncode == 0, result.stderr
    sentence, blank, *lines = result.stdout.splitlines()
    assert sentence.endswith(".") and len(sentence.split()) > 5 and blank == ""
    starts: dict[int, set[int]] = {}
    for line in lines:
        indent = len(line) - len(line.lstrip())
        value = line.partition(":")[2]
        if value.strip():  # a label over a nested part has no value
            starts.setdefault(indent, set()).add(len(line) - len(value.lstrip()))
    assert starts and all(len(columns) == 1 for columns in starts.values()), result.stdout


def column_spans(line: str) -> tuple[list[int], list[int]]:
    """Where each cell of a text table line ends, and where it starts (cells are two or
    more spaces apart)."""
    cells = list(re.finditer(r"\S+(?: \S+)*", line))
    return [cell.end() for cell in cells], [cell.start() for cell in cells]


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "t2k4e"],
        ["odds", "iris", "--max-rank", "12", "--up-to", "14"],
        ["odds", "iris", "--rank", "6", "--trait-bonus", "2"],
        ["odds", "t2k4e", "--attribute", "d12", "--skill", "d8"],
    ],
    ids=["t2k4e tables", "iris table", "iris rank", "t2k4e pool"],
)
def test_odds_tables_have_headers_and_aligned_columns(args):
    result = run(*args)
    assert result.returncode == 0, result.stderr
    blocks = [block.splitlines() for block in result.stdout.split("\n\n")]
    tables = 0
    for block in blocks:
        table = [line for line in block if "  " in line]  # titles are sentences
        if len(table) < 2:
            continue
        tables += 1
        # the first column is to the left; every other ends where its heading ends, or
        # (the exact fractions, last) starts where it starts
        ends, starts = zip(*(column_spans(line) for line in table), strict=True)
        for column in range(1, len(ends[0])):
            by_end = {spans[column] for spans in ends}
            by_start = {spans[column] for spans in starts}
            assert len(by_end) == 1 or len(by_start) == 1, block
    assert tables >= 1


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "t2k4e"],
        ["odds", "iris", "--max-rank", "3", "--up-to", "6"],
        ["odds", "iris", "--rank", "3"],
        ["odds", "t2k4e", "--attribute", "d12", "--skill", "d8"],
    ],
)
def test_every_chance_in_odds_json_is_an_exact_fraction(args):
    result = run(*args, "--format", "json")
    found = []

    def walk(value):
        if isinstance(value, dict):
            if "percent" in value:
                assert re.fullmatch(r"[0-9]+/[1-9][0-9]*", value["fraction"]), value
                numerator, denominator = map(int, value["fraction"].split("/"))
                assert abs(numerator * 100 / denominator - value["percent"]) < 1e-4
                found.append(value)
            else:
                assert not any(isinstance(v, float) for v in value.values()), value
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            assert not any(isinstance(v, float) for v in value), value
            for item in value:
                walk(item)

    walk(json.loads(result.stdout))
    assert found
