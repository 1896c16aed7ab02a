"""Builds that speak (issue 28): each stage of `build` and `validate` says on stderr when it
ends, with its counts and seconds, flushed at once; a terminal gets a status line and a
progress bar, anything else plain lines; `--quiet` and `--verbose`; stdout (the findings,
JSON, annotations, the build's summary) stays what it was, byte for byte."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO, run

from rulepress import progress
from rulepress.cli import run as run_in_process
from rulepress.commands.validate import format_findings
from rulepress.validation import validate

SECONDS = r"in \d+\.\d s"
TARGET_LINE = r"wrote {out}/{name}, [\d,]+ files?, [\d,.]+ (bytes|kB|MB) " + SECONDS

PROBE = '''
import io
import os
from pathlib import Path

from rulepress.exporters import BaseExporter


class Probe(BaseExporter):
    """A target that, while it runs, copies what stderr's file already holds."""

    name = "probe"
    description = "what the build had said when it ran"

    def export(self, compendium, out, options):
        seen = Path(os.environ["PROBE_LOG"]).read_text(encoding="utf-8")
        (out / "seen.txt").write_text(seen, encoding="utf-8")
'''


def documents_in(compendium: Path) -> int:
    return sum(1 for _ in compendium.rglob("*.yaml"))


def stage_lines(stderr: str) -> list[str]:
    """The stage lines (not their --verbose detail), by stage name."""
    return [line for line in stderr.splitlines() if not line.startswith("  ")]


def test_build_says_each_stage_when_it_ends_in_order_with_its_counts(demo, tmp_path):
    out = tmp_path / "dist"
    result = run("build", str(demo), "--out", str(out), "--no-cache", "--force")
    assert result.returncode == 0, result.stderr
    count = documents_in(demo)
    expected = [
        rf"load: {count} documents from {count} files {SECONDS}",
        rf"checks: 0 errors, 0 warnings, 0 info {SECONDS}",
        "foundry: " + TARGET_LINE.format(out=out, name="foundry"),
        "markdown: " + TARGET_LINE.format(out=out, name="markdown"),
        r"history: .* is in no git repository .*",  # the demo is no clone: said once
        rf"mkdocs: built \d+ pages {SECONDS}",
        rf"downloads: wrote \d+ files for the site {SECONDS}",
        "site: " + TARGET_LINE.format(out=out, name="site"),
        "json: " + TARGET_LINE.format(out=out, name="json"),
    ]
    lines = stage_lines(result.stderr)
    assert len(lines) == len(expected), result.stderr
    for line, pattern in zip(lines, expected, strict=True):
        assert re.fullmatch(pattern, line), (line, pattern)
    pages = int(re.search(r"built (\d+) pages", result.stderr).group(1))
    assert pages == sum(1 for _ in (out / "site").rglob("*.html")) > 1
    # stdout is the summary it always was
    assert result.stdout.splitlines()[1:] == [
        f"wrote {out / name}" for name in ("foundry", "markdown", "site", "json")
    ]
    assert result.stdout.startswith("validated: 0 errors, 0 warnings, 0 info\n")


def test_each_stage_line_is_written_before_the_next_stage_starts(
    demo, tmp_path, install, monkeypatch
):
    """A target that runs after load, checks and foundry reads what stderr's file holds
    at that moment: their lines are there, though stderr is a file with a 1 MiB buffer
    (no newline flushes it), and its own line is not yet."""
    install("rulepress-probe", {"rulepress.exporters": {"probe": "rulepress_probe:Probe"}},
            {"rulepress_probe.py": PROBE})  # fmt: skip
    log = tmp_path / "stderr.txt"
    monkeypatch.setenv("PROBE_LOG", str(log))
    out = tmp_path / "dist"
    args = ["build", str(demo), "--out", str(out), "--no-cache"]
    with open(log, "w", encoding="utf-8", buffering=1 << 20) as stderr:
        before, sys.stderr = sys.stderr, stderr
        try:
            code = run_in_process([*args, "--target", "foundry", "--target", "probe"])
        finally:
            sys.stderr = before
    assert code == 0, log.read_text(encoding="utf-8")
    seen = (out / "probe" / "seen.txt").read_text(encoding="utf-8")
    assert [line.split(":")[0] for line in seen.splitlines()] == ["load", "checks", "foundry"]
    said = [line.split(":")[0] for line in log.read_text(encoding="utf-8").splitlines()]
    assert said == ["load", "checks", "foundry", "probe"]


def test_quiet_says_no_stage_and_keeps_the_answer(demo, tmp_path):
    out = tmp_path / "dist"
    args = ["build", str(demo), "--out", str(out), "--target", "json", "--no-cache", "--force"]
    spoken, quiet = run(*args), run(*args, "--quiet")
    assert quiet.returncode == spoken.returncode == 0
    assert quiet.stderr == ""
    assert stage_lines(spoken.stderr)[0].startswith("load: ")
    assert quiet.stdout == spoken.stdout
    checked = run("validate", str(demo), "-q")
    assert (checked.returncode, checked.stderr) == (0, "")
    assert checked.stdout.strip() == "0 errors, 0 warnings, 0 info"


def test_verbose_details_each_ruleset_and_each_output_folder(demo, tmp_path):
    out = tmp_path / "dist"
    args = ["build", str(demo), "--out", str(out), "--target", "foundry", "--no-cache"]
    plain, verbose = run(*args, "--force"), run(*args, "--force", "--verbose")
    assert plain.returncode == verbose.returncode == 0
    assert not [line for line in plain.stderr.splitlines() if line.startswith("  ")]
    details = [line for line in verbose.stderr.splitlines() if line.startswith("  ")]
    count = documents_in(demo)
    assert f"  {demo / 'demo'}: {count} documents from {count} files, 0 findings" in details
    packs = sorted((out / "foundry").glob("*/packs/*"))
    assert packs, "the module has packs"
    for pack in packs:  # each pack's folder, with what is in it
        files = sum(1 for path in pack.iterdir() if path.is_file())
        assert any(re.fullmatch(rf"  {pack}: {files} files?, .+", line) for line in details)
    assert [line.split(":")[0] for line in stage_lines(verbose.stderr)] == [
        line.split(":")[0] for line in stage_lines(plain.stderr)
    ]


def test_quiet_and_verbose_together_are_refused(demo):
    result = run("validate", str(demo), "--quiet", "--verbose")
    assert result.returncode == 2
    assert "--quiet and --verbose contradict" in result.stderr


@pytest.mark.parametrize("fmt", ["json", "github"])
@pytest.mark.parametrize("verbosity", [(), ("--quiet",), ("--verbose",)])
def test_machine_readable_outputs_stay_byte_identical(fmt, verbosity, tmp_path):
    """A compendium with findings, so that there is something to report."""
    root = tmp_path / "compendium"
    (root / "demo").mkdir(parents=True)
    (root / "demo" / "ruleset.yaml").write_text("kind: ruleset\nid: demo\n", encoding="utf-8")
    result = run("validate", str(root), "--format", fmt, *verbosity, cwd=tmp_path)
    assert result.returncode == 1
    expected = format_findings(validate(root), fmt, relative_to=tmp_path) + "\n"
    assert result.stdout == expected
    assert "load: " not in result.stdout
    assert ("load: " in result.stderr) == (verbosity != ("--quiet",))


def test_no_carriage_return_or_escape_when_not_a_terminal(demo, tmp_path):
    out = tmp_path / "dist"
    env = {**os.environ, "TERM": "xterm-256color"}  # a terminal's TERM, but pipes
    for args in (["validate", str(demo), "-v"], ["build", str(demo), "--out", str(out), "-v"]):
        result = run(*args, "--no-cache", env=env)
        assert result.returncode == 0, result.stderr
        assert "load: " in result.stderr
        for text in (result.stdout, result.stderr):
            assert "\r" not in text and "\x1b" not in text


def read_until_closed(fd: int, seconds: float = 120) -> bytes:
    """Everything written to the pty until its last writer closes it."""
    chunks = []
    while True:
        ready, _, _ = select.select([fd], [], [], seconds)
        if not ready:
            pytest.fail(f"the pty stayed silent for {seconds} s")
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the child closed its side
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def test_a_terminal_gets_a_progress_bar_and_stdout_stays_clean(demo):
    """stderr a real pty (python's pty module), stdout a pipe: the bar and the status
    are drawn on the terminal, the JSON on stdout is the same as ever."""
    controller, terminal = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "80"}
    process = subprocess.Popen(
        [sys.executable, "-m", "rulepress", "validate", str(demo), "--format", "json"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=terminal,
        env=env,
    )
    os.close(terminal)
    try:
        drawn = read_until_closed(controller).decode("utf-8")
    finally:
        os.close(controller)
    stdout, _ = process.communicate(timeout=120)
    assert process.returncode == 0
    documents = documents_in(demo) - 1  # the bar counts the document files
    bars = re.findall(r"\r(?:\x1b\[\?25l)?loading demo +\[([#-]+)\] +(\d+)/(\d+)", drawn)
    assert bars, repr(drawn)  # redrawn in place, step by step, to the end
    assert [int(done) for _, done, _ in bars] == list(range(documents + 1))
    assert {int(total) for _, _, total in bars} == {documents}
    assert "-" not in bars[-1][0] and "#" not in bars[0][0]
    assert "load ..." in drawn  # the running stage's status
    assert "\x1b[K" in drawn  # the status and the bar give way to the stage lines
    lines = [line.rsplit("\x1b[K", 1)[-1] for line in drawn.replace("\r\n", "\n").split("\n")]
    said = [line for line in lines if re.fullmatch(rf"(load|checks): .* {SECONDS}", line)]
    assert [line.split(":")[0] for line in said] == ["load", "checks"]
    assert stdout.decode("utf-8") == format_findings(validate(demo), "json", REPO) + "\n"


def test_a_notice_clears_the_status_line_of_a_terminal_and_is_said_at_every_verbosity(capsys):
    """A line that is not progress (the history's, a build's wait) goes through the running
    command's Progress: on a terminal it first clears the running stage's status line, so
    the two never share a line; --quiet still says it; with no command, it is stderr's."""
    drawn = io.StringIO()
    terminal = progress.Progress(drawn, terminal=True)
    with progress.speaking(terminal), terminal.stage("site"):
        progress.notice("history: left out")
    text = drawn.getvalue()
    assert f"site ...{progress.CLEAR_LINE}history: left out\n" in text
    quiet = io.StringIO()
    with progress.speaking(progress.Progress(quiet, progress.Verbosity.QUIET)):
        progress.notice("history: left out")
    assert quiet.getvalue() == "history: left out\n"
    progress.notice("no command speaks")
    assert capsys.readouterr().err == "no command speaks\n"
