"""`rulepress serve`: preview the rules site, rebuilt live as the compendium changes.

mkdocs serves a generated project whose hook regenerates the pages from the compendium
before every build, and mkdocs watches the compendium folder, so saving a YAML file
reloads the browser. A compendium with errors keeps the last good pages and prints why.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

from rulepress.commands.validate import format_findings
from rulepress.compendium.settings import settings_file
from rulepress.errors import RulepressError
from rulepress.exporters.site import mkdocs_command
from rulepress.exporters.site.pages import generate
from rulepress.validation import validate

HOOK_FILE = "rulepress_hook.py"
HOOK = """\
import os
from pathlib import Path

from rulepress.commands.serve import regenerate


def on_pre_build(config, **kwargs):
    settings = os.environ["RULEPRESS_SETTINGS"]
    regenerate(
        Path(os.environ["RULEPRESS_COMPENDIUM"]),
        Path(config.config_file_path).parent,
        Path(settings) if settings else None,
    )
"""


def regenerate(compendium: Path, project: Path, settings: Path | None = None) -> bool:
    """Regenerate the pages if the compendium and the settings validate; report their
    errors otherwise."""
    # a rebuild re-reads only edited files
    validation = validate(compendium, cache=True, settings=settings)
    if not validation.ok:
        print(format_findings(validation, "text", relative_to=Path.cwd()), flush=True)
        print("rulepress: the compendium has errors; showing the last good pages", flush=True)
        return False
    generate(validation.compendium, project, hooks=(HOOK_FILE,))
    return True


def check_address(address: str) -> None:
    """Refuse, in one line, an address mkdocs could not serve on (it would print a
    traceback): not HOST:PORT, a port out of range, a host that does not resolve, a port
    in use. The port is tried by binding it, as the server will."""
    host, _, port = address.rpartition(":")
    if not host or not re.fullmatch(r"[0-9]{1,5}", port) or not 1 <= int(port) <= 65535:
        raise RulepressError(f"--address: {address!r} is not HOST:PORT with a port from 1 to 65535")
    try:
        found = socket.getaddrinfo(host.strip("[]"), int(port), type=socket.SOCK_STREAM)
        family, kind, protocol, _, place = found[0]
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(place)
    except OSError as exc:
        raise RulepressError(f"cannot serve on {address}: {exc.strerror or exc}") from None


def serve(compendium: Path, address: str, settings: Path | None = None) -> int:
    """Run the preview until interrupted; return mkdocs's exit code. `settings` names the
    settings file (default: rulepress.yaml beside the compendium); it is watched too."""
    check_address(address)
    compendium = compendium.resolve()
    named = settings is not None
    settings = settings_file(compendium, settings).resolve()
    with tempfile.TemporaryDirectory(prefix="rulepress-serve-") as folder:
        project = Path(folder)
        (project / HOOK_FILE).write_text(HOOK, encoding="utf-8")
        if not regenerate(compendium, project, settings if named else None):
            return 1
        config = project / "mkdocs.yml"
        watched = ["-w", str(compendium)]
        if settings.is_file():
            watched += ["-w", str(settings)]
        command = mkdocs_command(
            "serve", "-f", str(config), "-a", address, "--livereload", *watched
        )
        environment = {
            **os.environ,
            "RULEPRESS_COMPENDIUM": str(compendium),
            "RULEPRESS_SETTINGS": str(settings) if named else "",
        }
        process = subprocess.Popen(command, env=environment)
        # A terminated preview takes its mkdocs server with it.
        signal.signal(signal.SIGTERM, lambda *_: process.terminate())
        try:
            return process.wait()
        except KeyboardInterrupt:
            return 0
        finally:
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
