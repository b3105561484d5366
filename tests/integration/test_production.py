"""The production shape through the app: proxy headers, compression, static files under versioned names."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

import brotli
import pytest
from flask import request, url_for

from judgeapp import create_app
from judgeapp.extensions import db
from judgeapp.static_files import IMMUTABLE, minify
from tests.conftest import PASSWORD, app_config, csrf_token, login

STATIC = Path(__file__).resolve().parents[2] / "judgeapp" / "static"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


@pytest.fixture
def proxied(tmp_path):
    """An app built with JUDGEAPP_PROXY_HOPS=N (same database as the `app` fixture), disposed after the test."""
    made = []

    def make(hops: int):
        made.append(create_app(app_config(tmp_path, JUDGEAPP_PROXY_HOPS=hops)))
        return made[-1]

    yield make
    for built in made:
        with built.app_context():
            db.engine.dispose()


def wrong_password(client, email: str, address: str) -> int:
    headers = {"X-Forwarded-For": address}
    token = csrf_token(client, "/login")
    return client.post(
        "/login", headers=headers, data={"csrf_token": token, "email": email, "password": "not-the-password"}
    ).status_code


# ---- behind an HTTPS proxy ----


def test_behind_one_trusted_proxy_the_login_limit_counts_the_forwarded_client_address(app, proxied, make_user):
    _, email = make_user()
    client = proxied(1).test_client()
    assert [wrong_password(client, email, "203.0.113.9") for _ in range(6)] == [401] * 5 + [429]
    assert wrong_password(client, email, "198.51.100.7") == 401  # another judge's phone is another address


def test_without_a_trusted_proxy_a_forged_forwarded_address_does_not_escape_the_login_limit(app, proxied, make_user):
    _, email = make_user()
    client = proxied(0).test_client()
    assert [wrong_password(client, email, f"203.0.113.{n}") for n in range(5)] == [401] * 5
    assert wrong_password(client, email, "198.51.100.7") == 429  # counted by the socket's address, not the header


def where_am_i(built):
    """A page that shows what the app sees of the request (added to this test's app only)."""

    @built.get("/_where")
    def where():
        return {"url": request.url, "client": request.remote_addr, "login": url_for("auth.login", _external=True)}

    return built.test_client()


def test_behind_one_trusted_proxy_urls_are_https_on_the_public_host_and_the_client_is_the_phone(app, proxied):
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "judge.example", "X-Forwarded-For": "203.0.113.9"}
    assert where_am_i(proxied(1)).get("/_where", headers=forwarded).get_json() == {
        "url": "https://judge.example/_where",
        "client": "203.0.113.9",
        "login": "https://judge.example/login",
    }
    assert where_am_i(proxied(0)).get("/_where", headers=forwarded).get_json() == {
        "url": "http://localhost/_where",
        "client": "127.0.0.1",
        "login": "http://localhost/login",
    }


# ---- compression ----


def test_styles_scripts_and_json_are_sent_brotli_or_gzip_as_the_browser_accepts(client):
    css = minify("text/css", (STATIC / "app.css").read_bytes())  # as sent: minified
    with client.get("/static/app.css") as plain_style:
        assert "Content-Encoding" not in plain_style.headers  # a client that asks for nothing gets plain bytes
    for encoding, decode in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        with client.get("/static/app.css", headers={"Accept-Encoding": f"{encoding}, identity"}) as style:
            assert style.headers["Content-Encoding"] == encoding and "Accept-Encoding" in style.headers["Vary"]
            assert decode(style.get_data()) == css and len(style.get_data()) < len(css) / 2
        worker = client.get("/sw.js", headers={"Accept-Encoding": encoding})
        assert worker.headers["Content-Encoding"] == encoding and b"SHELL" in decode(worker.data)
    with client.get("/static/app.css", headers={"Accept-Encoding": "gzip, deflate, br"}) as both:
        assert both.headers["Content-Encoding"] == "br"


# pages: compressed, with nothing secret to learn from their sizes (tests/integration/test_breach.py)


def test_pdf_reports_and_images_are_not_compressed_again(app, floor, job_worker):
    from tests.renders import report_pdf

    organizer = app.test_client()
    login(organizer, floor["organizer"][1])
    report = report_pdf(organizer, job_worker, floor["event_id"], headers={"Accept-Encoding": "br, gzip"})
    assert report.mimetype == "application/pdf" and report.data[:5] == b"%PDF-"
    assert "Content-Encoding" not in report.headers
    with organizer.get(url_for_static(app, "icons/icon-192.png"), headers={"Accept-Encoding": "br, gzip"}) as icon:
        assert "Content-Encoding" not in icon.headers and icon.get_data()[:4] == b"\x89PNG"


# ---- static files under versioned names ----


def url_for_static(app, filename: str) -> str:
    with app.test_request_context():
        return url_for("static", filename=filename)


def test_a_static_url_names_the_files_content_hash_and_is_cached_for_a_year(app, client):
    css = (STATIC / "app.css").read_bytes()
    url = url_for_static(app, "app.css")
    assert url == f"/static/app.css?v={digest(css)}"  # the source's hash; the file is sent minified
    with client.get(url) as response:
        assert response.status_code == 200 and response.get_data() == minify("text/css", css)
        assert response.headers["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    assert url in client.get("/login").get_data(as_text=True)  # the templates' url_for() gives the same URL


def test_changing_a_static_file_changes_its_url_and_an_old_url_gets_the_new_file_uncached(app, client, tmp_path):
    folder = tmp_path / "static"
    folder.mkdir()
    app.static_folder = str(folder)
    app.extensions["judgeapp.static_versions"].folder = str(folder)
    (folder / "feed.js").write_text("console.log('first');\n")
    first = url_for_static(app, "feed.js")
    (folder / "feed.js").write_text("console.log('second version');\n")
    second = url_for_static(app, "feed.js")
    assert first != second and second == f"/static/feed.js?v={digest((folder / 'feed.js').read_bytes())}"
    with client.get(second) as current:
        assert current.headers["Cache-Control"] == IMMUTABLE and b"second version" in current.get_data()
    # a page rendered before the deployment: it still gets a working file, but nobody keeps it under the old name
    for stale in (first, "/static/feed.js?v=000000000000", "/static/feed.js"):
        with client.get(stale) as answer:
            assert answer.status_code == 200 and b"second version" in answer.get_data(), stale
            assert answer.headers["Cache-Control"] == "no-cache", stale
    assert client.get("/static/missing.js?v=000000000000").status_code == 404
    assert url_for_static(app, "missing.js") == "/static/missing.js"


# ---- a header diet for static files: each of the ~30 files of a first visit repeats its headers ----

DOCUMENT_ONLY = ("Content-Security-Policy", "X-Frame-Options", "Referrer-Policy")  # they act on pages, not on a script


def test_a_versioned_static_file_carries_only_the_headers_a_browser_uses_for_it(app, floor):
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1])  # a signed-in phone: its cookie changes nothing in a file
    for name in ("js/incident.js", "app.css", "icons/icon-192.png", "i18n/ja.json"):
        with judge.get(url_for_static(app, name), headers={"Accept-Encoding": "br"}) as response:
            assert response.status_code == 200 and response.headers["Cache-Control"] == IMMUTABLE
            sent = {key for key, _ in response.headers}
            assert sent <= {
                "Content-Type",
                "Content-Length",
                "Cache-Control",
                "X-Content-Type-Options",
                "Vary",
                "Content-Encoding",
                "Date",
            }, name
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert response.headers.get("Vary", "Accept-Encoding") == "Accept-Encoding" and "Set-Cookie" not in sent
    page = judge.get(f"/events/{floor['event_id']}")
    assert all(page.headers[header] for header in DOCUMENT_ONLY)  # pages keep every one of them
    worker = judge.get("/sw.js")
    assert "script-src 'self'" in worker.headers["Content-Security-Policy"]  # a worker's CSP comes from its own answer


def test_an_unversioned_static_file_is_revalidated_by_its_etag(client):
    with client.get("/static/app.css") as first:
        assert first.headers["Cache-Control"] == "no-cache" and first.headers["ETag"]
    with client.get("/static/app.css", headers={"If-None-Match": first.headers["ETag"]}) as again:
        assert again.status_code == 304 and again.get_data() == b""


def test_the_service_workers_shell_lists_versioned_files_and_the_worker_itself_is_never_cached(app, client):
    worker = client.get("/sw.js")
    assert worker.headers["Cache-Control"] == "no-cache"
    shell = re.findall(r'"(/static/[^"]+)"', worker.get_data(as_text=True))
    bundle = (STATIC / "js" / "bundle" / "finder.js").read_bytes()
    assert f"/static/js/bundle/finder.js?v={digest(bundle)}" in shell
    assert shell and all(re.fullmatch(r"/static/\S+\?v=[0-9a-f]{12}", url) for url in shell)
    for url in shell:
        with client.get(url) as response:
            assert response.status_code == 200 and response.headers["Cache-Control"] == IMMUTABLE, url


def test_a_signed_in_judges_pages_load_versioned_scripts(app, floor):
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1], PASSWORD)
    page = judge.get(f"/events/{floor['event_id']}/incidents/new").get_data(as_text=True)
    # the page's entry module by its bundle's script tag (the bundle holds the engine it imports), the page's own
    # script by the bundle every page loads
    assert f'src="{url_for_static(app, "js/bundle/finder.js")}" data-entry="incident"' in page
    assert f'src="{url_for_static(app, "js/bundle/app.js")}" data-entry="page"' in page


def test_the_incident_form_preloads_the_bundle_that_runs_its_script_at_its_versioned_address(app, floor):
    """<link rel="modulepreload">: the phone fetches the form's bundle (incident.js and every module it imports that the
    bundle every page loads does not hold) from the page's head, not after the page's end (on a venue's network each
    round trip is most of a second)."""
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1], PASSWORD)
    page = judge.get(f"/events/{floor['event_id']}/incidents/new").get_data(as_text=True)
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', page)
    assert preloaded == [url_for_static(app, "js/bundle/finder.js")]
    assert page.index("modulepreload") < page.index("</head>")
    from judgeapp.offline.bundles import make_bundles

    held = next(b for b in make_bundles() if b.name == "finder").modules
    assert {f"js/{name}.js" for name in ("incident", "engine", "search", "names", "seats", "servertime")} <= set(held)
    other = judge.get(f"/events/{floor['event_id']}/clock").get_data(as_text=True)
    assert "modulepreload" not in other


# ---- backups on a timer ----


def test_the_backup_script_keeps_a_restorable_copy_and_deletes_copies_older_than_the_kept_days(
    app, make_user, tmp_path
):
    import os
    import sqlite3
    import subprocess
    import sys
    import time

    _, email = make_user()
    folder = tmp_path / "backups"
    folder.mkdir()
    old = folder / "judgeapp-20250101-000000.sqlite3"
    old.write_bytes(b"an old copy")
    month_ago = time.time() - 30 * 24 * 3600
    os.utime(old, (month_ago, month_ago))
    keep = folder / "notes.txt"  # anything else in the folder is left alone, however old
    keep.write_text("mine")
    os.utime(keep, (month_ago, month_ago))
    env = {
        **os.environ,
        "JUDGEAPP_PYTHON": sys.executable,
        "SECRET_KEY": "test-secret",
        "JUDGEAPP_BACKUP_DAYS": "14",
        "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
    }
    done = subprocess.run(
        [str(STATIC.parents[1] / "scripts" / "backup.sh"), str(folder)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    copies = sorted(p for p in folder.iterdir() if p.name.startswith("judgeapp-"))
    assert not old.exists() and keep.exists() and len(copies) == 1, done.stdout
    if copies[0].suffix == ".sqlite3":  # restore = put this file where DATABASE_URL points (docs/operators/backups.md)
        with sqlite3.connect(copies[0]) as restored:
            assert restored.execute("SELECT count(*) FROM users WHERE email = ?", (email,)).fetchone() == (1,)
        restored.close()
    else:  # PostgreSQL: pg_restore reads the custom-format dump back
        assert copies[0].suffix == ".dump" and copies[0].read_bytes()[:5] == b"PGDMP"
        listing = subprocess.run(["pg_restore", "--list", str(copies[0])], capture_output=True, text=True, check=True)
        assert "TABLE DATA public users" in listing.stdout


def test_a_fresh_clone_with_its_secret_key_in_the_environment_gets_its_default_sqlite_database(tmp_path, monkeypatch):
    from sqlalchemy import create_engine, text

    from judgeapp.config import from_environment

    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    config = from_environment(str(tmp_path / "instance"))  # no instance/ yet, and no secret_key file to make it
    engine = create_engine(config["SQLALCHEMY_DATABASE_URI"])
    with engine.connect() as connection:
        assert connection.execute(text("SELECT 1")).scalar() == 1
    engine.dispose()
    assert (tmp_path / "instance" / "judgeapp.sqlite3").exists()
