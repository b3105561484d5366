"""A crowded network: what a judge's phone downloads, and how the incident form behaves on Chromium's "Slow 3G".

In Debian's Chromium (Playwright, 390x844) against the demo event on a live server whose request handler counts every
byte it writes (tests/browser/traffic.py: status line, headers and body as sent, the service worker's own fetches
included):

- a cold visit: a fresh profile opens the login page, signs in, opens the event page and the incident form, until the
  phone is ready for offline use: bytes as sent (goal < 50 KB), requests, and any address asked for twice;
  baseline: the login page alone with its CSS and scripts, in the same run;
- each later page (the clock, a player's page, the incident form again): bytes as sent (goal < 10 KB each);
- on DevTools' Slow 3G preset (tests/browser/traffic.py: SLOW_3G, emulated for the page and its service worker) with
  the form already on the phone: from tapping "New incident"'s address until the Table field takes typing, and from
  tapping Save until the form confirms the record is kept on the phone (goal < 1 s each); then until the form is
  given back for the next record and until the server has the incident. Baseline: the same with no throttling.

Run: .venv/bin/python bench/network.py (or make bench)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select

from bench.results import emit
from judgeapp.extensions import db
from judgeapp.models import Incident
from tests.browser.conftest import CHROMIUM, PHONE
from tests.browser.traffic import (
    LATER_PAGES,
    NO_THROTTLING,
    SLOW_3G,
    CountedServer,
    Throttled,
    cold_visit,
    fill_incident,
    later_page,
)
from tests.conftest import app_config

PASSWORD = "bench-network-pw"
KB = 1024


def incidents(server) -> int:
    with server.app.app_context():
        return db.session.scalar(select(func.count(Incident.id)))


def timed_form(browser, server, conditions: dict, table: int) -> dict[str, float]:
    """A fresh phone made ready online, then `conditions`: the incident form opened from another page, and a save."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    cold_visit(page, server.url, server.traffic, PASSWORD)
    page.goto(f"{server.url}/events/1/clock")
    page.wait_for_timeout(500)
    throttled = Throttled(browser, context, page, conditions)
    before = incidents(server)

    started = time.perf_counter()
    page.goto(f"{server.url}/events/1/incidents/new", wait_until="commit")
    field = page.get_by_label("Table")
    field.wait_for(state="visible", timeout=60000)
    while not field.is_editable():
        page.wait_for_timeout(5)
    usable = time.perf_counter() - started

    fill_incident(page, table)
    started = time.perf_counter()
    page.get_by_role("button", name="Save incident").click()
    said = page.locator("#outbox-said").get_by_text("Stored on this phone")
    said.or_(page.locator("#another-incident")).first.wait_for(timeout=60000)
    kept = time.perf_counter() - started
    # the form given back (slow) or the server's confirmation page (an answering network)
    said = page.locator("#outbox-said").get_by_text("Saved on this phone")
    said.or_(page.locator("#another-incident")).first.wait_for(timeout=60000)
    given_back = time.perf_counter() - started
    while incidents(server) == before:
        assert time.perf_counter() - started < 60, "the incident never reached the server"
        time.sleep(0.02)
    stored = time.perf_counter() - started
    print(f"  conditions {conditions}: worker sessions throttled: {throttled.workers}; page now {page.url}")
    context.close()
    return {"usable": usable, "kept": kept, "given_back": given_back, "stored": stored}


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        config = app_config(Path(tmp))
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp}/network.sqlite3"
        server = CountedServer(config, PASSWORD)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-quic"]
                )
                context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
                page = context.new_page()
                mark = server.traffic.mark()
                page.goto(f"{server.url}/login")
                page.wait_for_timeout(300)
                login = sum(a.bytes for a in server.traffic.since(mark))
                context.close()

                context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
                page = context.new_page()
                cold = cold_visit(page, server.url, server.traffic, PASSWORD)
                later = {path: later_page(page, server.url, server.traffic, path) for path in LATER_PAGES}
                context.close()
                print(f"cold visit: {cold.bytes:,} B in {cold.requests} requests ({cold.header_bytes:,} B of headers)")
                statics = [a for a in cold.answers if a.path.startswith("/static/")]
                print(
                    f"  static files: {len(statics)}, {sum(a.header_bytes for a in statics):,} B of headers "
                    f"({sum(a.header_bytes for a in statics) / max(1, len(statics)):,.0f} B each)"
                )
                print(cold.table())
                print(f"  asked for more than once: {cold.twice() or 'none'}")
                for path, visit in later.items():
                    print(f"later page {path}: {visit.bytes:,} B in {visit.requests} requests")
                    print(visit.table())

                fast = timed_form(browser, server, NO_THROTTLING, table=1)
                slow = timed_form(browser, server, SLOW_3G, table=2)
                browser.close()
        finally:
            server.close()

    emit(
        "network",
        f"cold visit (login, event page, incident form, offline copies), as sent, {cold.requests} requests",
        cold.bytes / KB,
        "KB",
        baseline="login page + CSS + JS, as sent",
        baseline_value=login / KB,
        goal="< 50 KB",
        met=cold.bytes < 50 * KB,
    )
    emit("network", "cold visit: addresses asked for twice", len(cold.twice()), "", goal="0", met=not cold.twice())
    statics = [a for a in cold.answers if a.path.startswith("/static/")]
    pages = [a for a in cold.answers if a.content_type == "text/html" and a.method == "GET"]
    emit(
        "network",
        f"cold visit: headers per static file ({len(statics)} files)",
        sum(a.header_bytes for a in statics) / max(1, len(statics)),
        "B",
        baseline="per page",
        baseline_value=sum(a.header_bytes for a in pages) / max(1, len(pages)),
    )
    form = [a for a in cold.answers if a.path == "/events/1/incidents/new"]
    emit("network", "cold visit: the incident form page, as sent", sum(a.bytes for a in form) / KB, "KB")
    for path, visit in later.items():
        emit(
            "network",
            f"later page {path}, as sent",
            visit.bytes / KB,
            "KB",
            baseline="login page + CSS + JS, as sent",
            baseline_value=login / KB,
            goal="< 10 KB",
            met=visit.bytes < 10 * KB,
        )
    for key, figure, goal in [
        ("usable", "Slow 3G: kept incident form usable (Table takes typing)", 1.0),
        ("kept", "Slow 3G: Save → 'Stored on this phone'", 1.0),
        ("given_back", "Slow 3G: Save → form given back for the next record", None),
        ("stored", "Slow 3G: Save → incident stored on the server", None),
    ]:
        emit(
            "network",
            figure,
            slow[key] * 1000,
            "ms",
            baseline="no throttling",
            baseline_value=fast[key] * 1000,
            goal=f"< {goal:g} s" if goal else "",
            met=slow[key] < goal if goal else None,
        )
        print(f"{figure}: {slow[key] * 1000:,.0f} ms (no throttling: {fast[key] * 1000:,.0f} ms)")


if __name__ == "__main__":
    main()
