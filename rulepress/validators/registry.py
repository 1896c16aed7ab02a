"""Cross-document checks as small coded rules.

Each check is a function over one ruleset, registered with a code, a readable name and
a level; its docstring is what the contributors' page publishes. A check yields Reports
(which document, which data path, what is wrong) and the registry turns them into
findings at the YAML line and column. rulepress's own checks (codes RP...) register when
their module is imported; a plugin's are its game's `Game.checks`, coded with the game's
`code_prefix` (see `registered_checks`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from importlib.metadata import packages_distributions

from pydantic import BaseModel

from rulepress.compendium.model import Compendium, Entry, Ruleset
from rulepress.compendium.yaml_source import Position
from rulepress.errors import (
    OWN_PREFIX,
    Finding,
    Level,
    Problem,
    RulepressError,
    code_prefix,
    raised_text,
)
from rulepress.kinds import games, registry
from rulepress.models import Document
from rulepress.validators.grouping import group_placeholder_findings
from rulepress.validators.shared import one_run


@dataclass(frozen=True)
class Report:
    """A problem one check found in one document: a finding once the check's code and the place
    in the file are added."""

    entry: Entry
    message: str
    path: tuple = ()
    key: bool = False
    level: Level | None = None
    """Overrides the check's level for this one report."""
    at: Position | None = None
    """Where in the file, when more exact than the value at `path` (a word in a text)."""


CheckFunction = Callable[[Ruleset], Iterable[Report]]
Index = Callable[[Document], object]
"""What a check reads of each document (compared, never hashed), for a live update to
tell whether a check must run again."""

READS = ("document", "group", "ruleset")
"""What a check's findings about a document depend on (a check's declared scope):
"document": that document alone, the ruleset's `ruleset.yaml`, and, when the check has
an `index`, what its lookups see of the others (the index of each); "group": the
documents (drafts too) of the document's group, as its kind's `group` hook gives it (an
IRIS weapon's section); "ruleset": any document, or, when the check has an `index`,
only the index of each document, in file order. A live update (rulepress.live) re-runs
a check on the documents its scope says may have changed."""
READS_ALIASES = {"section": "group"}
"""Older names of a scope, still accepted: "section" was the weapons of a section."""


def data_strings(value: object, *, keys: bool = False) -> Iterator[str]:
    """Every string of a document's data in order (mapping keys too, with `keys`), its
    models, lists and mappings walked without copying them."""
    stack: list[object] = [value]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            yield value
        elif isinstance(value, BaseModel):
            stack.extend(reversed(value.__dict__.values()))
        elif isinstance(value, list | tuple):
            stack.extend(reversed([v for v in value if not isinstance(v, int | float)]))
        elif isinstance(value, dict):
            items = value.items() if keys else ((None, v) for v in value.values())
            stack.extend(reversed([p for item in items for p in item if p is not None]))


def strings_index(document: Document) -> tuple:
    """A document's kind, id, status and every string of its data (mapping keys too), in
    order: the index of a check that reads only a ruleset's words (units, names), so an
    edit of a figure leaves its findings as they were."""
    strings = tuple(data_strings(document, keys=True))
    return (document.KIND, document.id, document.is_draft, strings)


def group_of(document: Document) -> str | None:
    """The id of the group `document` is in (its kind's `group` hook), None for none."""
    kind = registry().get(document.KIND)
    return None if kind is None or kind.group is None else kind.group(document)


def entries_by_group(entries: Iterable[Entry]) -> dict[str, list[Entry]]:
    """`entries` by the group each is in (see `group_of`), in order; those in none left out."""
    by_group: dict[str, list[Entry]] = {}
    for entry in entries:
        group = group_of(entry.document)
        if group is not None:
            by_group.setdefault(group, []).append(entry)
    return by_group


@dataclass(frozen=True)
class Check:
    """A registered check: its code, name and level, and the function that finds the problems."""

    code: str
    name: str
    level: Level
    function: CheckFunction
    reads: str = "ruleset"
    """The check's scope: what its findings depend on (see READS)."""
    index: Index | None = None
    """What the check reads of each document, when not all of it (see READS)."""
    package: str = ""
    """The distribution the check comes from; "" for the one its function's module is in."""
    placeholder_symptom: bool = False
    """A draft (RP211) usually shows it too, as a placeholder copied from another document
    does (a header that names another weapon): its warnings and info in a draft's file are
    folded into the draft's one finding (see validators.grouping)."""

    def __call__(self, ruleset: Ruleset) -> Iterable[Report]:
        """The function's reports, as the decorated function gave them."""
        return self.function(ruleset)

    @property
    def doc(self) -> str:
        """The function's docstring, which the published list of checks shows."""
        return (self.function.__doc__ or "").strip()

    @property
    def origin(self) -> str:
        """The package the check comes from (`rulepress` for rulepress's own)."""
        return self.package or package_of(self.function)

    def reports(self, ruleset: Ruleset) -> Iterator[Report]:
        """The check's reports in one ruleset. A Problem the check raises is a report at
        the document and path it names; anything else a plugin's check raises is one
        error at `ruleset.yaml` naming the check and its package, after the reports it
        made before, so one broken check neither stops the others nor hides its fault."""
        try:
            yield from self.function(ruleset)
        except Problem as problem:
            yield self._problem_report(ruleset, problem)
        except Exception as exc:
            if self.origin == "rulepress":
                raise  # rulepress's own check failing is a bug to report
            yield Report(
                _ruleset_entry(ruleset),
                f"check {self.code} ({self.name}) of {self.origin} failed: {raised_text(exc)}; "
                "its other findings in this ruleset may be missing",
                level=Level.ERROR,
            )

    def _problem_report(self, ruleset: Ruleset, problem: Problem) -> Report:
        document = problem.document
        if isinstance(document, Document):
            document = document.id
        entry = ruleset.entry(document) if isinstance(document, str) else None
        if entry is None:  # none named, or one the ruleset does not hold: its ruleset.yaml
            return Report(_ruleset_entry(ruleset), problem.message)
        return Report(entry, problem.message, problem.path)

    def run(self, ruleset: Ruleset) -> Iterator[Finding]:
        """The check's findings in one ruleset, each pointing at its file, line and column."""
        for report in self.reports(ruleset):
            yield self.finding(report)

    def finding(self, report: Report) -> Finding:
        """A report of this check as a finding, at its file, line and column."""
        position = report.at or report.entry.position(report.path, key=report.key)
        return Finding(
            report.level if report.level is not None else self.level,
            self.code,
            report.message,
            report.entry.file,
            position.line,
            position.col,
            self.name,
            path=report.path,
        )


def _ruleset_entry(ruleset: Ruleset) -> Entry:
    """The ruleset's `ruleset.yaml` as an entry, for a report about the whole ruleset."""
    return Entry(ruleset.info, ruleset.info_source, ruleset.info_digest)


def package_of(function: Callable) -> str:
    """The distribution that holds `function`'s module (its top-level name when no
    installed distribution claims it), `rulepress` for rulepress's own."""
    top = (getattr(function, "__module__", None) or "").partition(".")[0]
    if top == "rulepress":
        return "rulepress"
    return next(iter(packages_distributions().get(top, ())), top or "an unknown package")


CHECKS: list[Check] = []


def check(
    code: str,
    name: str,
    level: Level,
    *,
    reads: str = "ruleset",
    index: Index | None = None,
    placeholder_symptom: bool = False,
) -> Callable[[CheckFunction], Check]:
    """Make a function a check: a plugin lists it in its `Game.checks`, with a code of the
    game's `code_prefix` (`ORC001`); rulepress's own (RP...) register when imported. Codes
    are unique; the site lists checks in code order. `reads` and `index` declare what its
    findings depend on (see READS): a live update trusts them, so a check reading more
    than it declares would keep stale findings. `placeholder_symptom`: a draft's finding
    takes in this check's (see `Check.placeholder_symptom`)."""
    reads = READS_ALIASES.get(reads, reads)
    if reads not in READS:
        raise ValueError(f"check {code}: reads must be one of {', '.join(READS)}")
    if code_prefix(code) is None:
        raise ValueError(f"check {code!r}: a code is 2 to 5 capitals and three digits (ORC001)")

    def register(function: CheckFunction) -> Check:
        made = Check(
            code, name, level, function, reads, index, placeholder_symptom=placeholder_symptom
        )
        own = package_of(function) == "rulepress"
        if own != (code_prefix(code) == OWN_PREFIX):
            raise ValueError(
                f"check {code} of {package_of(function)}: {OWN_PREFIX} codes are rulepress's "
                "own; a plugin's check has a code of its game's code_prefix"
            )
        if own:
            if any(existing.code == code for existing in CHECKS):
                raise ValueError(f"check code {code} registered twice")
            CHECKS.append(made)
        return made

    return register


def registered_checks() -> list[Check]:
    """rulepress's own checks, then each game's `checks` in the games' order, each
    naming the game's package."""
    checks = list(CHECKS)
    codes = {c.code for c in checks}
    for game in games():
        for declared in game.checks:
            if declared in checks:  # one of rulepress's own, listed by its game too
                continue
            if declared.code in codes:
                raise RulepressError(
                    f"check code {declared.code} of game {game.id!r} is rulepress's own"
                )
            codes.add(declared.code)
            checks.append(replace(declared, package=game.package))
    return checks


def placeholder_symptoms() -> frozenset[str]:
    """The codes of the checks whose findings a draft's finding takes in."""
    return frozenset(c.code for c in registered_checks() if c.placeholder_symptom)


def run_checks(compendium: Compendium) -> list[Finding]:
    """Every registered check's findings, ruleset by ruleset, in code order; a
    placeholder's symptoms grouped into its draft finding (see validators.grouping)."""
    findings = []
    with one_run():
        for ruleset in compendium:
            for registered in sorted(registered_checks(), key=lambda c: c.code):
                findings.extend(registered.run(ruleset))
    return group_placeholder_findings(findings, placeholder_symptoms())
