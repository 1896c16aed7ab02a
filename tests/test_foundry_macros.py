"""The generated macros, run in node against stand-ins for Foundry's Roll and ChatMessage,
give the same results as the Python rules for the same faces."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.exporters import ExportOptions
from rulepress.games.cuf.commands import cuf_check
from rulepress.games.iris.commands import iris_skill_test
from rulepress.games.iris.models.corruption import ObedienceConsequences
from rulepress.games.iris.models.weapon import WeaponProfile
from rulepress.games.t2k4e.commands import T2k4eRoll, t2k4e_roll
from tests.helpers import COMPENDIUM, run_macro


@pytest.fixture(scope="module")
def macros(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("macros")
    build(COMPENDIUM, out, ["foundry"])
    found = {}
    for path in sorted((out / "foundry").glob("*/src/packs/macros/*.json")):
        found[json.loads(path.read_text())["name"]] = path
    return found


def test_there_is_a_macro_for_each_game_that_rolls(macros):
    assert set(macros) == {
        "Skill Test",
        "Roll with Modifiers and Push",
        "Threat Check",
        "Corruption lookup",
    }


def test_the_iris_macro_scores_the_truck_repair_as_the_rules_do(node, macros, bundled):
    run = run_macro(node, macros["Skill Test"], {"rank": 6, "traits": [5, 3]}, [1, 2, 3, 4, 5, 6])
    expected = iris_skill_test(
        bundled.compendium.ruleset("iris"), 6, [5, 3], [1, 2, 3, 4, 5, 6], None
    )
    assert run["result"]["total"] == expected["total"] == 9
    assert run["result"]["diceAp"] == expected["dice_ap"]
    assert run["unusedFaces"] == 0
    (message,) = run["messages"]
    assert message["flags"]["rulepress"]["total"] == 9 and "9 AP" in message["content"]


def test_the_t2k4e_macro_shifts_rolls_and_pushes_like_the_rules(node, macros, bundled):
    ruleset = bundled.compendium.ruleset("t2k4e")
    generator = random.Random(4)
    dice = ["d6", "d8", "d10", "d12"]
    for _ in range(12):
        attribute, skill = generator.choice(dice), generator.choice([None, *dice])
        modifiers = [generator.randint(-3, 3) for _ in range(generator.randint(0, 2))]
        helpers = generator.randint(0, 4)
        pool = [attribute, *([skill] if skill else [])]
        seed = generator.randint(0, 10**6)
        plan = t2k4e_roll(ruleset, T2k4eRoll(pool, modifiers, helpers, seed=seed))
        faces = plan["faces"]
        expected = t2k4e_roll(
            ruleset, T2k4eRoll(pool, modifiers, helpers, faces=faces, push=True, seed=7)
        )
        push_faces = expected["pushed"]["faces"]
        rerolled = [push_faces[i] for i in expected["pushed"]["rerolled"]]
        run = run_macro(
            node,
            macros["Roll with Modifiers and Push"],
            {
                "attribute": attribute,
                "skill": skill,
                "modifiers": modifiers,
                "helpers": helpers,
                "push": True,
            },
            faces + rerolled,
        )
        result = run["result"]
        assert result["pool"] == expected["rolled_pool"]
        assert result["netModifier"] == expected["net_modifier"]
        assert result["successes"] == expected["successes"]
        assert result["pushed"]["rerolled"] == expected["pushed"]["rerolled"]
        assert result["pushed"]["successes"] == expected["pushed"]["successes"]
        assert run["unusedFaces"] == 0


@pytest.mark.parametrize(("tcs", "roll"), [(3, 1), (5, 4), (9, 12), (10, 15), (13, 2), (13, 20)])
def test_the_cuf_macro_reaches_the_state_and_check_the_rules_give(node, macros, bundled, tcs, roll):
    ruleset = bundled.compendium.ruleset("t2k-cuf")
    expected = cuf_check(ruleset, 4, 6, tcs, roll, None)
    run = run_macro(
        node,
        macros["Threat Check"],
        {"cuf": 4, "willpower": 6, "tcs": tcs},
        [roll] if "check" in expected else [],
    )
    result = run["result"]
    assert result["state"] == expected["state"]
    if "check" in expected:
        assert result["passed"] == expected["check"]["passed"]
        assert result["target"] == expected["check"]["target"]
        assert result["suppressionRounds"] == expected["suppression_rounds"]
        assert result["bane"] == expected["bane"]


@pytest.mark.parametrize("level", [9, 10, 11, 12, 15, 19, 20, 24])
def test_the_corruption_lookup_reads_the_row_the_rules_give_for_a_level(
    node, macros, bundled, level
):
    table = bundled.compendium.ruleset("iris").one(ObedienceConsequences)
    expected = table.row_for(level)
    run = run_macro(
        node, macros["Corruption lookup"], {"level": level, "table": "Obedience Consequences"}, []
    )
    assert run["dialogs"] == []  # arguments given: no dialog
    if expected is None:
        assert run["result"]["result"] is None
        assert "no row" in run["messages"][0]["content"]
    else:
        assert run["result"]["result"].startswith(f"Corruption {expected.level}")
        assert expected.options[0] in run["messages"][0]["content"]


def test_the_corruption_lookup_draws_the_world_table_with_the_level_not_dice(node, macros):
    run = run_macro(
        node,
        macros["Corruption lookup"],
        {"level": 13, "table": "Corruption Triggers"},
        [],
        tables=["Corruption Triggers"],
    )
    assert run["draws"] == [{"table": "Corruption Triggers", "total": 13}]
    assert run["messages"] == []  # Foundry's own draw card says it
    assert run["result"]["result"] == "Corruption 12-13"


def test_the_corruption_lookup_asks_the_level_prefilled_from_the_selected_actor(node, macros):
    actor = {"attributes": {"Corruption": {"key": "Corruption", "value": 17, "dtype": "Number"}}}
    run = run_macro(node, macros["Corruption lookup"], {}, [], actor=actor, dialog={})
    (dialog,) = run["dialogs"]
    assert dialog["api"] == "DialogV2" and 'name="level" value="17"' in dialog["content"]
    assert run["result"] == {
        "test": "corruption-lookup",
        "table": "Corruption Triggers",
        "level": 17,
        "result": "Corruption 16-17",
    }


# --- The dialog path: a macro run with no arguments asks for its inputs -------------------


@pytest.fixture(scope="module")
def v12_macros(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("macros-v12")
    build(COMPENDIUM, out, ["foundry"], ExportOptions(foundry_version=12))
    return {
        json.loads(path.read_text())["name"]: path
        for path in sorted((out / "foundry").glob("*/src/packs/macros/*.json"))
    }


def _weapon(bundled):
    ruleset = bundled.compendium.ruleset("iris")
    return next(w for w in ruleset.all(WeaponProfile) if not w.is_draft and w.table)


def test_the_iris_dialog_is_prefilled_from_the_actor_and_scores_the_weapons_row(
    node, macros, bundled
):
    weapon = _weapon(bundled)
    actor = {"attributes": {"skills": {"rank": {"key": "rank", "value": 6, "dtype": "Number"}}}}
    run = run_macro(
        node,
        macros["Skill Test"],
        {},
        [1, 2, 3, 4, 5, 6],
        actor=actor,
        dialog={"traits": [5, 3], "weapon": weapon.display_name},
    )
    (dialog,) = run["dialogs"]
    assert dialog["api"] == "DialogV2" and 'name="rank" value="6"' in dialog["content"]
    expected = iris_skill_test(
        bundled.compendium.ruleset("iris"), 6, [5, 3], [1, 2, 3, 4, 5, 6], None
    )
    result = run["result"]
    assert result["total"] == expected["total"] and result["diceAp"] == expected["dice_ap"]
    row = weapon.row_for(expected["total"])
    assert result["weapon"] == {"name": weapon.display_name, "row": row._asdict() if row else None}
    (message,) = run["messages"]
    if row:
        assert f"{weapon.display_name} at {row.ap} AP: Damage {row.damage}" in message["content"]
    assert "1 (0 AP)" in message["content"]  # each die's face and what it scores
    remembered = run["flags"]["rulepress-iris"]["iris-skill-test"]
    assert remembered == {"rank": 6, "traits": [5, 3], "weapon": weapon.display_name}


def test_the_dialog_remembers_the_last_values_and_a_cancel_rolls_nothing(node, macros):
    last = {"rulepress-iris": {"iris-skill-test": {"rank": 4, "traits": [2], "weapon": None}}}
    run = run_macro(node, macros["Skill Test"], {}, [6, 6, 6, 6], flags=last, dialog={})
    (dialog,) = run["dialogs"]
    assert 'name="rank" value="4"' in dialog["content"] and 'value="2"' in dialog["content"]
    assert run["result"]["rank"] == 4 and run["result"]["traitBonus"] == 2
    assert run["unusedFaces"] == 0
    cancelled = run_macro(node, macros["Skill Test"], {}, [], dialog=None)
    assert cancelled["result"] is None and cancelled["messages"] == []


def test_an_item_link_opens_the_dialog_with_its_weapon_chosen(node, macros, bundled):
    weapon = _weapon(bundled)
    run = run_macro(
        node,
        macros["Skill Test"],
        {"weapon": weapon.display_name, "ask": True},
        [6] * 6,
        dialog={"rank": 2},
    )
    (dialog,) = run["dialogs"]
    assert f'<option value="{weapon.display_name}" selected>' in dialog["content"]
    assert run["result"]["weapon"]["name"] == weapon.display_name


def test_the_v12_build_asks_with_the_v12_dialog(node, v12_macros, bundled):
    run = run_macro(
        node, v12_macros["Threat Check"], {}, [7], dialog={"cuf": 4, "willpower": 6, "tcs": 9}
    )
    assert [d["api"] for d in run["dialogs"]] == ["Dialog"]
    expected = cuf_check(bundled.compendium.ruleset("t2k-cuf"), 4, 6, 9, 7, None)
    assert run["result"]["state"] == expected["state"]
    assert run["result"]["passed"] == expected["check"]["passed"]


@pytest.mark.parametrize(("tcs", "roll"), [(5, 4), (9, 12), (13, 20)])
def test_the_cuf_dialog_takes_cuf_and_willpower_from_the_actor(node, macros, bundled, tcs, roll):
    actor = {"attributes": {"CUF": {"value": 4}, "Willpower": {"value": 6}}}
    run = run_macro(node, macros["Threat Check"], {}, [roll], actor=actor, dialog={"tcs": tcs})
    expected = cuf_check(bundled.compendium.ruleset("t2k-cuf"), 4, 6, tcs, roll, None)
    result = run["result"]
    assert (result["cuf"], result["state"]) == (4, expected["state"])
    assert result["passed"] == expected["check"]["passed"]
    assert result["target"] == expected["check"]["target"]
    assert f"rolled {roll}" in run["messages"][0]["content"]


def test_the_t2k4e_dialog_rolls_and_pushes_like_the_rules(node, macros, bundled):
    ruleset = bundled.compendium.ruleset("t2k4e")
    generator = random.Random(19)
    dice = ["d6", "d8", "d10", "d12"]
    for _ in range(6):
        attribute, skill = generator.choice(dice), generator.choice([None, *dice])
        modifiers = [generator.randint(-3, 3) for _ in range(generator.randint(0, 2))]
        helpers = generator.randint(0, 4)
        pool = [attribute, *([skill] if skill else [])]
        faces = t2k4e_roll(ruleset, T2k4eRoll(pool, modifiers, helpers, seed=generator.random()))[
            "faces"
        ]
        expected = t2k4e_roll(
            ruleset, T2k4eRoll(pool, modifiers, helpers, faces=faces, push=True, seed=3)
        )
        rerolled = [expected["pushed"]["faces"][i] for i in expected["pushed"]["rerolled"]]
        chosen = {
            "attribute": attribute,
            "skill": skill,
            "modifiers": modifiers,
            "helpers": helpers,
            "push": True,
        }
        run = run_macro(
            node, macros["Roll with Modifiers and Push"], {}, faces + rerolled, dialog=chosen
        )
        result = run["result"]
        assert result["pool"] == expected["rolled_pool"]
        assert result["successes"] == expected["successes"]
        assert result["pushed"]["successes"] == expected["pushed"]["successes"]
        assert run["unusedFaces"] == 0
        content = run["messages"][0]["content"]
        assert f"{expected['rolled_pool'][0]}: {faces[0]}" in content


def test_a_weapon_items_link_runs_the_skill_test_with_that_weapon(node, macros, bundled, tmp_path):
    """Simple Worldbuilding rolls only formulas; the Item's description links the macro,
    which Foundry runs on a click (`execute({event})`), and the macro reads the weapon."""
    weapon = _weapon(bundled)
    items = macros["Skill Test"].parent.parent / "weapons"
    (item,) = [
        json.loads(p.read_text())
        for p in items.glob("*.json")
        if json.loads(p.read_text()).get("flags", {}).get("rulepress", {}).get("id") == weapon.id
    ]
    macro_id = json.loads(macros["Skill Test"].read_text())["_id"]
    link = (
        f'<p data-rulepress-item="{weapon.id}">'
        f"@UUID[Compendium.rulepress-iris.macros.Macro.{macro_id}]{{Roll: Skill Test}}</p>"
    )
    assert item["system"]["description"].endswith(link)
    run = run_macro(
        node,
        macros["Skill Test"],
        {},
        [6, 6],
        clickedIn={"rulepressItem": weapon.id},
        dialog={"rank": 1, "traits": []},
    )
    (dialog,) = run["dialogs"]
    assert f'<option value="{weapon.display_name}" selected>' in dialog["content"]
    assert run["result"]["weapon"]["name"] == weapon.display_name
