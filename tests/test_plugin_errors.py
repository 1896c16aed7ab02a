"""A plugin's faults are the plugin's: whatever a plugin's model, field type, check or
command raises becomes a finding at the document (or the path the plugin names) or one
error naming the plugin, exit 1 or 2, never an internal error (exit 3). Ctrl-C and
sys.exit still stop rulepress.

The plugin is registered in-process: the kind registry is replaced by rulepress's own
kinds plus `Trinket` (package "rulepress-trinkets"), whose hooks raise what `FAULT` says.
"""

from __future__ import annotations

import contextlib
import io
import sys
import types
from pathlib import Path
from typing import Annotated, Literal

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import AfterValidator, field_validator, model_validator

from rulepress import cli, kinds
from rulepress.errors import Code, Level, PluginError, Problem
from rulepress.models import Document
from rulepress.models.base import Name
from rulepress.validation import validate
from rulepress.validators import registry as checks
from tests.helpers import register_kinds

PACKAGE = "rulepress-trinkets"
FAULT: dict[str, BaseException | None] = {}
"""Hook name -> what it raises on its next call (nothing for a hook not named)."""


def fault(hook: str) -> None:
    raised = FAULT.get(hook)
    if raised is not None:
        raise raised


def polished(value: int) -> int:
    fault("custom type")
    return value


class Trinket(Document):
    """A trinket: a plugin's kind whose every validator can be made to fail."""

    KIND = "trinket"
    kind: Literal["trinket"]
    name: Name
    charm: Annotated[int, AfterValidator(polished)] = 0
    sides: list[int] = []

    @model_validator(mode="before")
    @classmethod
    def _before(cls, data: object) -> object:
        fault("model validator before")
        return data

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        fault("field validator")
        return value

    @model_validator(mode="after")
    def _after(self) -> Trinket:
        fault("model validator after")
        if self.sides and sum(self.sides) != 6:
            raise ValueError("the sides must add up to 6")
        if 0 in self.sides:
            raise Problem("a side cannot be blank", ("sides", self.sides.index(0)))
        return self


def trinket_check(ruleset):
    """Every trinket is well polished (the plugin's cross-document check)."""
    fault("check")
    yield from ()


RULESET = """\
kind: ruleset
id: trinkets
title: Trinkets
version: 0.1.0
game: Trinkets
system: trinkets-d6
summary: A game of small lucky things.
sources:
  - title: The Trinket Sheet
    author: A Publisher
    credit: Rules by A Publisher, for the plugin test.
"""

TRINKET = """\
kind: trinket
id: lucky-die
name: Lucky Die
charm: 3
sides: {sides}
"""


@pytest.fixture
def plugin(monkeypatch):
    """rulepress's kinds and the plugin's `trinket`, its check registered; FAULT cleared."""
    with plugin_installed(monkeypatch) as extended:
        yield extended


@contextlib.contextmanager
def plugin_installed(monkeypatch):
    hooks = types.ModuleType("trinket_hooks")
    hooks.roll = click.Command("trinket", callback=lambda: fault("command"))
    hooks.not_a_command = 42
    monkeypatch.setitem(sys.modules, "trinket_hooks", hooks)
    extended = register_kinds(
        monkeypatch, kinds.Kind(Trinket, roll="trinket_hooks:roll", package=PACKAGE)
    )
    registered = checks.Check(
        "RP299", "trinket-polish", Level.WARNING, trinket_check, package=PACKAGE
    )
    checks.CHECKS.append(registered)
    FAULT.clear()
    yield extended
    FAULT.clear()
    checks.CHECKS.remove(registered)


def compendium(root: Path, sides: str = "[1, 2, 3]") -> Path:
    folder = root / "compendium" / "trinkets"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ruleset.yaml").write_text(
        RULESET,
        encoding="utf-8",
    )
    (folder / "lucky-die.yaml").write_text(TRINKET.format(sides=sides), encoding="utf-8")
    return root / "compendium"


def rulepress(*args: str) -> tuple[int, str]:
    """The command line run in-process: its exit code and everything it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.run(list(args))
    return code, out.getvalue() + err.getvalue()


# -- the document-level check of point 1, and the plugin's own place (Problem) ---------


def test_a_whole_document_check_is_a_finding_at_the_document(plugin, tmp_path):
    code, output = rulepress("validate", "--no-cache", str(compendium(tmp_path, "[1, 2]")))
    assert code == 1, output
    assert "lucky-die.yaml:1:1: error RP105" in output
    assert "the sides must add up to 6" in output
    assert "internal error" not in output


def test_a_problem_points_at_the_row_the_plugin_names(plugin, tmp_path):
    root = compendium(tmp_path, "\n  - 3\n  - 0\n  - 3")
    code, output = rulepress("validate", "--no-cache", str(root))
    assert code == 1, output
    assert "lucky-die.yaml:7:5: error RP105" in output  # the `0`, below `sides:`
    assert "sides[1]: a side cannot be blank" in output


def test_a_problem_may_name_one_of_rulepress_codes_or_a_plugins(plugin, tmp_path):
    FAULT["model validator after"] = Problem("too shiny", ("name",), code=Code.OUT_OF_RANGE)
    findings = validate(compendium(tmp_path)).findings
    assert [(f.code, f.line, f.col, f.message) for f in findings] == [
        ("RP104", 3, 7, "name: too shiny")
    ]
    # a code of a prefix this plugin's game does not declare (it declares none): RP105
    FAULT["model validator after"] = Problem("too shiny", ("name",), code="TRK001")
    findings = validate(compendium(tmp_path)).findings
    assert [(f.code, f.message) for f in findings] == [
        ("RP105", "name: too shiny (code TRK001 is not of this game's prefix)")
    ]
    for refused in ("RP999", "trk001", "TRK1"):  # RP is rulepress's, the rest no codes
        with pytest.raises(TypeError, match="one of rulepress's codes"):
            Problem("mine", code=refused)
    with pytest.raises(TypeError, match="tuple of keys and indices"):
        Problem("mine", ["rows", 1])


def test_a_check_may_raise_a_problem_at_a_document(plugin, tmp_path):
    def at_the_die(ruleset):
        """A plugin check that stops at the first problem."""
        raise Problem("the die is loaded", ("sides", 2), document="lucky-die")
        yield

    plugin_check = checks.Check("RP298", "trinket-loaded", Level.ERROR, at_the_die)
    checks.CHECKS.append(plugin_check)
    try:
        findings = validate(compendium(tmp_path)).findings
    finally:
        checks.CHECKS.remove(plugin_check)
    assert [(f.code, f.file.name, f.line, f.col, f.message) for f in findings] == [
        ("RP298", "lucky-die.yaml", 5, 15, "the die is loaded")
    ]


# -- whatever else a hook raises --------------------------------------------------------

HOOKS = (
    "model validator before",
    "model validator after",
    "field validator",
    "custom type",
    "check",
)


class PluginTrouble(Exception):
    """An exception class of the plugin's own."""


class Unprintable(Exception):
    """An exception whose text itself fails."""

    def __str__(self) -> str:
        raise RuntimeError("no text")


EXCEPTIONS = (
    lambda: ValueError("bad trinket"),
    lambda: AssertionError("not shiny"),
    lambda: TypeError("unsupported operand"),
    lambda: KeyError("polish"),
    lambda: IndexError("tuple index out of range"),
    lambda: AttributeError("'NoneType' object has no attribute 'sides'"),
    lambda: ZeroDivisionError("division by zero"),
    lambda: RecursionError("maximum recursion depth exceeded"),
    lambda: RuntimeError("x" * 100_000),
    lambda: NotImplementedError(),
    lambda: PluginTrouble("the plugin's own"),
    lambda: Unprintable(),
    lambda: Problem("a problem of the plugin's", ("name",)),
    lambda: MemoryError(),
    lambda: UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(hook=st.sampled_from(HOOKS), make=st.sampled_from(EXCEPTIONS))
def test_any_exception_from_any_hook_is_a_finding_naming_the_plugin(plugin, tmp_path, hook, make):
    root = compendium(tmp_path)
    FAULT.clear()
    FAULT[hook] = make()
    code, output = rulepress("validate", "--no-cache", str(root))
    assert "internal error" not in output and "Traceback" not in output
    assert "x" * 1000 not in output  # a plugin's huge text is cut
    if hook == "check" and isinstance(FAULT[hook], Problem):  # a finding of the check's level
        assert code == 0, output
        assert "trinkets/ruleset.yaml:1:1: warning RP299: a problem of the plugin's" in output
        return
    assert code == 1, output
    if isinstance(FAULT[hook], ValueError | AssertionError) and hook != "check":
        assert "lucky-die.yaml:" in output  # pydantic's own: a finding like any data error
    elif hook == "check":
        assert "RP299" in output and "trinket-polish" in output and PACKAGE in output
        assert "trinkets/ruleset.yaml:1:1: error RP299" in output
    else:
        assert "lucky-die.yaml:1:1: error RP105" in output and PACKAGE in output
        assert type(FAULT[hook]).__name__ in output


@settings(max_examples=40, deadline=None)
@given(hook=st.sampled_from(("command", "chart")), make=st.sampled_from(EXCEPTIONS))
def test_any_exception_from_a_command_or_an_exporter_hook_is_an_error_naming_the_plugin(hook, make):
    """The hooks that are called, not validated with: `rulepress roll trinket`, and a
    chart as the site's exporter calls it (through kinds.load_hook)."""
    with pytest.MonkeyPatch.context() as monkeypatch, plugin_installed(monkeypatch) as plugin:
        hooks = sys.modules["trinket_hooks"]
        hooks.chart = lambda ruleset: fault("chart") or {}
        monkeypatch.setitem(
            plugin,
            "trinket",
            kinds.Kind(
                Trinket, roll="trinket_hooks:roll", chart="trinket_hooks:chart", package=PACKAGE
            ),
        )
        FAULT[hook] = make()
        if hook == "command":
            code, output = rulepress("roll", "trinket")
            assert code == 2, output
            assert f"error: rulepress roll trinket (from {PACKAGE}) failed" in output
            assert "internal error" not in output and "x" * 1000 not in output
        else:
            with pytest.raises(PluginError, match=f"from plugin {PACKAGE} failed") as raised:
                kinds.load_hook("trinket_hooks:chart")(None)
            assert len(str(raised.value)) < 500


def test_a_failing_check_leaves_the_other_checks_running(plugin, tmp_path):
    root = compendium(tmp_path)
    (root / "trinkets" / "other.yaml").write_text(
        "kind: trinket\nid: lucky-die\nname: Copy\n", encoding="utf-8"
    )  # a duplicate id, which one of rulepress's own checks finds
    FAULT["check"] = ZeroDivisionError("division by zero")
    findings = validate(root).findings
    codes = {f.code for f in findings}
    assert "RP299" in codes and len(codes) > 1, findings
    failed = next(f for f in findings if f.code == "RP299")
    assert failed.level is Level.ERROR
    assert f"check RP299 (trinket-polish) of {PACKAGE} failed" in failed.message


@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit, GeneratorExit])
@pytest.mark.parametrize("hook", HOOKS)
def test_ctrl_c_and_exit_from_a_hook_still_stop_rulepress(plugin, tmp_path, hook, stop):
    FAULT[hook] = stop()
    with pytest.raises(stop):
        validate(compendium(tmp_path))


# -- a plugin's commands ----------------------------------------------------------------


def test_a_command_hook_that_does_not_import_is_an_error_naming_the_plugin(plugin, monkeypatch):
    broken = kinds.Kind(Trinket, roll="trinket_hooks_gone:roll", package=PACKAGE)
    monkeypatch.setitem(plugin, "trinket", broken)
    for args in (["roll", "--help"], ["roll", "trinket"], ["odds", "--help"]):
        code, output = rulepress(*args)
        if args[0] == "odds":  # the kind has no odds command: the others still list
            assert code == 0, output
            continue
        assert code == 2, output
        assert PACKAGE in output and "trinket_hooks_gone:roll" in output, output
        assert "internal error" not in output


def test_a_command_hook_naming_no_command_is_an_error_naming_the_plugin(plugin, monkeypatch):
    monkeypatch.setitem(
        plugin, "trinket", kinds.Kind(Trinket, roll="trinket_hooks:not_a_command", package=PACKAGE)
    )
    code, output = rulepress("roll", "trinket")
    assert code == 2, output
    assert PACKAGE in output and "not a click command" in output


@pytest.mark.parametrize("make", EXCEPTIONS[:12], ids=lambda make: type(make()).__name__)
def test_a_plugin_command_that_raises_is_an_error_naming_the_plugin(plugin, make):
    FAULT["command"] = make()
    code, output = rulepress("roll", "trinket")
    assert code == 2, output
    assert f"error: rulepress roll trinket (from {PACKAGE}) failed" in output
    assert "internal error" not in output


def test_a_plugin_command_that_stops_still_stops(plugin):
    FAULT["command"] = KeyboardInterrupt()
    assert rulepress("roll", "trinket")[0] == 2  # click's "aborted"
    FAULT["command"] = SystemExit(0)
    assert rulepress("roll", "trinket")[0] == 0


def test_a_plugin_check_that_failed_is_not_kept_once_it_passes(plugin, tmp_path):
    """A live compendium re-runs a document check on the changed files only: the error
    about the check's failure (at ruleset.yaml) must not outlive the failure."""
    from rulepress.live import LiveCompendium

    def per_document(ruleset):
        """A plugin check of each document alone."""
        fault("document check")
        yield from ()

    plugin_check = checks.Check(
        "RP297", "trinket-each", Level.ERROR, per_document, "document", package=PACKAGE
    )
    checks.CHECKS.append(plugin_check)
    try:
        root = compendium(tmp_path)
        FAULT["document check"] = KeyError("polish")
        live = LiveCompendium(root)
        assert [f.code for f in live.validation.findings] == ["RP297"]
        assert "KeyError: 'polish'" in live.validation.findings[0].message
        FAULT.clear()
        die = root / "trinkets" / "lucky-die.yaml"
        die.write_text(die.read_text(encoding="utf-8").replace("charm: 3", "charm: 4"))
        update = live.update([die])
        assert update.ok and not update.findings, update.findings
    finally:
        checks.CHECKS.remove(plugin_check)


def test_a_plugin_check_index_that_fails_runs_the_check_whole(plugin, tmp_path):
    from rulepress.live import LiveCompendium

    runs = []

    def counted(ruleset):
        """A plugin check that reads only each document's name."""
        runs.append(len(ruleset.entries))
        yield from ()

    def index(document):
        fault("index")
        return document.name

    plugin_check = checks.Check(
        "RP297", "trinket-names", Level.ERROR, counted, "ruleset", index, package=PACKAGE
    )
    checks.CHECKS.append(plugin_check)
    try:
        root = compendium(tmp_path)
        live = LiveCompendium(root)
        FAULT["index"] = ZeroDivisionError("division by zero")
        die = root / "trinkets" / "lucky-die.yaml"
        die.write_text(die.read_text(encoding="utf-8").replace("charm: 3", "charm: 4"))
        update = live.update([die])
        assert update.ok and not update.findings, update.findings
        assert len(runs) == 2  # once at the start, once whole after the edit
    finally:
        checks.CHECKS.remove(plugin_check)


def test_fmt_of_a_document_a_plugin_model_fails_on_is_refused_not_a_crash(plugin, tmp_path):
    root = compendium(tmp_path)
    die = root / "trinkets" / "lucky-die.yaml"
    before = die.read_bytes()
    FAULT["model validator after"] = TypeError("unsupported operand")
    code, output = rulepress("fmt", str(root))
    assert code == 1, output
    assert "lucky-die.yaml" in output and "not valid" in output
    assert "internal error" not in output
    assert die.read_bytes() == before


# -- a plugin's hooks the exporters call (charts, calculators, section helpers) --------


def test_a_plugin_hook_that_does_not_import_or_raises_is_an_error_naming_the_plugin(
    plugin, monkeypatch
):
    hooks = sys.modules["trinket_hooks"]
    hooks.chart = lambda ruleset: fault("chart") or {}
    charted = kinds.Kind(
        Trinket, chart="trinket_hooks:chart", calculator="gone:calc", package=PACKAGE
    )
    monkeypatch.setitem(plugin, "trinket", charted)
    with pytest.raises(
        PluginError,
        match=f"'gone:calc' of kind 'trinket' from plugin {PACKAGE} cannot be imported: ModuleNotFoundError",
    ):
        kinds.load_hook("gone:calc")
    chart = kinds.load_hook("trinket_hooks:chart")
    assert chart(None) == {}
    FAULT["chart"] = IndexError("list index out of range")
    with pytest.raises(
        PluginError,
        match=f"'trinket_hooks:chart' of kind 'trinket' from plugin {PACKAGE} failed: IndexError",
    ):
        chart(None)
    FAULT["chart"] = KeyboardInterrupt()
    with pytest.raises(KeyboardInterrupt):
        chart(None)
    # rulepress's own hooks are returned as they are: their failure is a bug to report
    own = kinds.registry()["skill-test"].chart
    assert kinds.load_hook(own) is kinds.load_hook(own)
