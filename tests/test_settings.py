"""The publisher's settings (rulepress.yaml): findings at their place, and every output
taking the site's, the modules' and the guides' titles and addresses from them."""

from __future__ import annotations

import http.server
import os
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

import pytest

from rulepress.commands.build import build
from rulepress.validation import validate
from tests.helpers import base_tree, build_tree, run

SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'


def repository(tmp_path: Path, settings: str, files: dict[str, bytes] | None = None) -> Path:
    """A content repository: the demo compendium in `compendium/`, `settings` as its
    rulepress.yaml, and `files` beside them; its compendium folder."""
    build_tree(tmp_path / "compendium", base_tree())
    (tmp_path / "rulepress.yaml").write_text(settings, encoding="utf-8")
    for name, data in (files or {}).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    return tmp_path / "compendium"


def findings_of(tmp_path: Path, settings: str, files: dict[str, bytes] | None = None) -> list[str]:
    """`line:col code message` of each finding in rulepress.yaml."""
    validation = validate(repository(tmp_path, settings, files))
    return [
        f"{f.line}:{f.col} {f.code} {f.message}"
        for f in validation.findings
        if f.file and f.file.name == "rulepress.yaml"
    ]


# --- Findings ---------------------------------------------------------------------------------

CASES = [
    ("site:\n  titel: x\n", "2:3 RP101 site.titel: unknown field (did you mean 'title'?)"),
    # suggested from the mapping the key is in: the settings', never a document's fields
    ("site:\n  descriptoin: x\n", "2:3 RP101 site.descriptoin: unknown field (did you mean"),
    ("sitee: {}\n", "1:1 RP101 sitee: unknown field (did you mean 'site'?)"),
    (
        "foundry:\n  authors: [{nmae: x}]\n",
        "2:14 RP101 foundry.authors[0].nmae: unknown field (did",
    ),
    ("site:\n  colours: {primary: bleu}\n", "2:22 RP105 site.colours.primary"),
    ("site:\n  url: ftp://example.org/\n", "2:8 RP105 site.url"),
    ('site:\n  url: "https://example.org/<script>"\n', "2:8 RP105 site.url"),
    (
        "site:\n  language: xx\n",
        "2:13 RP105 site.language: the Material theme has no language 'xx'",
    ),
    ("site:\n  logo: ../outside.svg\n", "2:9 RP105 site.logo"),
    ("site:\n  logo: /etc/passwd\n", "2:9 RP105 site.logo"),
    ("site:\n  extra_css: [.hidden/a.css]\n", "2:15 RP105 site.extra_css[0]"),
    ("site:\n  logo: assets/none.svg\n", "2:9 RP010 site.logo: assets/none.svg: no such file"),
    (
        "site:\n  favicon: notes.txt\n",
        "2:12 RP010 site.favicon: notes.txt: must be a .ico, .png, .svg file",
    ),
    (
        'foundry:\n  title: "{ruleset} by {author}"\n',
        "2:10 RP105 foundry.title: unknown placeholder {author}",
    ),
    ('foundry:\n  title: "{ruleset"\n', "2:10 RP105 foundry.title"),
    ("foundry:\n  id_prefix: My_Rules\n", "2:14 RP105 foundry.id_prefix"),
    ("foundry:\n  authors: [{email: a@b.c}]\n", "2:13 RP102 foundry.authors[0].name"),
    ('guides:\n  title: "a\\u202eb"\n', "2:10 RP105 guides.title"),
    ("guides:\n  front_matter: {Layout: x}\n", "2:18 RP105 guides.front_matter.Layout"),
    ("- a list\n", "1:1 RP007 the settings file must hold a mapping"),
    ("site: {title: [unclosed\n", "RP003"),
]


@pytest.mark.parametrize(("settings", "expected"), CASES, ids=[c[1][:40] for c in CASES])
def test_a_bad_setting_is_a_finding_at_its_place(tmp_path, settings, expected):
    found = findings_of(tmp_path, settings)
    assert any(expected in line for line in found), found


def test_a_misspelt_setting_is_never_offered_a_document_field(tmp_path):
    # `magazin` is close to a weapon's `magazine`, and to no setting of `site`
    assert findings_of(tmp_path, "site:\n  magazin: 3\n") == [
        "2:3 RP101 site.magazin: unknown field"
    ]


def test_a_named_file_that_leads_out_of_the_repository_is_refused_unread(tmp_path):
    (tmp_path / "secret.svg").write_bytes(SVG)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "logo.svg").symlink_to(tmp_path / "secret.svg")
    found = findings_of(repo, "site:\n  logo: logo.svg\n")
    assert found == ["2:9 RP010 site.logo: logo.svg: points outside the repository; refused"]


def test_a_named_pipe_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "logo.svg")
    found = findings_of(tmp_path, "site:\n  logo: logo.svg\n")
    assert len(found) == 1 and found[0].startswith("2:9 RP010 site.logo: logo.svg: cannot be read")


def test_an_empty_settings_file_is_every_default(tmp_path):
    assert findings_of(tmp_path, "# nothing set yet\n") == []


def test_the_command_line_points_at_the_setting_and_fails(tmp_path):
    repository(tmp_path, "site:\n  colours: {accent: mauve}\n")
    result = run("validate", "compendium", "--no-cache", cwd=tmp_path)
    assert result.returncode == 1
    assert "rulepress.yaml:2:21: error RP105: site.colours.accent" in result.stdout
    result = run("build", "compendium", "--no-cache", cwd=tmp_path)
    assert result.returncode == 1 and not (tmp_path / "dist").exists()


def test_a_settings_file_named_on_the_command_line_must_exist(tmp_path):
    repository(tmp_path, "")
    result = run("validate", "compendium", "--settings", "elsewhere.yaml", cwd=tmp_path)
    assert result.returncode == 1
    assert "elsewhere.yaml:1:1: error RP001: settings file not found" in result.stdout


def test_a_settings_file_named_on_the_command_line_replaces_the_one_beside(tmp_path):
    repository(tmp_path, "site:\n  titel: broken\n")
    (tmp_path / "other.yaml").write_text("site:\n  title: Other\n", encoding="utf-8")
    result = run("validate", "compendium", "--settings", "other.yaml", "--strict", cwd=tmp_path)
    assert result.returncode == 0, result.stdout


# --- The site ---------------------------------------------------------------------------------

HOSTILE_TITLE = 'Acme <img src=x onerror=alert(1)> & "Co"'
SITE_SETTINGS = f"""\
site:
  title: '{HOSTILE_TITLE}'
  description: 'Rules "quoted" <b>bold</b>'
  url: http://127.0.0.1:PORT/my-rules/
  repository: https://github.com/acme/my-rules
  logo: assets/logo.svg
  favicon: assets/icon.svg
  colours: {{primary: deep orange, accent: teal}}
  language: de
  copyright: "© 2026 Acme <script>alert(1)</script>"
  extra_css: [assets/house style.css]
foundry:
  id_prefix: acme
  manifest: https://example.org/download/{{module}}.json
"""


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> tuple[Path, int]:
    """(the site's folder, the port its site_url names) of the demo compendium built
    with every site setting given."""
    root = tmp_path_factory.mktemp("repo")
    port = free_port()
    files = {
        "assets/logo.svg": SVG,
        "assets/icon.svg": SVG,
        "assets/house style.css": b".md-header { outline: 1px solid lime; }\n",
    }
    compendium = repository(root, SITE_SETTINGS.replace("PORT", str(port)), files)
    validation, _ = build(compendium, root / "dist", ["site", "foundry"])
    assert validation.ok, validation.findings
    return root / "dist", port


def page(site: Path, name: str) -> str:
    return (site / name).read_text(encoding="utf-8")


def test_the_site_shows_the_settings_texts_escaped_everywhere(published):
    site = published[0] / "site"
    home = page(site, "index.html")
    assert "<title>Acme &lt;img src=x onerror=alert(1)&gt; &amp; &#34;Co&#34;</title>" in home
    assert "<img src=x" not in home and "<script>alert" not in home
    assert "&amp;amp;" not in home  # escaped once, never twice
    assert (
        '<meta name="description" content="Rules &#34;quoted&#34; &lt;b&gt;bold&lt;/b&gt;">' in home
    )
    assert "© 2026 Acme &lt;script&gt;alert(1)&lt;/script&gt;" in home
    assert '<html lang="de"' in home
    assert 'data-md-color-primary="deep-orange"' in home
    assert 'data-md-color-accent="teal"' in home


def test_the_site_carries_the_named_files(published):
    site = published[0] / "site"
    assert (site / "_publisher/assets/logo.svg").read_bytes() == SVG
    home = page(site, "index.html")
    assert 'href="_publisher/assets/house%20style.css"' in home
    assert 'src="_publisher/assets/logo.svg"' in home
    assert 'rel="icon" href="_publisher/assets/icon.svg"' in home


def test_canonical_links_and_the_sitemap_use_the_site_url(published):
    site, port = published[0] / "site", published[1]
    base = f"http://127.0.0.1:{port}/my-rules/"
    assert f'<link rel="canonical" href="{base}demo/index.html">' in page(site, "demo/index.html")
    sitemap = page(site, "sitemap.xml")
    assert f"<loc>{base}demo/weapons/pistols.html</loc>" in sitemap


def test_a_page_links_the_yaml_file_it_was_built_from(published):
    site = published[0] / "site"
    edit = "https://github.com/acme/my-rules/edit/main/compendium/demo/"
    assert f'href="{edit}sections/pistols.yaml"' in page(site, "demo/weapons/pistols.html")
    assert f'href="{edit}ruleset.yaml"' in page(site, "demo/index.html")
    # a page built from several files links each section's own file instead
    skills = page(site, "demo/skills.html")
    assert f'href="{edit}skills/bio-lore.yaml"' in skills
    # a page built from no file has no edit link
    assert 'rel="edit"' not in page(site, "contributing.html")


def test_the_home_page_links_every_download(published):
    dist = published[0]
    home = page(dist / "site", "index.html")
    links = re.findall(r'<a href="(downloads/[^"]+)" download>', home)
    assert links == ["downloads/demo.md", "downloads/acme-demo.zip", "downloads/demo.json"]
    for link in links:
        assert (dist / "site" / link).is_file(), link
    # the same zip the foundry target writes
    zipped = (dist / "site/downloads/acme-demo.zip").read_bytes()
    assert zipped == (dist / "foundry/acme-demo.zip").read_bytes()
    assert "module.json" in zipfile.ZipFile(dist / "foundry/acme-demo.zip").namelist()
    assert "<code>https://example.org/download/acme-demo.json</code>" in home


class SubFolderServer(http.server.SimpleHTTPRequestHandler):
    """GitHub Pages for a project site: the site under /my-rules/, 404.html for any
    path that is not a file."""

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = (Path(self.directory) / "my-rules" / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None

    def log_message(self, *args):
        pass


def test_the_404_page_works_in_a_sub_folder(published, tmp_path):
    dist, port = published
    served = tmp_path / "pages"
    served.mkdir()
    (served / "my-rules").symlink_to(dist / "site", target_is_directory=True)
    handler = lambda *a, **k: SubFolderServer(*a, directory=str(served), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        missing = f"http://127.0.0.1:{port}/my-rules/no/such/page.html"
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(missing, timeout=10)
        assert answer.value.code == 404
        html = answer.value.read().decode("utf-8")
        assets = re.findall(r'(?:href|src)="([^"#]+\.(?:css|js|svg))"', html)
        assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
        for asset in assets:  # each as the browser resolves it against the missing page
            url = urllib.parse.urljoin(missing, asset)
            with urllib.request.urlopen(url, timeout=10) as response:
                assert response.status == 200, url
        home = re.search(r'<a href="([^"]+)" title="[^"]*" class="md-header__button md-logo"', html)
        assert home and urllib.parse.urljoin(missing, home.group(1)).startswith(
            f"http://127.0.0.1:{port}/my-rules/"
        )
    finally:
        server.shutdown()
        server.server_close()


# --- A build knows when the settings changed ----------------------------------------------------


def test_a_changed_setting_or_named_file_builds_again(tmp_path):
    repository(tmp_path, "site:\n  logo: logo.svg\n", {"logo.svg": SVG})
    env = {**os.environ, "RULEPRESS_CACHE_DIR": str(tmp_path / "cache")}
    args = ("build", "compendium", "--target", "markdown")
    assert run(*args, cwd=tmp_path, env=env).returncode == 0
    assert "up to date" in run(*args, cwd=tmp_path, env=env).stdout
    (tmp_path / "logo.svg").write_bytes(SVG.replace(b'width="4"', b'width="5"'))
    assert "up to date" not in run(*args, cwd=tmp_path, env=env).stdout
    assert "up to date" in run(*args, cwd=tmp_path, env=env).stdout
    (tmp_path / "rulepress.yaml").write_text("guides:\n  title: Changed\n", encoding="utf-8")
    result = run(*args, cwd=tmp_path, env=env)
    assert "up to date" not in result.stdout
    assert (tmp_path / "dist/markdown/demo.md").read_text(encoding="utf-8").startswith("# Changed")
    (tmp_path / "rulepress.yaml").unlink()
    assert "up to date" not in run(*args, cwd=tmp_path, env=env).stdout
