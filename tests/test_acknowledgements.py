"""Acknowledged findings: each acknowledgement matches one finding of its code in its
document (at its data path when given), flags it with its reason, keeps it out of
`--strict`; one that matches nothing is a stale-acknowledgement finding (RP011)."""

from __future__ import annotations

from pathlib import Path

from rulepress.errors import Level, data_path_text
from rulepress.validation import validate
from tests.helpers import WEAPON_FILE, base_tree, build_tree, run, weapon

# Damage falls twice: 10 -> 2 at AP 11 and 12 -> 3 at AP 13 (RP209, warnings).
FALLS = (
    weapon()
    .replace("{ap: 11, damage: 11,", "{ap: 11, damage: 2,", 1)
    .replace("{ap: 13, damage: 13,", "{ap: 13, damage: 3,", 1)
)


def _acknowledging(*items: tuple[str, str, str]) -> str:
    text = FALLS + "acknowledged:\n"
    for code, at, reason in items:
        text += (
            f"  - code: {code}\n" + (f"    at: {at}\n" if at else "") + f"    reason: {reason}\n"
        )
    return text


def _tree(tmp_path: Path, weapon_text: str) -> Path:
    return build_tree(tmp_path / "compendium", {**base_tree(), WEAPON_FILE: weapon_text})


def test_an_acknowledgement_at_a_data_path_flags_that_finding_only(tmp_path):
    root = _tree(tmp_path, _acknowledging(("RP209", "table[10].damage", "The source prints 2.")))
    findings = validate(root, strict=True).findings
    flagged = [f for f in findings if f.acknowledged]
    assert [(data_path_text(f.path), f.reason, f.level) for f in flagged] == [
        ("table[10].damage", "The source prints 2.", Level.WARNING)
    ]
    (other,) = [f for f in findings if not f.acknowledged]
    assert (other.code, data_path_text(other.path), other.level) == (
        "RP209",
        "table[12].damage",
        Level.ERROR,  # --strict still fails on the one not acknowledged
    )


def test_an_acknowledgement_without_a_place_matches_one_finding_not_the_whole_code(tmp_path):
    root = _tree(tmp_path, _acknowledging(("RP209", "", "Kept as printed.")))
    findings = validate(root).findings
    assert sorted(f.acknowledged for f in findings if f.code == "RP209") == [False, True]


def test_every_finding_acknowledged_passes_strict(tmp_path):
    root = _tree(
        tmp_path,
        _acknowledging(
            ("RP209", "table[10].damage", "One."), ("RP209", "table[12].damage", "Two.")
        ),
    )
    validation = validate(root, strict=True)
    assert validation.ok and validation.acknowledged == 2
    assert validation.count(Level.WARNING) == validation.count(Level.ERROR) == 0


def test_an_acknowledgement_that_matches_nothing_is_a_stale_finding_at_its_place(tmp_path):
    text = _acknowledging(("RP209", "table[10].damage", "One."), ("RP301", "table[3]", "Gone."))
    root = _tree(tmp_path, text)
    stale = [f for f in validate(root).findings if f.code == "RP011"]
    assert [(f.level, f.line, f.col, f.name) for f in stale] == [
        (Level.WARNING, text.splitlines().index("  - code: RP301") + 1, 5, "stale-acknowledgement")
    ]
    assert "acknowledgement of RP301 at table[3] matches no finding" in stale[0].message
    assert not validate(root, strict=True).ok


def test_an_error_is_never_acknowledged(tmp_path):
    repeated = weapon().replace("{ap: 2,", "{ap: 1,", 1)
    root = _tree(tmp_path, repeated + "acknowledged:\n  - {code: RP207, reason: No.}\n")
    codes = sorted(f.code for f in validate(root).findings if not f.acknowledged)
    assert "RP207" in codes and "RP011" in codes


def test_a_new_mistake_beside_acknowledged_ones_is_the_one_line_strict_prints(tmp_path):
    root = _tree(tmp_path, _acknowledging(("RP209", "", "One."), ("RP209", "", "Two.")))
    assert run("validate", "--strict", str(root)).returncode == 0
    text = (root / WEAPON_FILE).read_text()
    (root / WEAPON_FILE).write_text(text.replace("{ap: 20, damage: 20,", "{ap: 20, damage: 9,"))
    result = run("validate", "--strict", str(root))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].endswith(": error RP209: damage falls from 19 at AP 19 to 9 at AP 20")
    assert lines[1:] == ["", "by code:", "     1  RP209 figure-falls (error)", lines[-1]]
    assert lines[-1] == "1 error, 0 warnings, 0 info, 2 acknowledged"


def test_the_guide_and_the_site_list_the_known_problems_with_their_reasons(tmp_path):
    from rulepress.commands.build import build

    root = _tree(
        tmp_path, _acknowledging(("RP209", "table[10].damage", "The source <b>prints</b> 2."))
    )
    validation, _ = build(root, tmp_path / "out", ["markdown", "site"])
    assert validation.ok
    guide = (tmp_path / "out/markdown/demo.md").read_text(encoding="utf-8")
    assert "- [Known problems in the source](#errata)" in guide
    assert "- **Test Pistol** (figure-falls): " in guide
    assert "*Kept because:* The source &lt;b&gt;prints&lt;/b&gt; 2." in guide
    page = (tmp_path / "out/site/demo/errata.html").read_text(encoding="utf-8")
    assert "<td>The source &lt;b&gt;prints&lt;/b&gt; 2.</td>" in page
    # the finding not acknowledged is no erratum
    assert guide.count("(figure-falls)") == 1 and page.count("figure-falls") == 1


def test_without_acknowledgements_there_are_no_errata(tmp_path):
    from rulepress.commands.build import build

    root = build_tree(tmp_path / "compendium", base_tree())
    build(root, tmp_path / "out", ["markdown", "site"])
    assert "Known problems" not in (tmp_path / "out/markdown/demo.md").read_text(encoding="utf-8")
    assert not (tmp_path / "out/site/demo/errata.html").exists()


def test_an_acknowledgement_is_not_stale_while_a_file_of_its_ruleset_fails_to_load(tmp_path):
    # the finding it excused may be a cross-document one about the file that failed
    unmatched = weapon() + "acknowledged:\n  - {code: RP209, reason: Kept as printed.}\n"
    tree = {**base_tree(), WEAPON_FILE: unmatched}
    codes = [f.code for f in validate(build_tree(tmp_path / "a", tree)).findings]
    assert codes == ["RP011"]
    tree["demo/skills/broken.yaml"] = "kind: skill\nid: broken\nnmae: Typo\n"
    codes = sorted(f.code for f in validate(build_tree(tmp_path / "b", tree)).findings)
    assert "RP011" not in codes and "RP101" in codes
