"""Issue 28's points about the command line, each as a publisher or player meets it: `new`
in a one-ruleset repository, the module id `init --github` derives, shell completion,
`odds cuf` and `odds cool` beside the site's calculators, `odds` tables that fit a
terminal, the printed-odds legend, `roll t2k4e`'s pushed dice, a steady Cool roll, and
the findings' did-you-mean and casing."""

from __future__ import annotations

from pathlib import Path

from helpers import WEAPON_FILE, base_tree, build_tree, weapon

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
