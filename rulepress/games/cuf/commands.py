"""Coolness Under Fire's commands: `rulepress roll cuf` (the threat check a TC total calls
for), `rulepress odds cuf` (each threat state's check and its exact chance, the site's
calculator's figures) and `rulepress new tc-source` (their kinds' `roll`, `odds` and
`new` hooks).

`roll cuf` resolves a given d20 face as it is; otherwise the die is rolled with
`random.Random(seed)`, so the same seed gives the same result.
"""

from __future__ import annotations

import random
from pathlib import Path

import click

from rulepress.games.cuf import rules as cuf_rules
from rulepress.games.cuf.models.cuf import CufRating, ThreatThreshold
from rulepress.games.cuf.models.threat import TcSource
from rulepress.plugin import Ruleset, dice
from rulepress.plugin.cli import (
    NAME,
    SEED,
    chance_json,
    check_faces,
    compendium_option,
    create_document,
    emit,
    free_id,
    load_ruleset,
    ruleset_option,
    ruleset_options,
    table_lines,
    target_ruleset,
)


def cuf_check(
    ruleset: Ruleset, cuf: int, willpower: int, tcs: int, d20: int | None, seed: int | None
) -> dict:
    """The state a number of TCs puts a CUF in, and the check it calls for: what `roll` prints."""
    reached = cuf_rules.state(ruleset, tcs, cuf=cuf)
    data: dict = {
        "ruleset": ruleset.id,
        "cuf": cuf,
        "tcs": tcs,
        "state": reached.id,
        "state_name": reached.name,
    }
    threshold = reached.threshold
    if threshold is None:
        return data
    ratings = {"cuf": cuf, "willpower": willpower}
    roll = d20 if d20 is not None else dice.roll(20, random.Random(seed))
    check_faces("--d20", [roll], [20], "the check rolls one d20")
    passed = threshold.check.passes(roll, ratings)
    result = threshold.result(passed)
    data.update(
        check={
            "difficulty": threshold.check.difficulty,
            "target": threshold.check.target(ratings),
            "roll": roll,
            "passed": passed,
        },
        suppression_rounds=threshold.suppression_rounds(tcs, cuf, passed),
        bane=result.bane,
        flee_or_surrender=result.flee_or_surrender,
        skill_penalty=result.skill_penalty,
        initiative_penalty=result.initiative_penalty,
        effect=result.text.strip(),
    )
    return data


def cuf_summary(data: dict) -> str:
    """A CUF threat check's result in words."""
    start = f"{data['tcs']} TC{'' if data['tcs'] == 1 else 's'} against CUF {data['cuf']}"
    if "check" not in data:
        return f"{start}: {data['state_name']}: no threat state, so no check."
    check = data["check"]
    return (
        f"{start}: {data['state'].replace('-', ' ').capitalize()}. The {check['difficulty']} "
        f"check against {check['target']} rolls {check['roll']}: "
        f"{'passed' if check['passed'] else 'failed'}."
    )


@click.command("cuf")
@click.option("--cuf", type=click.IntRange(0, 40), required=True, help="The character's CUF.")
@click.option("--willpower", type=click.IntRange(0, 40), required=True, help="Willpower.")
@click.option(
    "--tcs", type=click.IntRange(0, 500), required=True, help="Threat conditions this round."
)
@click.option("--d20", type=click.IntRange(1, 20), default=None, help="The check's d20 roll.")
@click.option("--seed", type=SEED, default=None, help="Roll with this seed (0 to 2^63-1) instead.")
@ruleset_options(CufRating)
def roll_cuf(cuf, willpower, tcs, d20, seed, compendium, ruleset_id, as_json):
    """A CUF threat check: the state the TCs reach and the check it calls for."""
    ruleset = load_ruleset(compendium, ruleset_id, CufRating)
    data = cuf_check(ruleset, cuf, willpower, tcs, d20, seed)
    emit(data, as_json, summary=cuf_summary(data))


def cuf_odds(ruleset: Ruleset, cuf: int, willpower: int, tcs: int | None) -> dict:
    """Each threat state's check for a character, and its exact chance of passing (with
    `tcs`, only the state those TCs reach, and the rounds of suppression each result
    brings): what `odds cuf` prints, the figures of the site's calculator."""
    ratings = {"cuf": cuf, "willpower": willpower}
    thresholds = sorted(ruleset.all(ThreatThreshold), key=lambda t: t.exceeds)
    data: dict = {"ruleset": ruleset.id, "cuf": cuf, "willpower": willpower}
    if tcs is not None:
        reached = cuf_rules.state(ruleset, tcs, cuf=cuf)
        data.update(tcs=tcs, state=reached.id, state_name=reached.name)
        thresholds = [reached.threshold] if reached.threshold else []
    states = []
    for threshold in thresholds:
        state = {
            "state": threshold.id,
            "name": threshold.display_name,
            "over_tcs": threshold.threshold(cuf),
            "difficulty": threshold.check.difficulty,
            "target": threshold.check.target(ratings),
            "passes": chance_json(threshold.check.chance(ratings)),
        }
        if tcs is not None:
            state["suppression_rounds"] = {
                "failed": threshold.suppression_rounds(tcs, cuf, False),
                "passed": threshold.suppression_rounds(tcs, cuf, True),
            }
        states.append(state)
    data["states"] = states
    return data


def format_cuf_odds(data: dict) -> str:
    """`odds cuf`'s figures as text: a line per threat state."""
    who = f"CUF {data['cuf']}, Willpower {data['willpower']}"
    if "tcs" in data and not data["states"]:
        return (
            f"{data['tcs']} TCs against {who}: {data['state_name']}: no threat state, so no check."
        )
    rows = [
        [
            s["name"],
            str(s["over_tcs"]),
            s["difficulty"],
            f"{s['target']} or less",
            f"{s['passes']['percent']:.2f}%",
            s["passes"]["fraction"],
        ]
        for s in data["states"]
    ]
    header = ["state", "over TCs", "check", "d20", "passes", "exactly"]
    if "tcs" not in data:
        title = f"The threat checks of {who}, by the TCs they start over:"
        return "\n".join([title, *table_lines(header, rows, ragged_last=True)])
    (state,) = data["states"]
    rounds = state["suppression_rounds"]
    return "\n".join(
        [
            f"{data['tcs']} TCs against {who}: {state['name']}.",
            *table_lines(header, rows, ragged_last=True),
            f"Rounds of suppression: {rounds['failed']} if failed, {rounds['passed']} if passed.",
        ]
    )


@click.command("cuf")
@click.option("--cuf", type=click.IntRange(0, 40), required=True, help="The character's CUF.")
@click.option("--willpower", type=click.IntRange(0, 40), required=True, help="Willpower.")
@click.option(
    "--tcs",
    type=click.IntRange(0, 500),
    default=None,
    help="Threat conditions: only the state they reach; default: every state.",
)
@ruleset_options(CufRating)
def odds_cuf(cuf, willpower, tcs, compendium, ruleset_id, as_json):
    """CUF threat check odds: each state's check and its exact chance of passing."""
    data = cuf_odds(load_ruleset(compendium, ruleset_id, CufRating), cuf, willpower, tcs)
    emit(data, as_json, format_cuf_odds(data))


def new_tc_source(compendium: Path, ruleset_id: str | None, name: str, tc: int) -> Path:
    """Write a TC source, last in their order: the new file's path."""
    ruleset = target_ruleset(compendium, ruleset_id, TcSource)
    order = 1 + max((s.order for s in ruleset.all(TcSource, drafts=True)), default=0)
    source_id = free_id(ruleset, name)
    data = {
        "kind": "tc-source",
        "id": source_id,
        "name": name,
        "effect": "adds" if tc >= 0 else "reduces",
        "order": order,
        "tc": tc,
    }
    return create_document(ruleset, ("tc-sources", f"{source_id}.yaml"), data)


@click.command("tc-source")
@click.argument("name", type=NAME)
@click.option(
    "--tc",
    type=click.IntRange(-100, 100),
    required=True,
    help="TCs it adds, -100 to 100 (negative: reduces).",
)
@ruleset_option(TcSource)
@compendium_option
def new_tc_source_command(name, tc, ruleset_id, compendium):
    """A threat-condition source NAME that adds (or with a negative --tc reduces) TCs."""
    click.echo(f"wrote {new_tc_source(compendium, ruleset_id, name, tc)}")
