"""Findings about the same thing, grouped: a placeholder says everything wrong with it once.

A draft (`status: draft`, RP211) is a placeholder the source printed; the checks that
compare it with the published documents then find the placeholder's usual symptoms too (a
header copied from another weapon, the same header as the other placeholders, a tier
already taken). Those are folded into the draft's one finding, so a placeholder gives one
line that names all of them, not four. Which checks' findings are such symptoms, each
check says (`Check.placeholder_symptom`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from rulepress.errors import Finding, Level

DRAFT = "RP211"


def group_placeholder_findings(findings: list[Finding], symptoms: Collection[str]) -> list[Finding]:
    """`findings` with each draft's symptom findings (warnings and info of the codes
    `symptoms` names, in the draft's file) folded into its draft finding, whose message
    lists them with their codes. An error is never folded: it must be fixed."""
    drafts = {f.file: f for f in findings if f.code == DRAFT and f.file is not None}
    folded: dict[object, list[Finding]] = {}
    kept: list[Finding] = []
    for finding in findings:
        if finding.file in drafts and finding.code in symptoms and finding.level != Level.ERROR:
            folded.setdefault(finding.file, []).append(finding)
        else:
            kept.append(finding)
    return [_grouped(f, folded.get(f.file, [])) if f.code == DRAFT else f for f in kept]


def _grouped(draft: Finding, symptoms: list[Finding]) -> Finding:
    if not symptoms:
        return draft
    listed = "; ".join(f"{s.message} ({s.code} {s.name})" for s in symptoms)
    return replace(draft, message=f"{draft.message}; as placeholders do, it also has: {listed}")
