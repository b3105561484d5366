"""The phone's first visit on a crowded venue network (issue 36): the bytes a judge's phone downloads before it works
offline. Scripts and the stylesheet go without their comments and indentation; the service worker installs only
what the pages kept for offline use run, and keeps the rest as pages ask for them; the judge's guide kept offline is
the judge's own."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import brotli
import pytest

from judgeapp.infractions.search import entries_of_file
from judgeapp.offline.bundles import make_bundles
from tests.conftest import PASSWORD, login
from tests.integration.test_production import url_for_static

STATIC = Path(__file__).resolve().parents[2] / "judgeapp" / "static"
MODULES = sorted(p.relative_to(STATIC).as_posix() for p in (STATIC / "js").glob("*.js"))
NODE = shutil.which("node")


def served(client, url: str) -> bytes:
    with client.get(url, headers={"Accept-Encoding": "br"}) as response:
        assert response.status_code == 200, url
        data = response.get_data()
        return brotli.decompress(data) if response.headers.get("Content-Encoding") == "br" else data


def shell_lists(client) -> tuple[list[str], list[str]]:
    text = served(client, "/sw.js").decode("utf-8")
    installed = re.search(r"SHELL\s*=\s*(\[[^\]]*\])", text)
    kept_later = re.search(r"LAZY\s*=\s*(\[[^\]]*\])", text)
    assert installed and kept_later, "sw.js names the files it installs (SHELL) and those it keeps when used (LAZY)"
    return re.findall(r'"([^"]+)"', installed.group(1)), re.findall(r'"([^"]+)"', kept_later.group(1))


@pytest.mark.parametrize("name", MODULES)
def test_a_script_is_sent_without_its_comments_and_still_parses_as_a_module(app, client, name, tmp_path):
    source = (STATIC / name).read_bytes()
    sent = served(client, url_for_static(app, name))
    assert not re.search(rb"^\s*//", sent, re.MULTILINE), "no comment line is sent"
    assert len(sent) < len(source) * 0.9
    # every name the module exports is still exported
    for exported in re.findall(rb"^export (?:async )?(?:function|const|let|var|class) (\w+)", source, re.MULTILINE):
        assert re.search(rb"export (?:async )?(?:function|const|let|var|class) " + exported + rb"\b", sent), exported
    if NODE is None:
        pytest.skip("no node here to parse the sent module")
    (tmp_path / "sent.mjs").write_bytes(sent)
    check = subprocess.run([NODE, "--check", str(tmp_path / "sent.mjs")], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stderr


def test_the_stylesheet_and_the_service_worker_are_sent_without_comments(app, client):
    style = served(client, url_for_static(app, "app.css"))
    assert b"/*" not in style and len(style) < len((STATIC / "app.css").read_bytes()) * 0.85
    assert b".field-error" in style
    worker = served(client, "/sw.js")
    assert not re.search(rb"^\s*//", worker, re.MULTILINE) and b'addEventListener("fetch"' in worker
    if NODE is not None:
        check = subprocess.run([NODE, "--check", "-"], input=worker, capture_output=True, timeout=60)
        assert check.returncode == 0, check.stderr


def test_the_worker_installs_what_the_offline_pages_run_and_keeps_the_rest_once_a_page_asks_for_it(app, client):
    installed, later = shell_lists(client)

    def plain(urls):
        return {u.split("?")[0].removeprefix("/static/") for u in urls}

    # the pages kept for offline use run two bundles (judgeapp/offline/bundles.py), which hold every module they run
    assert {"js/bundle/app.js", "js/bundle/finder.js"} <= plain(installed)
    assert not {m for m in plain(installed) if m.startswith("js/") and not m.startswith("js/bundle/")}
    # what only pages that need the network use, another language's catalog and the home screen's large icons: kept
    # when a page asks for them, not downloaded with the first page
    not_first = {"js/jobs.js", "js/policy-levels.js", "js/appeal-decision.js", "js/call-status.js", "i18n/ja.json"}
    not_first |= {"icons/icon-512.png", "icons/maskable-512.png"}
    assert not_first.isdisjoint(plain(installed))
    assert not_first <= plain(later)
    assert all(re.fullmatch(r"/static/\S+\?v=[0-9a-f]{12}", url) for url in later)
    bundled = {m for b in make_bundles() for m in b.modules}
    assert set(MODULES) <= bundled | plain(later)  # every module is in the installed bundles or kept when asked for


def test_a_floor_judges_phone_keeps_the_floor_judges_guide_not_the_organizers(app, floor):
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1], PASSWORD)
    kept = judge.get("/offline/copy.json").get_json()["help"]
    assert "/help/floor-judge" in kept and "/help/" in kept
    assert "/help/organizer" not in kept and "/help/head-judge" not in kept
    head = app.test_client()
    login(head, floor["people"]["head_judge"][1], PASSWORD)
    assert "/help/head-judge" in head.get("/offline/copy.json").get_json()["help"]


def test_files_the_same_for_everyone_are_sent_brotli_at_its_best_level_and_gzip_still_works(app, client, floor):
    from judgeapp.static_files import minify

    source = (STATIC / "js" / "incident.js").read_bytes()
    url = url_for_static(app, "js/incident.js")
    with client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"}) as response:
        assert response.headers["Content-Encoding"] == "br" and response.headers["Vary"] == "Accept-Encoding"
        assert response.get_data() == brotli.compress(minify("text/javascript", source), quality=11)
    with client.get(url, headers={"Accept-Encoding": "gzip"}) as response:
        assert response.headers["Content-Encoding"] == "gzip"
    with client.get(url, headers={"Accept-Encoding": "br;q=0, gzip"}) as response:
        assert response.headers["Content-Encoding"] == "gzip"
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1], PASSWORD)
    finder = judge.get("/offline/copy.json").get_json()["events"][0]["finder"]
    with judge.get(finder, headers={"Accept-Encoding": "br"}) as response:
        plain = brotli.decompress(response.get_data())
        assert response.headers["Content-Encoding"] == "br" and plain.startswith(b'{"format":')
        assert response.get_data() == brotli.compress(plain, quality=11)


def test_the_incident_form_lists_infractions_without_their_search_words_which_the_finder_file_holds(app, floor):
    """The phone searches the finder file (incident.js); the <select> the server renders is the form's value and the
    chooser without JavaScript, which searches nothing: its options carry code, name and sub-section only."""
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1], PASSWORD)
    page = judge.get(f"/events/{floor['event_id']}/incidents/new").get_data(as_text=True)
    select = re.search(r'<select id="infraction".*?</select>', page, re.S).group(0)
    assert "data-words" not in select and 'value="3.9.1"' in select and 'data-sub="3.9"' in select
    finder = re.search(r'data-finder="([^"]+)"', page).group(1)
    tardiness = next(e for e in entries_of_file(judge.get(finder).get_json()) if e["code"] == "3.9.1")
    words = " ".join(text for _, text in tardiness["fields"])
    assert "tardiness — common" in words and "ちこく" in words and "late" in words


def test_files_compressed_once_are_kept_in_memory_only_up_to_a_bound_the_oldest_going_first(app):
    from flask import Response

    from judgeapp import static_files

    with app.test_request_context(headers={"Accept-Encoding": "br"}):
        for n in range(static_files.BROTLI_KEPT + 5):
            static_files.send_compressed_once(Response(b"x" * 600 + str(n).encode()), ("bound-test", str(n)))
    kept = [key for key in static_files._BROTLI_MADE if key[0] == "bound-test"]
    assert len(static_files._BROTLI_MADE) <= static_files.BROTLI_KEPT
    assert ("bound-test", str(static_files.BROTLI_KEPT + 4)) in kept and ("bound-test", "0") not in kept


@pytest.mark.parametrize("name", ["js/bundle/app.js", "js/bundle/finder.js"])
def test_a_bundle_is_sent_minified_brotli_and_kept_a_year_and_parses_as_a_module(app, client, name, tmp_path):
    from judgeapp.static_files import IMMUTABLE

    url = url_for_static(app, name)
    with client.get(url, headers={"Accept-Encoding": "br"}) as response:
        assert response.headers["Content-Encoding"] == "br" and response.headers["Cache-Control"] == IMMUTABLE
        assert "Set-Cookie" not in response.headers and "Cookie" not in response.headers.get("Vary", "")
    sent = served(client, url)
    assert not re.search(rb"^\s*//", sent, re.MULTILINE) and not re.search(rb"\n\s", sent)  # no comment, no indent
    assert b"$load" in sent and b"data-entry" in sent
    if NODE is None:
        pytest.skip("no node here to parse the sent bundle")
    (tmp_path / "sent.mjs").write_bytes(sent)
    check = subprocess.run([NODE, "--check", str(tmp_path / "sent.mjs")], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stderr
