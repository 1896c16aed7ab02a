"""A plugin's own finding codes: its game's prefix, its checks, their scopes.

Each case installs a fake distribution (see tests/test_plugin_api.py's `install`) whose
game declares `code_prefix="ORC"` and a check ORC001 of scope "group".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulepress.cli import cli
from rulepress.errors import RulepressError
from rulepress.exporters.site.pages import finding_codes
from rulepress.kinds import games
from rulepress.validation import validate
from rulepress.validators.registry import check, registered_checks
from tests.helpers import RULESET, RULESET_FILE, Session, build_tree

ORACLE = '''
from typing import Literal
from pydantic import model_validator
from rulepress.plugin import Document, Game, Kind, Level, Name, Problem, Report, check

SEEN = []
"""The ids each run of ORC001 saw, in order: what the live re-check ran it on."""


class Omen(Document):
    """An omen of one band."""

    KIND = "omen"
    kind: Literal["omen"]
    name: Name
    band: str
    sign: int

    @model_validator(mode="after")
    def _sign_counts(self):
        if self.sign < 0:
            raise Problem("a sign is never below 0", ("sign",), code="ORC104")
        return self


@check("ORC001", "sign-repeated", Level.WARNING, reads="group")
def sign_repeated(ruleset):
    """Two omens of one band read the same sign."""
    omens = [e for e in ruleset.entries if isinstance(e.document, Omen)]
    SEEN.append(tuple(e.document.id for e in omens))
    taken = {}
    for entry in omens:
        key = (entry.document.band, entry.document.sign)
        if key in taken:
            yield Report(entry, f"sign {entry.document.sign} is {taken[key]}'s too", ("sign",))
        else:
            taken[key] = entry.document.id


def band_of(omen):
    """The omen's group: its band (a band "boom" is a hook that fails)."""
    if omen.band == "boom":
        raise KeyError("boom")
    return omen.band


@check("ORC002", "unknown-band", Level.ERROR, reads="document")
def unknown_band(ruleset):
    """An omen's band is one the oracle reads."""
    for entry in ruleset.entries:
        if isinstance(entry.document, Omen) and entry.document.band == "x":
            yield Report(entry, "no band x", ("band",))


GAME = Game(
    GAME_ID,
    "The Oracle",
    kinds=(Kind(Omen, group=band_of),),
    checks=(sign_repeated, unknown_band),
    code_prefix=PREFIX,
)
'''


def oracle(install, prefix: str = "ORC", distribution: str = "rulepress-oracle", module="orc"):
    """Install the oracle game as `distribution`, its module `module`."""
    source = ORACLE.replace("PREFIX", repr(prefix)).replace("GAME_ID", repr(module))
    install(distribution, {"rulepress.games": {module: f"{module}:GAME"}}, {f"{module}.py": source})
    return module


def omen(id_: str, band: str, sign: int, extra: str = "") -> str:
    return f"kind: omen\nid: {id_}\nname: {id_.title()}\nband: {band}\nsign: {sign}\n{extra}"


def tree(root: Path, extra: str = "") -> Path:
    return build_tree(
        root,
        {
            RULESET_FILE: RULESET,
            "demo/omens/a1.yaml": omen("a1", "a", 1),
            "demo/omens/a2.yaml": omen("a2", "a", 1, extra),
            "demo/omens/b1.yaml": omen("b1", "b", 1),
            "demo/omens/b2.yaml": omen("b2", "b", 2),
        },
    )


def test_a_plugins_check_reports_under_its_own_code(install, tmp_path):
    oracle(install, module="oracle")
    root = tree(tmp_path / "c")
    result = CliRunner().invoke(cli, ["validate", "--compendium", str(root), "--format", "json"])
    found = [f for f in json.loads(result.stdout)["findings"] if f["code"] == "ORC001"]
    assert [(f["name"], Path(f["file"]).name, f["line"]) for f in found] == [
        ("sign-repeated", "a2.yaml", 5)
    ]
    assert next(c for c in registered_checks() if c.code == "ORC001").origin == "rulepress-oracle"


def test_a_plugins_finding_can_be_acknowledged(install, tmp_path):
    oracle(install, module="oracle")
    extra = "acknowledged:\n  - {code: ORC001, at: sign, reason: The book prints it twice.}\n"
    validation = validate(tree(tmp_path / "c", extra))
    (finding,) = [f for f in validation.findings if f.code == "ORC001"]
    assert finding.acknowledged and finding.reason == "The book prints it twice."
    assert not [f for f in validation.findings if f.code == "RP011"]  # none stale


def test_the_codes_page_lists_a_plugins_checks_under_its_package(install):
    oracle(install, module="oracle")
    from rulepress.exporters.site.pages import pages_environment

    codes = finding_codes()
    assert [(p, [c.code for c in cs]) for p, cs in codes["plugin_checks"]] == [
        ("rulepress-oracle", ["ORC001", "ORC002"])
    ]
    assert all(c.code.startswith("RP") for c in codes["checks"])
    page = pages_environment().get_template("finding-codes.md.j2").render(**codes)
    assert "## Checks of rulepress-oracle\n\n### ORC001 sign-repeated\n" in page
    assert "Two omens of one band read the same sign." in page


def test_a_prefix_two_packages_declare_is_refused_naming_both(install):
    oracle(install, distribution="rulepress-oracle", module="oracle")
    oracle(install, distribution="rulepress-orcs", module="orcs")
    with pytest.raises(RulepressError) as refused:
        games()
    message = str(refused.value)
    assert "'ORC'" in message and "rulepress-oracle" in message and "rulepress-orcs" in message


@pytest.mark.parametrize(
    ("prefix", "message"),
    [
        ("ORB", "must have a code of the game's prefix 'ORB'"),
        ("RP", "'RP' is rulepress's own"),
        ("orc", "must be 2 to 5 capitals"),
        ("", "must be 2 to 5 capitals"),
    ],
)
def test_a_check_coded_outside_its_games_prefix_is_refused(install, prefix, message):
    oracle(install, prefix=prefix, module="oracle")
    with pytest.raises(RulepressError, match=message):
        games()


def test_a_plugins_check_with_a_code_of_rulepress_is_refused():
    def stray(ruleset):
        return ()

    stray.__module__ = "orc"
    with pytest.raises(ValueError, match="RP codes are rulepress's own"):
        check("RP299", "stray", "warning")(stray)
    with pytest.raises(ValueError, match="three digits"):
        check("ORC01", "stray", "warning")


def test_a_group_check_runs_again_only_on_the_edited_group(install, tmp_path):
    import sys

    oracle(install, module="oracle")
    root = tree(tmp_path / "c")
    session = Session(root)
    seen = sys.modules["oracle"].SEEN
    assert seen == [("a1", "a2", "b1", "b2")]
    session.write("demo/omens/b2.yaml", omen("b2", "b", 1))  # now a repeat in band b
    session.write("demo/omens/b2.yaml", omen("b2", "a", 3))  # moved from band b to a
    session.write("demo/omens/a1.yaml", omen("a1", "a", 2))
    whole = ("a1", "a2", "b1", "b2")
    # each live update, then the fresh validate Session compares it with (a whole run)
    assert seen[1:] == [("b1", "b2"), whole, whole, whole, ("a1", "a2", "b2"), whole]


def test_a_plugins_model_may_give_a_code_of_its_own_prefix(install, tmp_path):
    oracle(install, module="oracle")
    root = tree(tmp_path / "c")
    (root / "demo/omens/b2.yaml").write_text(omen("b2", "b", -1), encoding="utf-8")
    findings = [f for f in validate(root).findings if f.file.name == "b2.yaml"]
    assert [(f.code, f.line, f.message) for f in findings] == [
        ("ORC104", 5, "sign: a sign is never below 0")
    ]


def test_a_plugins_error_is_no_file_left_unread(install, tmp_path):
    """A check's error keeps the ruleset's stale acknowledgements told: "ORC" sorts before
    "RP2", which once made any plugin code a file that did not load."""
    oracle(install, module="oracle")
    root = tree(tmp_path / "c")
    (root / "demo/omens/b2.yaml").write_text(omen("b2", "x", 2), encoding="utf-8")
    stale = "acknowledged:\n  - {code: RP231, reason: Nothing to excuse.}\n"
    (root / "demo/omens/b1.yaml").write_text(omen("b1", "b", 1, stale), encoding="utf-8")
    codes = [(f.code, f.file.name) for f in validate(root).findings]
    assert ("ORC002", "b2.yaml") in codes and ("RP011", "b1.yaml") in codes


def test_a_group_hook_that_fails_runs_the_check_whole(install, tmp_path):
    import sys

    oracle(install, module="oracle")
    session = Session(tree(tmp_path / "c"))
    seen = sys.modules["oracle"].SEEN
    session.write("demo/omens/b2.yaml", omen("b2", "boom", 1))  # equal to a fresh validate
    assert seen[1] == ("a1", "a2", "b1", "b2")


def test_section_is_still_a_scope_meaning_group():
    def old_style(ruleset):
        return ()

    assert check("ORC299", "old-style", "warning", reads="section")(old_style).reads == "group"
