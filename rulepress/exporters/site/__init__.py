"""The `site` target: the rules reference website, built with mkdocs and Material.

The pages are generated from the compendium into a temporary mkdocs project, then
`mkdocs build --strict` renders it into the output folder; a warning fails the build.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from rulepress.compendium.model import Compendium
from rulepress.errors import RulepressError
from rulepress.exporters.site.pages import generate


def run_mkdocs(config: Path, site_dir: Path) -> None:
    """`mkdocs build --strict` in a child process (mkdocs configures global logging)."""
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "-f",
            str(config),
            "-d",
            str(site_dir),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        detail = (completed.stderr or completed.stdout).strip()
        raise RulepressError(f"mkdocs build --strict failed:\n{detail}")


class SiteExporter:
    name = "site"
    description = "the rules reference website, mkdocs + Material (dist/site/)"

    def export(self, compendium: Compendium, out: Path, options: dict | None = None) -> None:
        with tempfile.TemporaryDirectory(prefix="rulepress-site-") as project:
            config = generate(compendium, Path(project), (options or {}).get("templates"))
            run_mkdocs(config, out)
