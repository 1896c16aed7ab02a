"""`rulepress serve` as a contributor uses it: a real server on a copy of the bundled
compendium, a weapon file saved, the page served with the new value, and only that
page rebuilt; the search index follows, browsers are told to reload, and an invalid
save keeps the last good page."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
from urllib.parse import urljoin

import pytest
from watchdog.events import DirModifiedEvent, FileModifiedEvent, FileMovedEvent

from rulepress.commands.serve import ChangedPaths
from rulepress.exporters.site.pages import site_environments, write_pages
from rulepress.exporters.site.places import PageInputs, changed_own_pages
from rulepress.exporters.site.project import SiteProject
from rulepress.live import LiveCompendium
from tests.helpers import COMPENDIUM, PAGE, PATIENCE, WEAPON, Served


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("serve"))
    try:
        server.wait_for(lambda: "Salvaged Pistol" in server.get(PAGE), "the first page served")
        yield server
    finally:
        server.stop()


def renamed(server: Served) -> None:
    """The weapon renamed Quokkablaster and its page served so: saved by the first test
    of the module that the worker runs (xdist may hand this module's tests to several
    workers, each with a server of its own)."""
    if "Quokkablaster" not in (server.compendium / WEAPON).read_text(encoding="utf-8"):
        server.save(WEAPON, "name: Salvaged Pistol", "name: Quokkablaster Pistol")
    server.wait_for(lambda: "Quokkablaster" in server.get(PAGE), "the changed page served")


def livereload_epoch(page: str) -> int:
    """The site version a served page was built from, in mkdocs's livereload script."""
    found = re.search(r"livereload\((\d+), (\d+)\)", page)
    assert found, "the served page has no livereload script"
    return int(found[1])


def test_a_saved_weapon_is_served_and_only_its_page_is_rebuilt(served):
    before = served.html_mtimes()
    epoch = livereload_epoch(served.get(PAGE))
    served.save(WEAPON, "name: Salvaged Pistol", "name: Quokkablaster Pistol")
    served.wait_for(lambda: "Quokkablaster Pistol" in served.get(PAGE), "the changed page served")
    after = served.html_mtimes()
    rebuilt = {page for page in before if after.get(page) != before[page]}
    source = {page for page in rebuilt if not page.startswith("de/")}  # the German site's apart
    assert PAGE in source
    assert after.keys() == before.keys()
    assert "index.html" not in rebuilt and "t2k4e/index.html" not in rebuilt
    assert len(source) <= 3, rebuilt  # the weapon's page, at most its rulings or errata
    # the German site is built whole, but only the pages whose bytes changed are copied
    assert f"de/{PAGE}" in rebuilt and "de/index.html" not in rebuilt
    assert len(rebuilt - source) <= 3, rebuilt
    assert "dirty build" in served.output()
    # the browser's poll answers at once with the newer site's epoch
    assert int(served.get(f"livereload/{epoch}/1")) > epoch


def switcher(html: str) -> dict[str, str]:
    """The language switcher's links of a page, by language."""
    links = re.findall(r'<a href="([^"]*)" hreflang="([^"]*)" class="md-select__link">', html)
    return {lang: href for href, lang in links}


def test_the_german_site_is_served_and_its_switcher_leads_to_served_pages(served):
    german = served.get("de/cool/cool.html")
    assert '<html lang="de"' in german
    assert "<em>Beispiel:</em>" in german  # rulepress's own words, in German
    english = served.get("cool/cool.html")
    assert "<em>Example:</em>" in english
    for page, html in (("de/cool/cool.html", german), ("cool/cool.html", english)):
        links = switcher(html)
        assert set(links) == {"en", "de"}
        for language, href in links.items():  # each link is a page the server serves
            target = urljoin(f"http://host/{page}", href).removeprefix("http://host/")
            assert f'<html lang="{language}"' in served.get(target), (page, href)
    # the German site's Weapons page follows a save as the source's does
    renamed(served)
    assert "Quokkablaster Pistol" in served.get(f"de/{PAGE}")


def test_the_search_index_keeps_every_page_and_finds_the_new_word(served):
    renamed(served)
    index = json.loads(served.get("search/search_index.json"))
    locations = [entry["location"] for entry in index["docs"]]
    assert len(locations) == len(set(locations)), "a rebuilt page is indexed twice"
    assert any("Quokkablaster" in entry["text"] for entry in index["docs"])
    pages = {location.partition("#")[0] for location in locations}
    assert {"index.html", "t2k4e/index.html", PAGE} <= pages  # pages not rebuilt still found


def test_an_invalid_save_keeps_the_last_good_page_and_its_fix_is_served(served):
    renamed(served)
    served.save(WEAPON, "magazine: 3", "magazine: lots")
    finding = re.compile(r"salvaged-pistol\.yaml:\d+:\d+: error")
    served.wait_for(lambda: finding.search(served.output()), "the error printed")
    assert "showing the last good pages" in served.output()
    assert "Quokkablaster Pistol" in served.get(PAGE)
    served.save(WEAPON, "magazine: lots\n", "magazine: 3\n")
    served.save(WEAPON, "name: Quokkablaster Pistol", "name: Wombatrifle Pistol")
    served.wait_for(lambda: "Wombatrifle Pistol" in served.get(PAGE), "the fix served")


def test_sigterm_ends_the_preview_cleanly(served):
    # the module's last test: it ends the module's server
    assert served.stop() == 0
    assert "Traceback" not in served.output()
    assert not list(served.temporary.glob("rulepress-serve-*")), "the temporary folder is left"


def test_a_compendium_with_errors_at_the_start_exits_1_with_its_findings(tmp_path):
    compendium = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM, compendium)
    weapon = compendium / WEAPON
    weapon.write_text(weapon.read_text().replace("magazine: 3", "magazine: lots"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run(
        [sys.executable, "-m", "rulepress", "serve", str(compendium), "-a", f"127.0.0.1:{port}"],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert re.search(r"salvaged-pistol\.yaml:\d+:\d+: error", done.stdout)
    assert "Traceback" not in done.stderr


def test_the_paths_noted_for_an_update_are_every_file_an_event_names_once(tmp_path):
    noted = ChangedPaths(tmp_path)
    noted.dispatch(FileModifiedEvent(str(tmp_path / "b.yaml")))
    noted.dispatch(FileMovedEvent(str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml")))
    noted.dispatch(FileModifiedEvent(str(tmp_path / "b.yaml")))
    noted.dispatch(DirModifiedEvent(str(tmp_path)))
    assert noted.take() == [tmp_path / "b.yaml", tmp_path / "new.yaml", tmp_path / "old.yaml"]
    assert noted.take() == []


def _pages(project: SiteProject) -> dict[str, bytes]:
    return {
        p.relative_to(project.docs).as_posix(): p.read_bytes() for p in project.docs.rglob("*.md")
    }


def test_a_weapon_edit_renders_its_page_and_only_the_pages_whose_inputs_changed(tmp_path):
    compendium = tmp_path / "compendium"
    shutil.copytree(COMPENDIUM, compendium)
    live, inputs, environments = LiveCompendium(compendium), PageInputs(), site_environments()
    folder = tmp_path / "project"
    first = live.validation.compendium
    write_pages(SiteProject(folder), first, None, [], environments=environments, inputs=inputs)

    def edit(relative: str, old: str, new: str) -> set[str]:
        """Save one file, write the pages its update feeds; the pages rendered."""
        file = compendium / relative
        file.write_text(file.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        changes = live.update([file]).changes
        assert changes is not None
        only = changed_own_pages(changes)
        assert only is not None, "an edit of one weapon's own page writes the site whole"
        project = SiteProject(folder)
        write_pages(project, changes.current, None, [], only, environments, inputs)
        fresh = SiteProject(tmp_path / relative)  # a full write: the pages must be its
        write_pages(fresh, changes.current, None, [], environments=site_environments())
        assert _pages(project) == _pages(fresh)
        return {p.relative_to(project.docs).as_posix() for p in project.written}

    rendered = edit("iris/weapons/pistols/light-combat-pistol.yaml", "cost: 8", "cost: 9")
    assert "iris/weapons/pistols.md" in rendered
    assert not rendered & {"index.md", "iris/index.md", "iris/rulings.md", "iris/sources.md"}
    assert not rendered & {"contributing.md", "t2k4e/index.md", "iris/weapons/shotguns.md"}
    rendered = edit("iris/weapon-sections/shotguns.yaml", "as specialist weapons", "as rare ones")
    assert {"iris/weapons/shotguns.md", "iris/rulings.md"} <= rendered  # its ruling changed
    assert not rendered & {"iris/index.md", "iris/weapons/pistols.md"}
    rendered = edit("iris/weapon-sections/shotguns.yaml", "name: Shotguns", "name: Scatterguns")
    assert {"iris/weapons/shotguns.md", "iris/index.md"} <= rendered  # the overview lists it


def test_a_page_is_rendered_again_when_its_inputs_change_or_were_forgotten():
    inputs = PageInputs()
    assert not inputs.unchanged("iris/rulings.md", ("a",), consult=True)  # never rendered
    assert inputs.unchanged("iris/rulings.md", ("a",), consult=True)
    assert not inputs.unchanged("iris/rulings.md", ("b",), consult=True)
    assert not inputs.unchanged("iris/rulings.md", ("b",), consult=False)  # a whole write
    inputs.forget_pages()  # which may remove a page not written
    assert not inputs.unchanged("iris/rulings.md", ("b",), consult=True)
