"""Page weight of the incident form: the HTML of the demo event's form plus every stylesheet and script it loads
(the entry modules and every module they import, at the addresses the page's import map gives) and the finder file
its script fetches (one per policy version, kept by the phone).

Bytes as judgeapp sends them to a phone that accepts brotli (bodies only; bench/network.py counts headers too): the
page and its CSS and scripts brotli-compressed by the app (pages too since their CSRF token is masked: BREACH,
judgeapp/breach.py); and all of it uncompressed. Baseline: the login page with its own CSS and scripts, the lightest
page, in the same run. Goal: under 25 KB as sent (issue 36).

Run: make bench (or .venv/bin/python bench/page_weight.py)
"""

from __future__ import annotations

import gzip
import json
import posixpath
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import brotli

from bench.fixtures import bench_app
from bench.results import emit
from judgeapp.extensions import db

ASSET_RE = re.compile(r'<(?:link[^>]+rel="stylesheet"[^>]+href|script[^>]+src)="([^"]+)"')
IMPORT_MAP_RE = re.compile(r'<script type="importmap">(.*?)</script>', re.DOTALL)
IMPORT_RE = re.compile(r'^import\b[^"]*"(\./[^"]+)";', re.MULTILINE)


def fetch(client, url: str) -> tuple[bytes, int]:
    """(the body, bytes on the wire) of `url` asked for as a phone asks: brotli or gzip welcome. The app compresses
    pages, static files and JSON (judgeapp/config.py)."""
    with client.get(url, headers={"Accept-Encoding": "br, gzip"}) as answer:
        sent = answer.get_data()
        encoding = answer.headers.get("Content-Encoding")
    body = brotli.decompress(sent) if encoding == "br" else gzip.decompress(sent) if encoding == "gzip" else sent
    return body, len(sent)


def weigh(client, url: str) -> tuple[int, int, list[str]]:
    """(raw bytes, bytes as sent, assets) of a page and everything it loads, imported modules included (once each)."""
    html, html_sent = fetch(client, url)
    text = html.decode()
    found = IMPORT_MAP_RE.search(text)
    imports = json.loads(found.group(1))["imports"] if found else {}
    assets, raw, sent = [], len(html), html_sent
    queue = ASSET_RE.findall(text) + re.findall(r'data-finder="([^"]+)"', text)  # + the finder file its script loads
    while queue:
        asset = queue.pop(0)
        if asset in assets:
            continue
        assets.append(asset)
        body, on_wire = fetch(client, asset)
        raw, sent = raw + len(body), sent + on_wire
        if asset.split("?")[0].endswith(".js"):  # its relative imports, resolved from its plain address, then mapped
            folder = posixpath.dirname(asset.split("?")[0])
            for name in IMPORT_RE.findall(body.decode()):
                plain = posixpath.normpath(posixpath.join(folder, name))
                queue.append(imports.get(plain, plain))
    return raw, sent, assets


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = bench_app(f"sqlite:///{tmp}/w.sqlite3")
        with app.app_context():
            db.create_all()
        assert app.test_cli_runner().invoke(args=["demo", "--password", "bench-pass"]).exit_code == 0
        client = app.test_client()
        login_raw, login_gz, _ = weigh(client, "/login")
        page = client.get("/login").get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        client.post("/login", data={"csrf_token": token, "email": "floor1@demo.test", "password": "bench-pass"})
        raw, gz, assets = weigh(client, "/events/1/incidents/new")
        # the quick reference's page alone: its finder entries are in the finder file above (one per policy version,
        # kept by the phone), not in the page
        ref_page, ref_sent = fetch(client, "/reference/bushiroad-afr?level=2")
        login_page_sent = fetch(client, "/login")[1]
        with app.app_context():
            db.engine.dispose()
    print(
        f"incident form + {len(assets)} assets ({', '.join(a.rsplit('/', 1)[-1].split('?')[0] for a in assets)}): "
        f"{raw / 1024:.1f} KB uncompressed, {gz / 1024:.1f} KB as sent ({gz / login_gz:.2f}× the login page's "
        f"{login_gz / 1024:.1f} KB); goal < 25 KB as sent: {'met' if gz < 25 * 1024 else 'NOT met'}"
    )
    emit(
        "page_weight",
        "incident form + CSS + JS, as sent (br)",
        gz / 1024,
        "KB",
        baseline="login page + CSS + JS, as sent",
        baseline_value=login_gz / 1024,
        goal="< 25 KB",
        met=gz < 25 * 1024,
    )
    print(f"quick reference (Bushiroad): {len(ref_page) / 1024:.1f} KB uncompressed, {ref_sent / 1024:.1f} KB sent")
    emit(
        "page_weight",
        "quick reference page (Bushiroad), as sent (br)",
        ref_sent / 1024,
        "KB",
        baseline="login page, as sent",
        baseline_value=login_page_sent / 1024,
    )
    emit(
        "page_weight",
        "incident form + CSS + JS, uncompressed",
        raw / 1024,
        "KB",
        baseline="login page + CSS",
        baseline_value=login_raw / 1024,
    )


if __name__ == "__main__":
    main()
