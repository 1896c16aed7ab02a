"""The editor proof, with the real client: yaml-language-server (what VS Code's YAML
extension, Neovim, Helix and Zed run) driven over stdio by the Language Server Protocol,
as an editor drives it, on a repository `rulepress init` wrote. The server is told the
mapping from the repository's `.vscode/settings.json` (the extension reads that file and
sends its `yaml` settings the same way), opens a document with one wrong field, and must
report that field, at its line, and nothing else."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from rulepress.commands.init import init_repository
from tests.helpers import REPO, require_tool

SERVER = (
    REPO / "tools/yaml-language-server/node_modules/yaml-language-server/bin/yaml-language-server"
)
"""yaml-language-server, pinned in tools/yaml-language-server (installed by `make test`)."""
HANG_GUARD = 60.0
"""Seconds before the test gives up on an answer: a guard against a hang, not a wait
(the diagnostics come in about a second)."""


class LanguageClient:
    """The client side of the Language Server Protocol over a server's stdin and stdout:
    framed JSON-RPC messages, the server's own requests answered as a plain editor would."""

    def __init__(self, command: list[str], cwd: Path, settings: dict) -> None:
        self.settings = settings
        # the server's stderr into a file, not a pipe (a full pipe would stall it); the
        # fixture closes it after the server
        self.log = tempfile.TemporaryFile()  # noqa: SIM115
        self.process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log
        )
        self.writing = threading.Lock()  # the reader thread answers the server's requests
        self.messages: list[dict] = []
        self.arrived = threading.Condition()
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                return  # the server closed its output
            message = json.loads(stream.read(length))
            if "id" in message and "method" in message:  # a request from the server
                answer = {"jsonrpc": "2.0", "id": message["id"], "result": self._answer(message)}
                try:
                    self.send(answer)
                except (OSError, ValueError):
                    return  # the test closed the server meanwhile
            with self.arrived:
                self.messages.append(message)
                self.arrived.notify_all()

    def _answer(self, request: dict):
        """The settings the server asks for by section (`yaml`), as an editor answers."""
        if request["method"] == "workspace/configuration":
            return [
                self.settings.get(item.get("section"), {}) for item in request["params"]["items"]
            ]
        return None

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        with self.writing:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        ident = self.next_id
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        return self.wait_for(lambda m: m.get("id") == ident and "method" not in m)

    def wait_for(self, wanted) -> dict:
        deadline = time.monotonic() + HANG_GUARD
        with self.arrived:
            while (found := next((m for m in self.messages if wanted(m)), None)) is None:
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    break
                self.arrived.wait(left)
        if found is None:
            self.close()
            self.log.seek(0)
            said = self.log.read().decode("utf-8", "replace")[-2000:]
            pytest.fail(f"no answer from yaml-language-server in {HANG_GUARD} s: {said}")
        return found

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.process.stdin.close()
        if threading.current_thread() is not self.reader:
            self.reader.join(HANG_GUARD)  # it reads to the end of the dead server's output
        self.process.stdout.close()


def editor_sections(root: Path) -> dict[str, dict]:
    """`root`'s `.vscode/settings.json` by section, as VS Code hands it to a server:
    `"yaml.schemas": {...}` is `schemas` in the `yaml` section."""
    sections: dict[str, dict] = {}
    settings = json.loads((root / ".vscode/settings.json").read_text(encoding="utf-8"))
    for key, value in settings.items():
        section, _, name = key.partition(".")
        sections.setdefault(section, {})[name] = value
    sections.setdefault("yaml", {})["validate"] = True
    return sections


@pytest.fixture
def yaml_server():
    """Start yaml-language-server on a repository, with its editor settings."""
    node = shutil.which("node")
    require_tool(node is not None and SERVER.is_file(), "yaml-language-server")
    started: list[LanguageClient] = []

    def start(root: Path) -> LanguageClient:
        client = LanguageClient([node, str(SERVER), "--stdio"], root, editor_sections(root))
        started.append(client)
        return client

    yield start
    for client in started:
        client.close()
        client.log.close()


def diagnostics_for(client: LanguageClient, root: Path, relative: str, text: str) -> list[dict]:
    """The first diagnostics the server publishes on `text`, opened as `root`/`relative`."""
    uri = (root / relative).as_uri()
    client.request(
        "initialize",
        {
            "processId": None,
            "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "capabilities": {
                "workspace": {"configuration": True},
                "textDocument": {"publishDiagnostics": {}},
            },
        },
    )
    client.notify("initialized", {})
    client.notify("workspace/didChangeConfiguration", {"settings": client.settings})
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
    )
    published = client.wait_for(
        lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
    )
    return published["params"]["diagnostics"]


WELCOME = "compendium/my-rules/rules/welcome.yaml"


def line_of(text: str, start: str) -> int:
    """The 0-based line (as the protocol counts) of `text` that starts with `start`."""
    return next(n for n, line in enumerate(text.splitlines()) if line.startswith(start))


def test_the_editor_names_the_wrong_field_of_a_compendium_file_at_its_line(tmp_path, yaml_server):
    root = tmp_path / "my-rules"
    init_repository(root)
    text = (root / WELCOME).read_text(encoding="utf-8")
    typo = text.replace("\norder: ", "\nstauts: draft\norder: ")  # for `status`
    diagnostics = diagnostics_for(yaml_server(root), root, WELCOME, typo)
    assert [(d["range"]["start"]["line"], d["message"]) for d in diagnostics] == [
        (line_of(typo, "stauts:"), "Property stauts is not allowed.")
    ]


def test_the_editor_checks_rulepress_yaml_urls_by_their_pattern(tmp_path, yaml_server):
    root = tmp_path / "my-rules"
    init_repository(root, github="me/my-rules")
    text = (root / "rulepress.yaml").read_text(encoding="utf-8")
    assert "\n  url: https://me.github.io/my-rules/" in text
    broken = text.replace("\n  title: ", "\n  tilte: ", 1).replace(
        "https://me.github.io/my-rules/", "https://me.github.io/my rules/"
    )
    diagnostics = diagnostics_for(yaml_server(root), root, "rulepress.yaml", broken)
    found = sorted((d["range"]["start"]["line"], d["message"]) for d in diagnostics)
    assert [line for line, _ in found] == [line_of(broken, "  tilte:"), line_of(broken, "  url:")]
    assert found[0][1] == "Property tilte is not allowed."
    assert "does not match the pattern" in found[1][1]
