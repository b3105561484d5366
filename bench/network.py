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

The cold visit and the incident form with its files are also written request by request to bench/NETWORK.md, as
sent and without compression, next to the figures of the run before (the file as it was), with a sum by kind (pages,
scripts, data, polls, headers): where a goal is not met, that table shows the floor.

Run: .venv/bin/python bench/network.py (or make bench)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select

from bench.results import emit
from judgeapp.extensions import db
from judgeapp.models import Incident
from judgeapp.offline.bundles import BUNDLE_DIR, entry_bundles
from tests.browser.conftest import CHROMIUM, PHONE
from tests.browser.traffic import (
    LATER_PAGES,
    NO_THROTTLING,
    POLLS,
    SLOW_3G,
    WORKER,
    CountedServer,
    Throttled,
    cold_visit,
    fill_incident,
    later_page,
)
from tests.conftest import app_config

PASSWORD = "bench-network-pw"
KB = 1024
NETWORK_MD = ROOT / "bench" / "NETWORK.md"
FORM = "/events/1/incidents/new"
# what the incident form's page loads: the stylesheet, the bundles that run the scripts of every page and the form's
# own (judgeapp/offline/bundles.py), the small icon
FORM_FILES = {
    "app.css",
    "icons/icon-192.png",
    *(f"{BUNDLE_DIR}/{entry_bundles()[e]}.js" for e in ("js/theme.js", "js/page.js", "js/badge.js", "js/incident.js")),
}


def key(answer) -> str:
    """A request as the tables name it: method and path, without the content version of a static file."""
    path = re.sub(r"([?&])v=[0-9a-f]+", r"\1v=…", answer.path)
    return f"{answer.method} {path}"


def kind(answer) -> str:
    path = answer.path.split("?")[0]
    if path in POLLS or path == WORKER or path == "/manifest.webmanifest":
        return "polls, the worker, the manifest"
    if path.startswith("/static/js/") or path.endswith(".css"):
        return "scripts and style"
    if path.startswith("/static/icons/"):
        return "icons"
    if answer.content_type == "text/html" or answer.method == "POST":
        return "pages (and signing in)"
    return "data (the copy, the finder, catalogs)"


def form_answers(cold) -> list:
    """The incident form's page and the files it loads, as the cold visit got them (each once)."""
    seen, out = set(), []
    for a in cold.answers:
        path = a.path.split("?")[0]
        if a.method == "GET" and (path == FORM or path.removeprefix("/static/") in FORM_FILES) and path not in seen:
            seen.add(path)
            out.append(a)
    return out


def previous_figures() -> dict:
    """The figures NETWORK.md holds from the run before (its JSON block), or none."""
    try:
        found = re.search(r"```json\n(.*?)\n```", NETWORK_MD.read_text(encoding="utf-8"), re.DOTALL)
        return json.loads(found.group(1)) if found else {}
    except (OSError, ValueError):
        return {}


def table(title: str, answers: list, previous: dict[str, int]) -> list[str]:
    sent, plain = sum(a.bytes for a in answers), sum(a.uncompressed_bytes for a in answers)
    before = sum(previous.values())
    lines = [
        f"## {title}: {sent:,} B as sent in {len(answers)} requests ({plain:,} B without compression; "
        f"previous run: {before:,} B in {len(previous)})",
        "",
        "| request | status | as sent | of it headers | without compression | previous as sent |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    counts: dict[str, int] = {}
    for a in answers:
        k = key(a)
        counts[k] = counts.get(k, 0) + 1
        name = k if counts[k] == 1 else f"{k} ({counts[k]})"
        was = previous.get(name)
        lines.append(
            f"| {name} | {a.status} | {a.bytes:,} | {a.header_bytes:,} | {a.uncompressed_bytes:,} | "
            f"{'' if was is None else f'{was:,}'} |"
        )
    gone = [k for k in previous if k not in {r.split(" | ")[0].lstrip("| ") for r in lines[4:]}]
    for k in gone:
        lines.append(f"| {k} (not asked for now) | | | | | {previous[k]:,} |")
    lines += ["", "By kind (the floor where a goal is not met):", "", "| kind | requests | as sent | of it headers |"]
    lines.append("|---|---:|---:|---:|")
    kinds: dict[str, list] = {}
    for a in answers:
        kinds.setdefault(kind(a), []).append(a)
    for name, group in sorted(kinds.items(), key=lambda kv: -sum(a.bytes for a in kv[1])):
        lines.append(
            f"| {name} | {len(group)} | {sum(a.bytes for a in group):,} | {sum(a.header_bytes for a in group):,} |"
        )
    return [*lines, ""]


def figures_of(answers: list) -> dict[str, int]:
    out: dict[str, int] = {}
    for a in answers:
        k = key(a)
        n = 1
        while (name := k if n == 1 else f"{k} ({n})") in out:
            n += 1
        out[name] = a.bytes
    return out


def policy_file_parts(app, policy_id: str = "bushiroad-afr") -> dict[str, int]:
    """The policy's file (judgeapp/infractions/export.py `policy_file`) as sent (brotli 11), whole and by part, and what
    each way of cutting it would save, measured on the file itself (issue 36: what can go?)."""
    import copy

    import brotli

    from judgeapp.choices import finder_file_of
    from judgeapp.extensions import current_catalog

    with app.app_context():
        data, _ = finder_file_of(current_catalog().policy(policy_id))
    whole = json.loads(data)

    def sent(value) -> int:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return len(brotli.compress(text, quality=11))

    def without(change) -> int:
        cut = copy.deepcopy(whole)
        change(cut)
        return sent(whole) - sent(cut)

    def empty_values(cut):  # a reference's and an infraction's empty or false values, left for the reader's default
        for row in [*cut["reference"]["infractions"], *cut["policy"]["infractions"]]:
            for k in [k for k, v in row.items() if v in ({}, [], False, None)]:
                del row[k]

    def subsection_names(cut):  # the subsection's names among every infraction's phrases
        names = {n for s in cut["reference"]["subsections"].values() for n in [s["name"], *s["names"].values()]}
        for words in cut["finder"]:
            words[1] = [w for w in words[1] if w not in names]

    def readings(cut):  # the kana reading of each Japanese name (kana search needs it: no dictionary on the phone)
        for words in cut["finder"]:
            words[0] = words[0][:2]

    def one_level(cut):  # the penalties of one event level only
        for inf in cut["policy"]["infractions"]:
            inf["defaults"] = {k: v for k, v in (inf.get("defaults") or {}).items() if k == "2"}
        cut["reference"]["levels"] = cut["reference"]["levels"][1:2]

    def english_reference(cut):  # the quick reference's notes and remedies in one language
        for row in cut["reference"]["infractions"]:
            for k in ("notes", "remedy", "section_note"):
                row[k] = {lang: text for lang, text in row[k].items() if lang == "en"}

    return {
        "whole": sent(whole),
        "raw": len(data),
        "finder": sent(whole["finder"]),
        "reference": sent(whole["reference"]),
        "policy": sent(whole["policy"]),
        "empty values": without(empty_values),
        "subsection names": without(subsection_names),
        "readings": without(readings),
        "one level": without(one_level),
        "one language's reference": without(english_reference),
    }


def floor_note(cold: list, form: list, parts: dict[str, int]) -> list[str]:
    """What remains where a goal is not met, and why it is the floor of what the phone keeps today (issue 36)."""
    by_kind: dict[str, int] = {}
    for a in cold:
        by_kind[kind(a)] = by_kind.get(kind(a), 0) + a.bytes
    policy = sum(a.bytes for a in cold if a.path.startswith("/offline/finder/"))
    scripts = [a for a in cold if kind(a) == "scripts and style"]
    form_scripts = sum(a.bytes for a in form if kind(a) == "scripts and style")
    form_page = sum(a.bytes for a in form if kind(a) != "scripts and style")
    one_language = parts["one language's reference"]
    return [
        "## What remains: the floor per kind",
        "",
        f"- **Data, {by_kind.get('data (the copy, the finder, catalogs)', 0):,} B**: the policy's one file per version "
        f"({policy:,} B as sent, {parts['raw']:,} B raw, for Bushiroad: the finder's words of every infraction in "
        f"English and Japanese {parts['finder']:,} B, which every language's judge searches; the quick reference's "
        f"notes and remedies in both languages {parts['reference']:,} B; the engine's input {parts['policy']:,} B, "
        "each part compressed alone) and the copy of the events. Kept a year: downloaded once per policy version, not "
        "per event or visit. What could go, measured on the file as sent: empty and false values "
        f"{parts['empty values']:,} B; the subsection's names repeated among each infraction's phrases "
        f"{parts['subsection names']:,} B; the kana readings {parts['readings']:,} B (kana search needs them); "
        f"the levels the event does not use {parts['one level']:,} B (but the file is one per policy version, shared "
        f"by events of every level); the reference in the judge's language only {one_language:,} B "
        "(a file per language: a judge whose account changes language offline has no reference). All of it together "
        "is about a tenth of what the cold visit's goal needs cut: below this floor only by searching fewer words "
        "offline, or keeping less of the reference.",
        f"- **Scripts and style, {by_kind.get('scripts and style', 0):,} B in {len(scripts)} requests** "
        f"({sum(a.header_bytes for a in scripts):,} B of headers): the stylesheet and two bundles "
        "(judgeapp/offline/bundles.py: what every page runs, and the incident form's and the quick reference's "
        "finder and engine), minified by Debian's esbuild (short local names), brotli 11, kept a year; the shell "
        "the phone needs offline (the incident, time-extension and deck-check forms, the calls page, the reference "
        "rendered from the policy's file). Below it only with fewer features offline.",
        f"- **Pages, {by_kind.get('pages (and signing in)', 0):,} B**: the pages kept for offline (the event, its "
        "three forms, the home page, the judge's guide) and signing in, each compressed with its CSRF token masked; "
        "the quick reference is not one of them.",
        f"- So the cold visit's floor with today's offline copy is about {sum(by_kind.values()):,} B, not < 50 KB: "
        "the data and the scripts alone pass it. The incident form with its files: the page and its icon "
        f"({form_page:,} B) and {form_scripts:,} B of scripts and style (shared with every page, cached a year), "
        "not < 25 KB.",
        "",
    ]


def write_network_md(cold, form: list, signed_in_before_the_worker: bool, parts: dict[str, int]) -> None:
    previous = previous_figures()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    lines = [
        "# The phone's first visit, request by request",
        "",
        "Written by bench/network.py (make bench): bytes at the server's socket (tests/browser/traffic.py), as sent",
        "(brotli where the app compresses) and without compression (the same answers' bodies decompressed), next to",
        "the run before. Goals (issue 36): the cold visit < 50 KB, the incident form with its files < 25 KB.",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit.stdout.strip() or '?'}; the judge signed in "
        + ("before" if signed_in_before_the_worker else "after")
        + " the service worker controlled the login page.",
        "",
        *table("Cold visit", cold.answers, previous.get("cold", {})),
        *table("Incident form with its files", form, previous.get("form", {})),
        *floor_note(cold.answers, form, parts),
        "Figures of this run, read by the next one:",
        "",
        "```json",
        json.dumps({"cold": figures_of(cold.answers), "form": figures_of(form)}, indent=0, ensure_ascii=False),
        "```",
        "",
    ]
    NETWORK_MD.write_text("\n".join(lines), encoding="utf-8")


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
                # the worker this page installs fetches its shell meanwhile: done before the cold visit counts, so that
                # none of it is taken for the cold visit's (the finder's bundle, 19 KB, was counted twice)
                page.evaluate("navigator.serviceWorker.ready.then(() => true)")
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
            parts = policy_file_parts(server.app)
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
    emit(
        "network",
        "cold visit, without compression",
        sum(a.uncompressed_bytes for a in cold.answers) / KB,
        "KB",
        baseline="as sent",
        baseline_value=cold.bytes / KB,
    )
    with_files = form_answers(cold)
    emit(
        "network",
        f"incident form with its files, as sent, {len(with_files)} requests",
        sum(a.bytes for a in with_files) / KB,
        "KB",
        baseline="without compression",
        baseline_value=sum(a.uncompressed_bytes for a in with_files) / KB,
        goal="< 25 KB",
        met=sum(a.bytes for a in with_files) < 25 * KB,
    )
    write_network_md(cold, with_files, cold.signed_in_before_the_worker, parts)
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
