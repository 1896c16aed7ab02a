"""`rulepress diff OLD NEW`: what changed in the rules, said in the game's words.

OLD and NEW are compendium folders or git revisions. Documents are matched by id (a
document whose `previous_ids` name a vanished id is a rename, not a removal and an
addition); rows of tables are matched by their AP, level or id, so a changed cell reads
"Light Combat Pistol: damage at AP 12 13 -> 14". Then the figures the rules compute from
the data (odds by rank and by pool) are compared, to show what a change does in play.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from rulepress.commands.validate import validate
from rulepress.compendium.model import Compendium, Ruleset
from rulepress.errors import RulepressError, printable
from rulepress.exporters.markdown_text import github_text
from rulepress.git import git_output
from rulepress.models import Document, SkillTest, StepDice, WeaponProfile
from rulepress.models.step_dice import STEPS

IDENTITY_KEYS = ("ap", "level", "id", "benefit", "unit", "source", "skill")
KIND_LABELS = {
    "tc-source": "TC source",
    "tc-ladder": "TC ladder",
    "cp-spending": "CP table",
    "cp-earning": "CP table",
    "weapon-section": "weapon section",
}
MAX_COMPUTED = 12


@dataclass(frozen=True)
class Change:
    ruleset: str
    kind: str
    document: str
    change: str
    """added, removed, renamed, changed or computed."""
    text: str


def kind_label(kind: str) -> str:
    return KIND_LABELS.get(kind, kind.replace("-", " "))


def load_side(
    spec: str, compendium_path: str = "compendium", cwd: Path | None = None
) -> Compendium:
    """A compendium from a folder, or from a git revision of `compendium_path` (relative
    to the top of the repository that `cwd`, or the working folder, is in)."""
    folder = Path(spec)
    if cwd is None and folder.is_dir():
        return _validated(folder, spec)
    revision = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )
    if revision.returncode != 0:
        raise RulepressError(f"{spec!r} is neither a compendium folder nor a git revision")
    top = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "archive", revision.stdout.strip(), "--", compendium_path],
        capture_output=True,
        check=False,
        cwd=top or cwd,
    )
    if archive.returncode != 0:
        raise RulepressError(
            f"git has no {compendium_path}/ at {spec}: "
            f"{archive.stderr.decode(errors='replace').strip()}"
        )
    target = Path(tempfile.mkdtemp(prefix="rulepress-diff-"))
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(target, filter="data")
    try:
        return _validated(target / compendium_path, spec)
    finally:
        shutil.rmtree(target, ignore_errors=True)


@dataclass(frozen=True)
class Revision:
    commit: str
    date: str
    subject: str
    changes: tuple[Change, ...]


def history(compendium_root: Path, limit: int = 3) -> list[Revision]:
    """The rules changes of the last `limit` commits that touched the compendium, newest
    first; empty outside a git checkout."""
    prefix = git_output(compendium_root, "rev-parse", "--show-prefix")
    log = git_output(
        compendium_root, "log", f"-{limit}", "--format=%H%x09%ad%x09%s", "--date=short", "--", "."
    )
    if prefix is None or not log:
        return []
    path = prefix.rstrip("/") or "."
    loaded: dict[str, Compendium | None] = {}

    def side(revision: str) -> Compendium | None:
        if revision not in loaded:
            try:
                loaded[revision] = load_side(revision, path, cwd=compendium_root)
            except RulepressError:
                loaded[revision] = None
        return loaded[revision]

    revisions = []
    for line in log.splitlines():
        commit, date, subject = line.split("\t", 2)
        before, after = side(f"{commit}~1"), side(commit)
        if before is None or after is None:
            continue
        revisions.append(Revision(commit[:10], date, subject, tuple(compare(before, after))))
    return revisions


def _validated(folder: Path, spec: str) -> Compendium:
    validation = validate(folder)
    if not validation.ok:
        raise RulepressError(f"the compendium at {spec} has errors; run `rulepress validate`")
    return validation.compendium


def compare(old: Compendium, new: Compendium) -> list[Change]:
    changes: list[Change] = []
    for ruleset_id in sorted(set(old.rulesets) | set(new.rulesets)):
        before, after = old.rulesets.get(ruleset_id), new.rulesets.get(ruleset_id)
        if before is None or after is None:
            label = "new" if before is None else "removed"
            changes.append(
                Change(
                    ruleset_id,
                    "ruleset",
                    ruleset_id,
                    "added" if before is None else "removed",
                    f"{label} ruleset: {ruleset_id}",
                )
            )
            continue
        changes.extend(_compare_ruleset(before, after))
        changes.extend(_compare_computed(before, after))
    return changes


def _documents(ruleset: Ruleset) -> dict[str, Document]:
    return {entry.document.id: entry.document for entry in ruleset.entries}


def _compare_ruleset(before: Ruleset, after: Ruleset) -> Iterator[Change]:
    yield from _compare_document(after.id, before.info, after.info, {})
    old, new = _documents(before), _documents(after)
    names = {doc_id: doc.display_name for doc_id, doc in {**old, **new}.items()}
    renamed = {
        previous: doc.id
        for doc in new.values()
        for previous in doc.previous_ids
        if previous in old and previous not in new
    }
    rid = after.id
    for doc_id, document in old.items():
        if doc_id not in new and doc_id not in renamed:
            yield Change(
                rid,
                document.kind,
                doc_id,
                "removed",
                f"removed {kind_label(document.kind)}: {document.display_name}",
            )
    for doc_id, document in new.items():
        previous = next((p for p, n in renamed.items() if n == doc_id), None)
        if previous is not None:
            yield Change(
                rid,
                document.kind,
                doc_id,
                "renamed",
                f"renamed {kind_label(document.kind)}: {old[previous].display_name} "
                f"({previous}) -> {document.display_name} ({doc_id})",
            )
            yield from _compare_document(rid, old[previous], document, names)
        elif doc_id not in old:
            yield Change(
                rid,
                document.kind,
                doc_id,
                "added",
                f"new {kind_label(document.kind)}: {_summary(document)}",
            )
        else:
            yield from _compare_document(rid, old[doc_id], document, names)


def _summary(document: Document) -> str:
    if isinstance(document, WeaponProfile):
        draft = ", draft" if document.is_draft else ""
        return f"{document.display_name} (tier {document.tier}{draft})"
    return document.display_name


def _compare_document(
    ruleset_id: str, old: Document, new: Document, names: dict[str, str]
) -> Iterator[Change]:
    before, after = _leaves(_comparable(old)), _leaves(_comparable(new))
    name = new.display_name
    prefix = name if isinstance(new, WeaponProfile) else f"{kind_label(new.kind)} {name}"
    for path in sorted(set(before) | set(after), key=str):
        if path[:1] == ("previous_ids",):
            continue
        a, b = before.get(path, "(none)"), after.get(path, "(none)")
        if a != b:
            yield Change(
                ruleset_id,
                new.kind,
                new.id,
                "changed",
                f"{prefix}: {_path_words(path)} {_show(a, names)} -> {_show(b, names)}",
            )


def _comparable(document: Document) -> object:
    data = document.model_dump(mode="json", exclude_defaults=False)
    data.pop("id", None)
    return data


def _leaves(value: object, path: tuple = ()) -> dict[tuple, object]:
    """Flatten to {path: scalar}; list items with an identity key are keyed by it."""
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            result.update(_leaves(item, (*path, key)))
        return result
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            key = next((k for k in IDENTITY_KEYS if all(k in v for v in value)), None)
            if key is not None and len({json.dumps(v[key]) for v in value}) == len(value):
                result = {}
                for item in value:
                    rest = {k: v for k, v in item.items() if k != key}
                    result.update(_leaves(rest, (*path, f"{key}={item[key]}")))
                return result
        if all(not isinstance(v, dict | list) for v in value):
            return {path: value}
        result = {}
        for index, item in enumerate(value):
            result.update(_leaves(item, (*path, index)))
        return result
    return {path: value}


def _path_words(path: tuple) -> str:
    """('table', 'ap=12', 'damage') -> 'damage at AP 12'."""
    words, where = [], []
    for part in path:
        text = str(part)
        if "=" in text:
            key, value = text.split("=", 1)
            where.append(f"{'AP' if key == 'ap' else key} {value}")
        elif isinstance(part, int):
            where.append(f"#{part + 1}")
        elif text not in ("table", "rows"):
            words.append(text.replace("_", " "))
    return " ".join(words + (["at", ", ".join(where)] if where else []))


def _show(value: object, names: dict[str, str]) -> str:
    """A value as a reader knows it: ids of documents by their names, lists joined by /."""
    if isinstance(value, list):
        return "/".join(_show(item, names) for item in value) if value else "(none)"
    text = names.get(value, str(value)) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def computed_figures(ruleset: Ruleset) -> dict[str, float]:
    """Figures the rules compute from the data, by a readable label."""
    figures: dict[str, float] = {}
    skill_test = ruleset.one(SkillTest)
    if skill_test is not None:
        for rank in range(1, 11):
            distribution = skill_test.distribution(rank)
            for ap in range(1, 2 * rank + 1):
                chance = sum(p for value, p in distribution.items() if value >= ap)
                figures[f"P(AP >= {ap}) at rank {rank}"] = round(float(chance) * 100, 1)
    step_dice = ruleset.one(StepDice)
    if step_dice is not None:
        for attribute in STEPS:
            for skill in (None, *STEPS):
                pool = [attribute, *([skill] if skill else [])]
                for pushed in (False, True):
                    label = f"P(success) {'+'.join(pool)}{' pushed' if pushed else ''}"
                    figures[label] = round(float(step_dice.chance(pool, pushed=pushed)) * 100, 1)
    return figures


def _compare_computed(before: Ruleset, after: Ruleset) -> Iterator[Change]:
    old, new = computed_figures(before), computed_figures(after)
    differing = [label for label in new if label in old and old[label] != new[label]]
    for label in differing[:MAX_COMPUTED]:
        yield Change(
            after.id,
            "computed",
            label,
            "computed",
            f"computed {label}: {old[label]}% -> {new[label]}%",
        )
    if len(differing) > MAX_COMPUTED:
        yield Change(
            after.id,
            "computed",
            "more",
            "computed",
            f"... and {len(differing) - MAX_COMPUTED} more computed figures",
        )


def format_changes(changes: list[Change], fmt: str, old: str, new: str) -> str:
    if fmt == "json":
        return json.dumps(
            {"old": old, "new": new, "changes": [asdict(c) for c in changes]},
            indent=2,
            ensure_ascii=False,
        )
    if not changes:
        return "no changes to the rules" if fmt == "text" else "**No changes to the rules.**"
    if fmt == "markdown":
        # Posted as a pull-request comment: every value (names come from the pull
        # request, and so may OLD and NEW) shows as literal text.
        lines = [f"### Rules changes ({github_text(old)} -> {github_text(new)})", ""]
        for ruleset in dict.fromkeys(c.ruleset for c in changes):
            lines += [f"**{github_text(ruleset)}**", ""]
            lines += [f"- {github_text(c.text)}" for c in changes if c.ruleset == ruleset]
            lines.append("")
        return "\n".join(lines).rstrip() + "\n"
    return "\n".join(printable(f"{c.ruleset}: {c.text}") for c in changes)
