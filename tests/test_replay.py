"""A plugin kind's worked examples replay through its own `example` hook, and `diff`
compares its own `figures`: the core names no bundled kind to do either.

The plugin is registered in-process, as tests/test_plugin_errors.py registers its own:
the kind registry is replaced by rulepress's kinds plus `Dial` (package "rulepress-dials").
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import io
from fractions import Fraction
from pathlib import Path
from typing import Literal

import pytest

from rulepress import cli, kinds
from rulepress.models import Document
from rulepress.models.base import Name
from rulepress.models.common import Example
from rulepress.validation import validate
from tests.helpers import commit_all, git, register_kinds

PACKAGE = "rulepress-dials"
RULEPRESS = Path(__file__).resolve().parent.parent / "rulepress"


class Dial(Document):
    """A dial: a plugin's kind whose rule is the score, `base` times the turns."""

    KIND = "dial"
    kind: Literal["dial"]
    name: Name
    base: int
    examples: list[Example] = []


def dial_example(dial: Dial, example: Example, ruleset) -> dict[str, object]:
    if example.given.get("explode"):
        raise RuntimeError("the dial spun off")
    return {"score": dial.base * example.given["turns"]}


def dial_figures(dial: Dial, ruleset) -> dict[str, Fraction]:
    return {"chance of a full turn": Fraction(1, dial.base)}


RULESET = """\
kind: ruleset
id: dials
title: Dials
version: 0.1.0
game: Dials
system: dials-d6
summary: A game of turning dials.
sources:
  - title: The Dial Sheet
    author: A Publisher
    credit: Rules by A Publisher, for the replay test.
"""

DIAL = """\
kind: dial
id: brass-dial
name: Brass Dial
base: {base}
examples:
  - id: two-turns
    title: Two turns
    text: Turned twice, the brass dial scores twice its base.
    given: {{turns: 2{extra}}}
    expect: {{score: {score}}}
"""


@pytest.fixture
def plugin(monkeypatch):
    """rulepress's kinds and the plugin's `dial`, with its example and figures hooks."""
    dial = kinds.Kind(
        Dial,
        example=dial_example,
        figures=dial_figures,
        changes=kinds.DiffWording("brass dial"),
        package=PACKAGE,
    )
    return register_kinds(monkeypatch, dial)


def compendium(root: Path, base: int = 3, score: int = 6, extra: str = "") -> Path:
    folder = root / "compendium" / "dials"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ruleset.yaml").write_text(RULESET, encoding="utf-8")
    (folder / "brass-dial.yaml").write_text(
        DIAL.format(base=base, score=score, extra=extra), encoding="utf-8"
    )
    return root / "compendium"


def example_findings(root: Path) -> list[tuple]:
    return [
        (f.code, f.level.name.lower(), f.file.name, f.line, f.col, f.message)
        for f in validate(root).findings
        if f.code == "RP302"
    ]


def test_a_plugin_example_that_comes_out_as_stated_gives_no_finding(plugin, tmp_path):
    assert example_findings(compendium(tmp_path, base=3, score=6)) == []


def test_a_plugin_example_stating_a_wrong_value_is_rp302_at_the_value(plugin, tmp_path):
    assert example_findings(compendium(tmp_path, base=3, score=7)) == [
        (
            "RP302",
            "warning",
            "brass-dial.yaml",
            10,
            21,
            "example 'two-turns': the source says score 7, the rule gives 6",
        )
    ]


def test_a_plugin_example_missing_an_input_cannot_be_replayed(plugin, tmp_path):
    root = compendium(tmp_path)
    dial = root / "dials" / "brass-dial.yaml"
    dial.write_text(dial.read_text().replace("turns: 2", "spins: 2"))
    [(code, level, _, line, _, message)] = example_findings(root)
    assert (code, level, line) == ("RP302", "info", 9)
    assert "cannot be replayed" in message and "turns" in message


def test_a_plugin_example_hook_that_raises_is_an_error_naming_the_plugin(plugin, tmp_path):
    [(code, level, name, line, col, message)] = example_findings(
        compendium(tmp_path, extra=", explode: true")
    )
    assert (code, level, name, line, col) == ("RP302", "error", "brass-dial.yaml", 6, 5)
    assert f"hook 'example' of kind 'dial' from plugin {PACKAGE} failed" in message
    assert "RuntimeError: the dial spun off" in message or "the dial spun off" in message


def test_the_examples_index_reads_what_the_kinds_declare(plugin):
    from rulepress.games.iris.models.trait import Trait
    from rulepress.games.iris.models.weapon import WeaponSection
    from rulepress.rules.examples import examples_index

    trait = Trait.model_construct(kind="trait", id="vigor", name="Vigor")
    section = WeaponSection.model_construct(kind="weapon-section", id="pistols")
    assert examples_index(trait) is trait  # the skill test's replay reads traits
    assert examples_index(section) is None


def test_diff_of_a_plugin_kind_between_revisions_shows_its_figures(plugin, tmp_path, monkeypatch):
    root = tmp_path / "repo"
    compendium(root, base=3, score=6)
    git(root, "init", "-q")
    commit_all(root, "first")
    compendium(root, base=4, score=8)
    commit_all(root, "second")
    monkeypatch.chdir(root)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.run(["diff", "HEAD~1", "HEAD"])
    lines = out.getvalue()
    assert code == 0, lines
    assert "brass dial Brass Dial: base from 3 to 4" in lines
    assert "chance of a full turn: from 33.3% to 25.0%" in lines


def names_in(path: Path) -> set[str]:
    """Every identifier and string constant a module's code names (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.update(node.name.split("."))
        elif isinstance(node, ast.Constant) and id(node) not in docstrings:
            found.add(str(node.value))
    return found


CORE_KINDS = ("ruleset", "rule", "roll-table", "translation")


@pytest.mark.parametrize(
    "module",
    ["rules/examples.py", "history/__init__.py", "history/changes.py", "history/checkout.py"],
)
def test_history_and_the_example_replay_name_no_bundled_model(module):
    bundled = [kind for name, kind in kinds.registry().items() if name not in CORE_KINDS]
    forbidden = {kind.model.__name__ for kind in bundled} | {kind.name for kind in bundled}
    forbidden |= {"STEPS", "IDENTITY_KEYS", "KIND_LABELS", "RUNNERS"}
    named = names_in(RULEPRESS / module) & forbidden
    assert named == set(), f"{module} names {sorted(named)}"
    assert (RULEPRESS / module).read_text().count("\n") < 400


def test_a_plugin_figures_or_summary_hook_that_raises_stops_diff_naming_the_plugin(
    plugin, tmp_path, monkeypatch
):
    def broken(*args):
        raise ZeroDivisionError("division by zero")

    root = tmp_path / "repo"
    compendium(root, base=3, score=6)
    git(root, "init", "-q")
    commit_all(root, "first")
    (root / "compendium" / "dials" / "copper-dial.yaml").write_text(
        "kind: dial\nid: copper-dial\nname: Copper Dial\nbase: 2\n", encoding="utf-8"
    )
    commit_all(root, "second")
    monkeypatch.chdir(root)
    for hook in ("figures", "summary"):
        dial = plugin["dial"]
        if hook == "figures":
            broken_dial = dataclasses.replace(dial, figures=broken)
        else:
            broken_dial = dataclasses.replace(dial, changes=kinds.DiffWording(summary=broken))
        monkeypatch.setitem(plugin, "dial", broken_dial)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.run(["diff", "HEAD~1", "HEAD"])
        shown = out.getvalue() + err.getvalue()
        assert code == 2, shown
        assert f"from plugin {PACKAGE} failed" in shown and "internal error" not in shown
        monkeypatch.setitem(plugin, "dial", dial)
