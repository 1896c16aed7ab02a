"""What `rulepress serve` tells the browser when a save breaks the compendium.

The preview keeps the last good site, so a contributor looking at the browser would see
nothing wrong. While the compendium has errors, every page the preview serves carries
a banner with the findings, as the terminal prints them (escaped: a finding quotes the
file's own text). The browser reloads on every save, good or bad (mkdocs's live-reload
script), so the banner comes with the broken save and goes with its fix.
"""

from __future__ import annotations

import re
import threading

from mkdocs.livereload import LiveReloadServer

from rulepress.exporters.escaping import html_text

MOST_LINES = 40
"""The findings' lines a banner shows; the terminal has them all."""
BANNER_ID = "rp-serve-findings"
_BODY = re.compile(rb"<body\b[^>]*>")
_STYLE = (
    "position:fixed;inset:auto 0 0 0;z-index:10;max-height:50vh;overflow:auto;margin:0;"
    "padding:.8rem 1.2rem;background:#8b0000;color:#fff;font:14px/1.4 sans-serif;"
    "border-top:4px solid #fff;box-shadow:0 -2px 8px rgba(0,0,0,.4)"
)


class Problems:
    """Why the preview shows the last good site, if it does: set by the rebuild (the
    builder's thread), read for each page served (the server's threads)."""

    def __init__(self) -> None:
        """No problem yet."""
        self._lock = threading.Lock()
        self._text: tuple[str, str] | None = None

    def show(self, headline: str, findings: str) -> None:
        """From now on every page served shows `headline` and `findings` (plain text)."""
        with self._lock:
            self._text = (headline, findings)

    def clear(self) -> None:
        """The compendium is good again: pages are served as built."""
        with self._lock:
            self._text = None

    def banner(self) -> bytes:
        """The banner's HTML, or b"" when there is no problem."""
        with self._lock:
            text = self._text
        if text is None:
            return b""
        headline, findings = text
        lines = findings.splitlines()
        if len(lines) > MOST_LINES:
            lines = [*lines[:MOST_LINES], f"... and {len(lines) - MOST_LINES} more lines"]
        return (
            f'<div id="{BANNER_ID}" role="alert" style="{_STYLE}">'
            f'<p style="margin:0 0 .4em;font-weight:700">{html_text(headline)}</p>'
            '<pre style="margin:0;white-space:pre-wrap;overflow-wrap:anywhere;'
            'font:13px/1.4 monospace;color:#fff;background:none">'
            f"{html_text(chr(10).join(lines))}</pre></div>"
        ).encode()


class FindingsServer(LiveReloadServer):
    """mkdocs's live-reload server that also puts the current problem's banner at the top
    of each page's body."""

    def __init__(self, *args, problems: Problems, **kwargs) -> None:
        """The server as mkdocs makes it, reading its banners from `problems`."""
        super().__init__(*args, **kwargs)
        self.problems = problems

    def _inject_js_into_html(self, content: bytes, epoch: int) -> bytes:
        content = super()._inject_js_into_html(content, epoch)
        banner = self.problems.banner()
        body = _BODY.search(content)
        if not banner or body is None:
            return content
        return content[: body.end()] + banner + content[body.end() :]
