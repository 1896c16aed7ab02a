"""Every figure of the IRIS wiki page (seed 003) is in the compendium, read from the page."""

from __future__ import annotations

import re
import shutil

from rulepress.games.iris.import_command import import_wiki
from rulepress.games.iris.importer import parse_page
from rulepress.games.iris.models.character_points import CpEarning, CpSpending
from rulepress.games.iris.models.corruption import (
    CorruptionRules,
    CorruptionTriggers,
    ObedienceConsequences,
)
from rulepress.games.iris.models.skill import Skill
from rulepress.games.iris.models.skill_test import SkillTest
from rulepress.games.iris.models.weapon import WeaponProfile
from tests.helpers import COMPENDIUM, SEEDS

PAGE = SEEDS / "iris-wiki.txt"


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _without_acknowledgements(text: str) -> str:
    """A document without its `acknowledged:` block (always last): acknowledgements are
    the editors' notes on the source's problems, added after import, not on the page."""
    return text.split("\nacknowledged:\n", 1)[0] + "\n" if "\nacknowledged:\n" in text else text


def test_reimporting_the_wiki_page_reproduces_every_weapon_file_byte_for_byte(tmp_path):
    """Byte for byte but for the acknowledgements, which the page does not hold."""
    copy = tmp_path / "iris"
    shutil.copytree(COMPENDIUM / "iris", copy)
    shutil.rmtree(copy / "weapons")
    import_wiki(PAGE, copy)
    for original in sorted((COMPENDIUM / "iris" / "weapons").rglob("*.yaml")):
        imported = copy / original.relative_to(COMPENDIUM / "iris")
        expected = _without_acknowledgements(original.read_text())
        assert imported.read_text() == expected, original.name
    assert len(list((copy / "weapons").rglob("*.yaml"))) == len(
        list((COMPENDIUM / "iris" / "weapons").rglob("*.yaml"))
    )


def test_every_table_row_printed_on_the_page_is_a_row_of_that_weapon(iris, iris_page):
    profiles = iris.all(WeaponProfile, drafts=True)
    by_header = {}
    for profile in profiles:
        by_header.setdefault((profile.header, profile.tier), []).append(profile)
    checked = 0
    for block in re.split(r"^Weapon Profile - ", iris_page, flags=re.M)[1:]:
        header, tier = re.match(r"(.*?)\s*\(Tier (\d+)\)", block).groups()
        rows = re.findall(r"^(\d+)\t(\d+)\t(\d+)\t(-?\d+|Base)\t(\d+)$", block, flags=re.M)
        candidates = by_header[(header or None, int(tier))]
        assert any(
            [(r.ap, r.damage, r.defense, r.move, r.range) for r in c.table]
            == [
                (int(a), int(d), int(f), m if m == "Base" else int(m), int(g))
                for a, d, f, m, g in rows
            ]
            for c in candidates
        ), header
        checked += len(rows)
    assert checked == len(iris.all(WeaponProfile)) * 30  # every written profile has 30 rows


def test_every_stats_line_on_the_page_matches_its_weapon(iris, iris_page):
    lines = re.findall(
        r"^(Magazine|Attacks): (\d+)\tReload: (\d+)\tWeight: (\d+)\t"
        r"Cost: (\d+)Bar\tRarity: (\w+)$",
        iris_page,
        flags=re.M,
    )
    stats = {
        (
            w.magazine if w.magazine is not None else w.attacks,
            w.reload,
            w.weight,
            w.cost,
            w.rarity,
            "Magazine" if w.magazine is not None else "Attacks",
        )
        for w in iris.all(WeaponProfile)
    }
    assert len(lines) == len(iris.all(WeaponProfile)) == 13
    for label, capacity, reload, weight, cost, rarity in lines:
        assert (int(capacity), int(reload), int(weight), int(cost), rarity, label) in stats


def test_the_page_lists_as_many_profiles_as_the_compendium_holds(iris):
    _, profiles = parse_page(PAGE.read_text(), PAGE)
    assert (
        len(profiles)
        == len(iris.all(WeaponProfile, drafts=True))
        == PAGE.read_text().count("Weapon Profile - ")
    )
    assert sum(not p.is_draft for p in profiles) == len(iris.all(WeaponProfile))


def test_every_skill_line_names_the_same_two_traits(iris, iris_page):
    printed = re.findall(r"^([A-Z][\w -]+?)\t(\w+) or (\w+)$", iris_page, flags=re.M)
    skills = {s.name: s.traits for s in iris.all(Skill)}
    assert len(printed) == len(skills) == 17
    for name, first, second in printed:
        assert skills[name] == [first.lower(), second.lower()]


def test_skill_categories_follow_the_page_headings(iris, iris_page):
    for heading, category in (
        ("Academic", "academic"),
        ("Weapon", "weapon"),
        ("Specialist", "specialist"),
        ("Talent", "talent"),
    ):
        block = iris_page.split(f"{heading} Skills\n")[1].split(" Skills\n")[0]
        names = re.findall(r"^([A-Z][\w -]+?)\t\w+ or \w+$", block, flags=re.M)
        assert names
        assert all(iris.get(_slug(n)).category == category for n in names)


def test_combat_notes_are_the_page_text(iris, iris_page):
    for skill_id in ("stealth", "endurance", "expertise"):
        note = iris.get(skill_id).combat_note
        assert f"- {note}" in iris_page


def test_skill_test_faces_and_example_come_from_the_page(iris, iris_page):
    rule = iris.one(SkillTest)
    assert "result of 4 or 5 grants +1AP, while a 6 grants +2AP" in iris_page
    assert rule.ap_by_face == {4: 1, 5: 1, 6: 2}
    assert _squash(rule.text) in _squash(iris_page)
    example = rule.examples[0]
    assert _squash(example.text) in _squash(iris_page)
    assert example.given["faces"] == [1, 2, 3, 4, 5, 6]
    assert (example.expect["dice-ap"], example.expect["trait-bonus"], example.expect["total"]) == (
        4,
        5,
        9,
    )


def test_every_corruption_trigger_row_is_in_the_yaml(iris, iris_page):
    table = iris_page.split("Corruption Triggers\n")[1].split("Obedience Consequences")[0]
    printed = re.findall(r"^(\d+)\t\t(.+)$", table, flags=re.M)
    rows = iris.one(CorruptionTriggers).rows
    assert [(str(r.level), r.events) for r in rows] == [(lvl, t.strip()) for lvl, t in printed]


def test_every_obedience_consequence_is_in_the_yaml(iris, iris_page):
    table = iris_page.split("Obedience Consequences\n")[1].split("Character Points")[0]
    printed = re.findall(r"^(\d+)\t\t(.+)$", table, flags=re.M)
    rows = iris.one(ObedienceConsequences).rows
    assert [(str(r.level), " -or- ".join(r.options)) for r in rows] == [
        (lvl, t.strip()) for lvl, t in printed
    ]


def test_corruption_figures_and_target_raises_are_as_printed(iris, iris_page):
    rules = iris.one(CorruptionRules)
    assert f"Each Aug increases Corruption by +{rules.per_aug}" in iris_page
    assert f"Each Trait rank increases Corruption by +{rules.per_trait_rank}" in iris_page
    for raise_ in rules.target_raises:
        assert raise_.text in iris_page
        assert f"(Corruption)+{raise_.to_corruption_plus}" in raise_.text
    for trigger in rules.presence_triggers:
        assert f"- {trigger.text}" in iris_page
    for outcome in (rules.resist_pass, rules.resist_fail, rules.obey):
        assert outcome.text in iris_page


def test_every_cp_cost_is_in_the_yaml(iris, iris_page):
    printed = re.findall(r"^(\+1 \w+ rank|Unlock new \w+)\t(\d+) CP\t(.+)$", iris_page, flags=re.M)
    rows = {r.benefit: r for r in iris.one(CpSpending).rows}
    assert len(printed) == len(rows) == 4
    for benefit, cp, extra in printed:
        assert rows[benefit].cp == int(cp)
        expected = None if extra.strip() == "-" else int(re.match(r"\+(\d+)", extra)[1])
        assert rows[benefit].corruption == expected


def test_every_cp_reward_is_in_the_yaml(iris, iris_page):
    printed = re.findall(r"^(\d+)(?:-(\d+))?CP\t(.+)$", iris_page, flags=re.M)
    rows = {r.source: r.cp for r in iris.one(CpEarning).rows}
    assert len(printed) == len(rows) == 4
    for low, high, source in printed:
        assert (rows[source].min, rows[source].max) == (int(low), int(high or low))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
