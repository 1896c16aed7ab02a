"""What several test modules share, defined here once, so no test module imports another."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulepress import caching, kinds
from rulepress.commands.build import build
from rulepress.compendium.model import Compendium
from rulepress.errors import Level
from rulepress.exporters.foundry.leveldb import read_entries
from rulepress.exporters.output import LOCK_NAME
from rulepress.kinds.discovery import installed_games
from rulepress.live import LiveCompendium, Update
from rulepress.validation import Validation, validate

# --- Where things are -------------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[1]
"""The checkout: the folder the command line runs in, as a contributor runs it."""
COMPENDIUM = REPO / "compendium"
"""The bundled compendium, the data every faithful test checks against its source."""
SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"
"""Copies of the four source texts the bundled rules are transcribed from."""
ARTIFACTS = REPO / "test-artifacts"
"""Where tests leave what a person looks at after a run (screenshots)."""
FOUNDRY_CLI = REPO / "tools/foundry-cli/node_modules/@foundryvtt/foundryvtt-cli/fvtt.mjs"
AXE = REPO / "tools/axe/node_modules/axe-core/axe.min.js"
"""The official Foundry CLI, installed by `make test`, that reads packs as Foundry does."""
CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, so the browser tests download no browser."""
HARNESS = Path(__file__).resolve().parent / "foundry" / "run_macro.mjs"
"""Runs a generated macro in node against stand-ins for Foundry's Roll and ChatMessage."""


# --- Throwaway compendium trees ---------------------------------------------------------------


def children() -> set[int]:
    """This process's child processes, running or not yet reaped, without reaping any."""
    found: set[int] = set()
    for listing in Path("/proc/self/task").glob("*/children"):
        found.update(map(int, listing.read_text().split()))
    return found


@contextlib.contextmanager
def no_child_left() -> Iterator[None]:
    """Fail if the body leaves a child process of its own (pytest's worker may hold others
    for the whole session: a browser's driver)."""
    before = children()
    yield
    assert children() <= before, "a child process was left"


def build_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `files` (relative path -> text or bytes) under `root`; return `root`."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


RULESET_FILE = "demo/ruleset.yaml"
"""Where the small demo tree keeps its ruleset."""
ACUITY_FILE = "demo/traits/acuity.yaml"
"""Where the small demo tree keeps the trait Acuity."""
SKILL_FILE = "demo/skills/bio-lore.yaml"
"""Where the small demo tree keeps its one skill."""
SECTION_FILE = "demo/sections/pistols.yaml"
"""Where the small demo tree keeps its one weapon section."""
WEAPON_FILE = "demo/weapons/test-pistol.yaml"
"""Where the small demo tree keeps its one weapon."""

RULESET = """\
kind: ruleset
id: demo
title: Demo
version: "1.0.0"
game: Demo
system: iris-ap
summary: A tiny ruleset for tests.
sources:
  - {title: Test page, author: Tests, credit: Written for the tests.}
"""
"""The demo tree's ruleset: the fewest fields a valid ruleset needs."""
TRAITS = {
    ACUITY_FILE: "kind: trait\nid: acuity\nname: Acuity\norder: 1\n",
    "demo/traits/resolve.yaml": "kind: trait\nid: resolve\nname: Resolve\norder: 2\n",
}
"""The demo tree's two traits, by file."""
SKILL = "kind: skill\nid: bio-lore\nname: Bio Lore\ncategory: academic\norder: 1\ntraits: [acuity, resolve]\n"
"""The demo tree's skill, using both traits."""
SECTION = "kind: weapon-section\nid: pistols\nname: Pistols\norder: 1\nskill: bio-lore\n"
"""The demo tree's weapon section, for the skill."""


MESSY_SKILL = """\
# Bio Lore: a lore skill.
id: bio-lore   # the slug
kind: skill
traits:
- acuity
- resolve
order: 1
name: 'Bio Lore'
category: academic
status: published
"""
"""The demo skill as a person might write it: keys out of order, comments, quotes."""


def weapon(rows: list[str] | None = None, head: str = "") -> str:
    """The demo weapon's file: `rows` instead of its full 30-row table, `head` before it."""
    rows = (
        rows
        if rows is not None
        else [
            f"  - {{ap: {ap}, damage: {ap}, defense: {ap}, move: Base, range: 10}}"
            for ap in range(1, 31)
        ]
    )
    return (
        "kind: weapon\nid: test-pistol\nname: Test Pistol\nheader: Test Pistol\ntier: 1\n"
        "section: pistols\norder: 1\nmagazine: 3\nreload: 3\nweight: 2\ncost: 1\n"
        f"rarity: Common\n{head}table:\n" + "\n".join(rows) + "\n"
    )


def base_tree() -> dict[str, str | bytes]:
    """The smallest valid compendium (one ruleset, two traits, a skill, a section, a
    weapon), for a test to change one file of."""
    return {
        RULESET_FILE: RULESET,
        **TRAITS,
        SKILL_FILE: SKILL,
        SECTION_FILE: SECTION,
        WEAPON_FILE: weapon(),
    }


# --- Cases ------------------------------------------------------------------------------------


@dataclass
class Case:
    """A broken tree and the one finding it must give: code, file, line, column, level."""

    name: str
    files: dict[str, str | bytes]
    code: str
    file: str
    line: int
    col: int
    level: Level = Level.ERROR


def build_bundled(out: Path, target: str) -> Path:
    """The bundled compendium built for one target under `out`, which must validate; the
    target's folder."""
    validation, _ = build(COMPENDIUM, out, [target])
    assert validation.ok
    return out / target


def normal(text: str) -> str:
    """`text` with each run of white space made one space, as a source text is compared."""
    return " ".join(text.split())


# --- Commands run as a user runs them ---------------------------------------------------------


def run(
    *args: str,
    cwd: Path = REPO,
    env: dict[str, str] | None = None,
    seconds: float = 120,
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess:
    """`python -m rulepress ARGS` in `cwd` (with `env` instead of this process's, if given),
    failing the test if it runs past `seconds` or prints a traceback."""
    try:
        result = subprocess.run(
            [sys.executable, "-m", "rulepress", *args],
            cwd=cwd,
            env=env,
            preexec_fn=preexec_fn,
            capture_output=True,
            text=True,
            timeout=seconds,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"rulepress {' '.join(args)} ran past {seconds} s")
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result


def git(repo: Path, *args: str) -> str:
    """`git ARGS` in `repo`, which must succeed; its output."""
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout


def commit_all(repo: Path, message: str) -> None:
    """Commit every change of the working tree of `repo` (new files too), as a test user."""
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message)


def run_macro(node: str, macro: Path, scope: dict, faces: list[int], **world: object) -> dict:
    """Run a generated macro's JSON document in node with `scope` and the dice showing
    `faces`; what it rolled and said. `world` sets the harness's stand-ins (`dialog`,
    `actor`, `flags`, `tables`: see tests/foundry/run_macro.mjs)."""
    argument = json.dumps({"scope": scope, "faces": faces, **world})
    completed = subprocess.run(
        [node, str(HARNESS), str(macro), argument],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


# --- Outside tools ----------------------------------------------------------------------------


def require_tool(available: bool, what: str, needs: str = "Node.js and npm") -> None:
    """Tests that need an outside tool fail in CI when it is missing; on a developer
    machine they skip, saying how to get it."""
    if available:
        return
    message = f"{what} is missing; `make test` installs it (needs {needs})"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def unpack_with_cli(foundry_cli: list[str], pack: Path, tmp: Path) -> Path:
    """Unpack a copy of `pack` with the official CLI (opening a LevelDB rewrites some of its
    files, so the output itself is never opened); return the folder of unpacked sources."""
    copy = tmp / f"copy-{pack.parent.parent.name}-{pack.name}"
    suffix = 2
    while copy.exists():
        copy, suffix = (
            copy.with_name(f"copy-{pack.parent.parent.name}-{pack.name}-{suffix}"),
            suffix + 1,
        )
    shutil.copytree(pack, copy)
    out = copy.with_name(f"{copy.name}-unpacked")
    command = [
        *foundry_cli,
        "package",
        "unpack",
        "-n",
        copy.name,
        "--in",
        str(copy.parent),
        "--out",
        str(out),
    ]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    return out


# --- Hostile cases: a broken tree, how it is run, what it must give ----------------------------

NO_FINDING = ""
"""A case whose code is NO_FINDING expects no finding at all (and exit 0)."""
RULE = "kind: rule\nid: intro\ntitle: Intro\nchapter: Introduction\norder: 1\ntext: Hello.\n"
"""A one-paragraph rule for the demo tree."""


def skill(old: str, new: str) -> dict[str, str]:
    """The demo skill's file with the first `old` replaced by `new`."""
    return {SKILL_FILE: SKILL.replace(old, new, 1)}


def weapon_with(old: str, new: str) -> dict[str, str]:
    """The demo weapon's file with the first `old` replaced by `new`."""
    return {WEAPON_FILE: weapon().replace(old, new, 1)}


def symlink(link: str, target: str | Callable[[Path], Path]) -> Callable[[Path], None]:
    """A setup step: make `link` (relative to the tree) a symbolic link to `target`
    (a path as written in the link, or a function of the tree's root)."""

    def setup(root: Path) -> None:
        destination = target(root) if callable(target) else target
        os.symlink(destination, root / link)

    return setup


@dataclass
class Hostile(Case):
    """A broken-input case (file, code, place) plus how it is run and what it must not do."""

    setup: Callable[[Path], None] | None = None
    """Changes to the tree that files cannot express (links, pipes, folders)."""
    cli: bool = False
    """Also run `python -m rulepress validate` on the tree in a subprocess."""
    seconds: float = 10.0
    """Validation must finish within this time (an alias bomb, a symlink loop)."""
    xfail: str = ""
    """Why this case fails today: a crash, a hang or a wrong outcome to fix."""
    cli_xfail: str = ""
    """Why the command line fails on it today, where only the command line does."""

    @property
    def exit(self) -> int:
        """The exit code `rulepress validate` must give: 1 for an error, else 0."""
        return 1 if self.code != NO_FINDING and self.level == Level.ERROR else 0


def params(cases: list, reason: Callable = lambda case: case.xfail) -> list:
    """One pytest param per case, named by the case; a case with a reason is an xfail."""
    return [
        pytest.param(
            case,
            id=case.name,
            marks=[pytest.mark.xfail(strict=True, reason=reason(case))] if reason(case) else [],
        )
        for case in cases
    ]


def make_tree(root: Path, case: Hostile) -> Path:
    """The demo tree with the case's files written over it and its setup done."""
    build_tree(root, {**base_tree(), **case.files})
    if case.setup is not None:
        case.setup(root)
    return root


def within(
    seconds: float, work: Callable[[], object], unblock: Callable[[], None] | None = None
) -> object:
    """work(), failing the test (not hanging it) if it does not return in time; `unblock`
    then gets a stuck worker going again, so it ends with the test."""
    outcome: dict = {}

    def attempt() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # re-raised in the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        if unblock is not None:
            unblock()
            thread.join(5)
        pytest.fail(f"did not return within {seconds} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def release_pipes(root: Path) -> None:
    """Open each named pipe for writing and close it, so a blocked reader sees EOF."""
    for path in root.rglob("*"):
        if path.is_fifo():
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


def validate_within(root: Path, seconds: float) -> Validation:
    """validate(root), failing the test (not hanging it) if it does not return in time."""
    return within(seconds, lambda: validate(root), unblock=lambda: release_pipes(root))


def assert_finding_at_its_place(tmp_path: Path, case: Hostile) -> None:
    """Validated in process, the case's tree exits as it should and gives its finding at
    its file, line and column, in time."""
    root = make_tree(tmp_path / "c", case)
    validation = validate_within(root, case.seconds)
    exit_code = 0 if validation.ok else 1
    assert exit_code == case.exit, [(f.code, f.where(), f.message) for f in validation.findings]
    if case.code == NO_FINDING:
        assert validation.findings == ()
        return
    wanted = [f for f in validation.findings if f.code == case.code]
    assert wanted, f"no {case.code} in {[(f.code, f.message) for f in validation.findings]}"
    finding = wanted[0]
    assert finding.level == case.level
    assert finding.file == root / case.file
    assert (finding.line, finding.col) == (case.line, case.col), finding.message


def assert_command_line_outcome(tmp_path: Path, case: Hostile) -> None:
    """The real `python -m rulepress validate`, run where the user would run it, gives the
    case's exit code and its line of output (and `run` refuses a traceback)."""
    make_tree(tmp_path / "c", case)
    result = run("validate", "c", cwd=tmp_path)
    assert result.returncode == case.exit, result.stderr
    if case.code == NO_FINDING:
        assert result.stdout.strip() == "0 errors, 0 warnings, 0 info"
    else:
        place = f"c/{case.file}:{case.line}:{case.col}: {case.level} {case.code}: "
        assert place in result.stdout, result.stdout[-2000:]


# --- Hostile text: a tagged payload in every text field -------------------------------------


def payload(n: int) -> str:
    """HTML, a table break, Markdown pipe and backticks, and Jinja, tagged by `n`."""
    return f"<script>alert({n})</script></table> a | b `c` {{{{ 7*7 }}}} {{% raw %}}"


def in_source(text: str, sentence: str) -> str:
    """`sentence`, once asserted to be the source's own words (a seed's text, its
    whitespace joined): what a rules test quotes before it tests the rule."""
    assert sentence in text, sentence
    return sentence


def type_search(page, query: str) -> None:
    """Type a query into the site's search once its index is ready."""
    page.click("input.md-search__input")
    page.wait_for_function(
        "() => !document.querySelector('.md-search-result__meta')"
        ".innerText.includes('Initializing')",
        timeout=30_000,
    )
    page.keyboard.type(query)


def search_site(page, query: str) -> list[str]:
    """Type a query into the site's search once its index is ready; the result links."""
    type_search(page, query)
    page.wait_for_selector(".md-search-result__item", timeout=30_000)
    return [a.get_attribute("href") for a in page.query_selector_all(".md-search-result__item a")]


def quoted(text: str) -> str:
    """`text` as a single-quoted YAML scalar."""
    return "'" + text.replace("'", "''") + "'"


FIELDS = {
    "weapon name": 1,
    "weapon description": 2,
    "weapon section name": 3,
    "skill name": 4,
    "trait name": 5,
    "rule title": 6,
    "rule chapter": 7,
    "rule text": 8,
    "ruleset title": 9,
    "source credit": 10,
    "source publication": 11,
    "ruling question": 12,
    "skill combat note": 13,
    "ruleset summary": 14,
    "source author": 15,
    "glossary definition": 16,
}
"""Every text field of the hostile tree and the tag of the payload it holds."""


@dataclass(frozen=True)
class UnicodeCase:
    """A weapon named in a script or with characters a file name or id must survive."""

    name: str
    weapon_id: str
    text: str
    """The weapon's name."""
    markdown: str
    """How the name reads in the Markdown guide."""


UNICODE_CASES = [
    UnicodeCase("accents", "u-accents", "Épée bâtarde de l'Œil", "Épée bâtarde de l'Œil"),
    UnicodeCase("Cyrillic", "u-cyrillic", "Пистолет Макарова", "Пистолет Макарова"),
    UnicodeCase("Hebrew, right to left", "u-hebrew", "אקדח שירות", "אקדח שירות"),
    UnicodeCase("Arabic, right to left", "u-arabic", "مسدس الخدمة", "مسدس الخدمة"),
    UnicodeCase("emoji", "u-emoji", "Blaster 🔫💥 Mk II", "Blaster 🔫💥 Mk II"),
    UnicodeCase("CJK", "u-cjk", "南部十四年式拳銃", "南部十四年式拳銃"),
    UnicodeCase(
        "path separators and a right-to-left mark",
        "u-path",
        "../../etc/passwd C:\\Win \u200fgnp.exe",
        "../../etc/passwd C:\\\\Win \u200fgnp.exe",
    ),
]
"""The Unicode weapons of the hostile tree."""


def text_tree(p: dict[str, str], *, ruleset_tail: str, ruling: str) -> dict[str, str]:
    """The demo tree with the YAML values `p` (by field name) in the ruleset's title and
    summary, a trait, a skill, the weapon section, the weapon and a rule with a ruling;
    `ruleset_tail` ends ruleset.yaml, `ruling` the ruling's fields after its question."""
    tree = base_tree()
    tree[RULESET_FILE] = (
        RULESET.split("sources:")[0]
        .replace("title: Demo", f"title: {p['ruleset title']}")
        .replace("summary: A tiny ruleset for tests.", f"summary: {p['ruleset summary']}")
        + ruleset_tail
    )
    tree[ACUITY_FILE] = TRAITS[ACUITY_FILE].replace("name: Acuity", f"name: {p['trait name']}")
    tree[SKILL_FILE] = SKILL.replace("name: Bio Lore", f"name: {p['skill name']}") + (
        f"combat_note: {p['skill combat note']}\n"
    )
    tree[SECTION_FILE] = SECTION.replace("name: Pistols", f"name: {p['weapon section name']}")
    tree[WEAPON_FILE] = (
        weapon(head=f"description: {p['weapon description']}\n")
        .replace("name: Test Pistol", f"name: {p['weapon name']}")
        .replace("header: Test Pistol", f"header: {p['weapon name']}")
    )
    tree["demo/rules/intro.yaml"] = (
        f"kind: rule\nid: intro\ntitle: {p['rule title']}\nchapter: {p['rule chapter']}\n"
        f"order: 1\ntext: {p['rule text']}\nsee_also: [bio-lore]\n"
        f"rulings:\n  - {{id: r1, question: {p['ruling question']}, {ruling}}}\n"
    )
    return tree


def hostile_tree() -> dict[str, str]:
    """One tree with a tagged payload in every text field, plus the Unicode weapons."""
    p = {name: quoted(payload(n)) for name, n in FIELDS.items()}
    credit = (
        f"  - {{title: Test page, author: {p['source author']}, credit: {p['source credit']}, "
        f"published: {p['source publication']}}}\n"
    )
    tree = text_tree(
        p,
        ruleset_tail="sources:\n" + credit + f"glossary:\n  AP: {p['glossary definition']}\n",
        ruling="ruling: R, alternative: A, why: W",
    )
    tree["demo/rules/attributes.yaml"] = (
        "kind: rule\nid: attributes\ntitle: 'Plain {: onclick=\"alert(17)\" }'\n"
        "chapter: Introduction\norder: 2\ntext: Nothing else.\n"
    )
    for order, case in enumerate(UNICODE_CASES, 2):
        tree[f"demo/weapons/{case.weapon_id}.yaml"] = (
            weapon()
            .replace("id: test-pistol", f"id: {case.weapon_id}")
            .replace("name: Test Pistol", f"name: {quoted(case.text)}")
            .replace("header: Test Pistol", f"header: {quoted(case.text)}")
            .replace("order: 1", f"order: {order}")
        )
    return tree


def foundry_sources(out: Path, pack: str) -> dict[Path, dict]:
    """The JSON sources of one pack of the demo module built under `out`, by path."""
    folder = out / "foundry/rulepress-demo/src/packs" / pack
    return {path: json.loads(path.read_text(encoding="utf-8")) for path in folder.iterdir()}


# Foundry's enrichers, as enrichHTML applies them. Foundry v12/v13 TextEditor: each pattern is matched against the textContent of every
# text node of the parsed HTML (character references decoded), never across nodes.
CONTENT_LINK = re.compile(r"@(\w+)\[([^#\]]+)(?:#([^\]]+))?](?:{([^}]+)})?")
"""`@UUID[...]`, `@Compendium[...]`, `@Actor[...]`... (any word: a superset)."""
ENRICHERS = {
    "content link": CONTENT_LINK,
    "embed": re.compile(r"@Embed\[(?P<config>[^\]]+)](?:{(?P<label>[^}]+)})?", re.I),
    "inline roll": re.compile(r"\[\[(/[a-zA-Z]+\s)?(.*?)(]{2,3})(?:{([^}]+)})?", re.I),
    # What systems register in CONFIG.TextEditor.enrichers: dnd5e `&Reference[...]` and
    # `[[/check ...]]`, pf2e `@Check[...]`, `@Damage[...]`, Call of Cthulhu `@coc7.check[...]`.
    "system enricher": re.compile(r"[@&]\w+\[|@coc7\.", re.I),
}


class Session:
    """A live compendium driven through edits, each checked against a fresh `validate`."""

    def __init__(self, root: Path, settings: Path | None = None) -> None:
        self.root, self.settings = root, settings
        self.live = LiveCompendium(root, settings=settings)
        self.updates = 0

    def write(self, relative: str, text: str) -> Update:
        """Write one file and update with its name."""
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return self.step([path])

    def delete(self, relative: str) -> Update:
        """Delete one file and update with its name."""
        (self.root / relative).unlink()
        return self.step([self.root / relative])

    def move(self, old: str, new: str) -> Update:
        """Rename one file and update with both names."""
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        (self.root / old).rename(self.root / new)
        return self.step([self.root / old, self.root / new])

    def step(self, paths: list[Path]) -> Update:
        """One update, asserted to equal a fresh validation of the files as they stand."""
        update = self.live.update(paths)
        self.updates += 1
        fresh = validate(self.root, settings=self.settings)
        assert update.findings == fresh.findings, f"update {self.updates}"
        assert update.ok == fresh.ok
        if fresh.ok:
            assert documents(self.live.validation.compendium) == documents(fresh.compendium)
            assert self.live.validation.compendium.errata == fresh.compendium.errata
        return update


def documents(compendium: Compendium) -> dict[str, tuple]:
    """What a live compendium must share with a fresh load: every ruleset's folder and
    ruleset.yaml, and its documents' ids, files and digests, in order."""
    return {
        ruleset.id: (
            ruleset.folder,
            ruleset.info_digest,
            [(e.document.id, e.file, e.digest) for e in ruleset.entries],
        )
        for ruleset in compendium
    }


def clear_registry() -> None:
    for cached in (
        kinds.registry,
        kinds.models,
        installed_games,
        caching._plugin_folders,
        caching.code_digest,
    ):
        cached.cache_clear()


def game_module(game_id: str, order: int = 1000, kind: str | None = None) -> str:
    """A module defining GAME, with one kind called `kind` (none without)."""
    kinds_source = "()"
    if kind:
        kinds_source = "(Kind(Thing),)"
    return textwrap.dedent(f"""
        from typing import Literal
        from rulepress.plugin import Document, Game, Kind

        class Thing(Document):
            '''A {kind} document.'''
            KIND = {kind!r}
            kind: Literal[{kind!r}]

        GAME = Game({game_id!r}, "A game", order={order}, kinds={kinds_source})
    """)


def assert_equal_outputs(live: Path, fresh: Path, *, exact: bool = False) -> None:
    """The watched outputs hold what the fresh build wrote: files byte for byte, packs by
    key and value (`exact`: packs and release zips byte for byte too)."""
    mine = contents(live, packs_as_entries=not exact, zips=exact)
    theirs = contents(fresh, packs_as_entries=not exact, zips=exact)
    assert mine.keys() == theirs.keys()
    differing = [name for name in mine if mine[name] != theirs[name]]
    assert not differing


def edit(path: Path, old: str, new: str) -> None:
    """Save `path` with `old` replaced by `new` (which must be there)."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def contents(out: Path, *, packs_as_entries: bool, zips: bool) -> dict[str, object]:
    """Every file under `out` by relative path: its bytes, or for a LevelDB pack folder
    (with `packs_as_entries`) its keys and values; zips only with `zips`."""
    found: dict[str, object] = {}
    packs = {lock.parent for lock in out.glob("foundry/*/packs/*/CURRENT")}
    for path in sorted(out.rglob("*")):
        if packs_as_entries and path.parent in packs:
            continue
        if path.name == LOCK_NAME:  # not an output: it names the build that holds it
            continue
        if path.is_file() and (zips or path.suffix != ".zip"):
            found[path.relative_to(out).as_posix()] = path.read_bytes()
    if packs_as_entries:
        for pack in packs:
            found[pack.relative_to(out).as_posix()] = read_entries(pack)
    return found


PACKAGE_SOURCES = ("pyproject.toml", "README.md", "MANIFEST.in", "rulepress", "examples")
"""What an sdist of rulepress is built from."""


def copy_package_sources(source: Path) -> None:
    """Copy what rulepress's sdist is built from into the folder `source` (no caches)."""
    for name in PACKAGE_SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(
                REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(REPO / name, source / name)


def venv_environment(venv: Path, cache: Path) -> dict[str, str]:
    """The environment of a user who runs the virtual environment `venv`'s commands: none
    of this process's Python, venv or rulepress variables, no user site, its own cache."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PYTHON", "VIRTUAL_ENV", "RULEPRESS_"))
    }
    env.update(
        PATH=os.pathsep.join([str(venv / "bin"), env.get("PATH", "")]),
        VIRTUAL_ENV=str(venv),
        PYTHONNOUSERSITE="1",
        RULEPRESS_CACHE_DIR=str(cache),
    )
    return env


def register_kinds(monkeypatch, *added: kinds.Kind) -> dict[str, kinds.Kind]:
    """The registry with `added` after rulepress's own kinds, for this test only (the
    models by kind follow it)."""
    extended = {**kinds.registry(), **{kind.name: kind for kind in added}}
    monkeypatch.setattr(kinds, "registry", lambda: extended)
    monkeypatch.setattr(kinds, "models", lambda: {n: k.model for n, k in extended.items()})
    return extended


def screenshot(page, name: str) -> None:
    """Save what the reader sees, for people to look at after the run."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=False)
    assert (ARTIFACTS / name).stat().st_size > 10_000


PAGE = "iris/weapons/pistols.html"


WEAPON = Path("iris/weapons/pistols/salvaged-pistol.yaml")


PATIENCE = 120  # seconds: a slow shared machine, never a measure of speed


class Served:
    """A running `rulepress serve` and the folders it reads and writes."""

    def __init__(self, root: Path):
        self.compendium = root / "compendium"
        shutil.copytree(COMPENDIUM, self.compendium)
        self.temporary = root / "tmp"  # the server's temporary folder lands here
        self.temporary.mkdir()
        self.log = root / "serve.log"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        address = f"127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rulepress", "serve", str(self.compendium), "-a", address],
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
            env={**os.environ, "TMPDIR": str(self.temporary)},
        )

    def get(self, path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}", timeout=70) as answer:
            return answer.read().decode("utf-8")

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"serve ended:\n{self.output()}"
            try:
                if condition():
                    return
            except OSError:
                pass
            time.sleep(0.3)
        pytest.fail(f"{what} within {PATIENCE} s:\n{self.output()}")

    def site(self) -> Path:
        (site,) = self.temporary.glob("rulepress-serve-*/site")
        return site

    def html_mtimes(self) -> dict[str, int]:
        site = self.site()
        return {p.relative_to(site).as_posix(): p.stat().st_mtime_ns for p in site.rglob("*.html")}

    def save(self, relative: Path, old: str, new: str) -> None:
        file = self.compendium / relative
        text = file.read_text(encoding="utf-8")
        assert old in text
        file.write_text(text.replace(old, new), encoding="utf-8")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
