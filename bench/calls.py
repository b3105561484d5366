"""Judge calls: the weight of a player's call page, and how fast a call reaches 40 judges polling the queue.

1. Weight: a table's call page (HTML + call.css + call-status.js, as judgeapp sends them to a phone that accepts
   brotli: the page plain, the files compressed) in its states (the form; queued), and the call's POST with its
   redirect. Goal: under 10 KB as sent. Baseline: the login page with its CSS and scripts, same run.
2. Latency under load: gunicorn with 4 workers; 40 signed-in floor judges each poll the queue's live part
   (/events/<id>/calls?partial=1, every 2 s as static/js/feed.js does there) and the header badge
   (/calls/waiting?format=json, every 3 s as badge.js does), their first poll at a random moment; meanwhile players
   call from table links, one call every `--every` seconds. A call's latency: from the player's POST answered to the
   first judge poll whose answer shows its table. Figures: median, 90th percentile and maximum latency, the share of
   judges who saw each call within 5 s, and the queue poll's answer time p50/p95 under that load against one judge
   polling alone (the baseline, same run).

Run: .venv/bin/python bench/calls.py [--seconds 60] [--judges 40]       (SQLite in a temporary folder)
     scripts/with-postgres.sh .venv/bin/python bench/calls.py          (PostgreSQL, from TEST_DATABASE_URL)
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import brotli
import requests

from bench.results import emit
from judgeapp.extensions import db
from tests.load.harness import CSRF_RE, PASSWORD, Gunicorn, Staffing, fresh_app, in_threads, set_up_event

ASSET_RE = re.compile(r'<(?:link rel="stylesheet" href|script type="module" src)="([^"]+)"')  # its CSS and its script
QUEUE_POLL_S, BADGE_POLL_S = 2.0, 3.0


def sent_size(answer: requests.Response) -> int:
    """Bytes on the wire: requests decodes the body, so compress it again as the server did."""
    body = answer.content
    encoding = answer.headers.get("Content-Encoding")
    if encoding == "br":
        return len(brotli.compress(body))
    if encoding == "gzip":
        return len(gzip.compress(body))
    return len(body)


def page_and_css(http: requests.Session, url: str) -> tuple[int, int]:
    """(bytes as sent, uncompressed) of a page with its stylesheet and script."""
    headers = {"Accept-Encoding": "br, gzip"}
    page = http.get(url, headers=headers, timeout=30)
    sent, raw = sent_size(page), len(page.content)
    for href in ASSET_RE.findall(page.text):
        css = http.get(url.split("/", 3)[0] + "//" + url.split("/", 3)[2] + href, headers=headers, timeout=30)
        sent, raw = sent + sent_size(css), raw + len(css.content)
    return sent, raw


def table_links(app, event_id: int, tables: range) -> dict[int, str]:
    from judgeapp.calls import services
    from judgeapp.models import Event

    with app.app_context():
        event = db.session.get(Event, event_id)
        key = services.call_key_of(db.session, event, event.organizer)
        db.session.commit()
        return {t: f"/call/{event_id}/{t}/{services.signature(key, event_id, t)}" for t in tables}


class Poller:
    """One judge's phone on the queue page: polls the live part and the badge, notes when each table first shows."""

    def __init__(self, base: str, event_id: int, email: str, seen: dict, lock: threading.Lock, times: list):
        self.base, self.event_id, self.email = base, event_id, email
        self.seen, self.lock, self.times = seen, lock, times
        self.http = requests.Session()

    def log_in(self) -> None:
        page = self.http.get(self.base + "/login", timeout=30).text
        answer = self.http.post(
            self.base + "/login",
            data={"csrf_token": CSRF_RE.search(page).group(1), "email": self.email, "password": PASSWORD},
            allow_redirects=False,
            timeout=30,
        )
        assert answer.status_code == 302, answer.status_code

    def run(self, until: float, rng: random.Random) -> None:
        next_queue = time.monotonic() + rng.uniform(0, QUEUE_POLL_S)
        next_badge = time.monotonic() + rng.uniform(0, BADGE_POLL_S)
        while time.monotonic() < until:
            now = time.monotonic()
            if now >= next_queue:
                started = time.monotonic()
                answer = self.http.get(f"{self.base}/events/{self.event_id}/calls?partial=1", timeout=30)
                answered = time.monotonic()
                with self.lock:
                    self.times.append(answered - started)
                    for table in re.findall(r'data-table="(\d+)"', answer.text):
                        self.seen.setdefault((int(table), self.email), answered)
                next_queue += QUEUE_POLL_S
            if now >= next_badge:
                self.http.get(f"{self.base}/calls/waiting?format=json", timeout=30)
                next_badge += BADGE_POLL_S
            time.sleep(max(0.0, min(next_queue, next_badge) - time.monotonic()))


def raise_calls(base: str, links: dict[int, str], until: float, every: float, raised: dict) -> None:
    """Players call from their tables, one table after another, each call answered before the next."""
    player = requests.Session()
    for table, link in links.items():
        if time.monotonic() >= until:
            break
        page = player.get(base + link, timeout=30).text
        answer = player.post(
            base + link, data={"csrf_token": CSRF_RE.search(page).group(1), "reason": "rules_question"}, timeout=30
        )
        raised[table] = time.monotonic()  # the player's page has answered: the call is stored
        assert answer.status_code == 200 and "in the queue" in answer.text, answer.status_code
        time.sleep(every)


def weights(base: str, link: str) -> dict[str, tuple[int, int]]:
    player = requests.Session()
    out = {"the form": page_and_css(player, base + link)}
    page = player.get(base + link, timeout=30).text
    post = player.post(
        base + link,
        data={"csrf_token": CSRF_RE.search(page).group(1), "reason": "dispute"},
        allow_redirects=False,
        headers={"Accept-Encoding": "br, gzip"},
        timeout=30,
    )
    after = player.get(base + link, headers={"Accept-Encoding": "br, gzip"}, timeout=30)
    out["the call: POST, its redirect and the page after"] = (
        sent_size(post) + sent_size(after),
        len(post.content) + len(after.content),
    )
    out["queued"] = page_and_css(player, base + link)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--judges", type=int, default=40)
    parser.add_argument("--every", type=float, default=1.0, help="seconds between two players' calls")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp}/calls.sqlite3"
        kind = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
        app = fresh_app(url)
        staffing: Staffing = set_up_event(app, args.judges, players=400)
        os.environ["JUDGEAPP_CALL_LIMIT_PER_ADDRESS"] = "10000 per minute"  # every bench player shares 127.0.0.1
        links = table_links(app, staffing.event_id, range(1, 201))
        with Gunicorn(url, workers=4, log=Path(tmp) / "gunicorn.log") as server:
            base = server.url
            login_sent, _ = page_and_css(requests.Session(), base + "/login")
            weight = weights(base, links[200])

            lock, alone_times, alone_seen = threading.Lock(), [], {}
            alone = Poller(base, staffing.event_id, staffing.emails[0], alone_seen, lock, alone_times)
            alone.log_in()
            alone.run(time.monotonic() + 10, random.Random(0))

            seen, times, raised = {}, [], {}
            pollers = [Poller(base, staffing.event_id, e, seen, lock, times) for e in staffing.emails]
            in_threads(lambda p: p.log_in(), [(p,) for p in pollers])
            until = time.monotonic() + args.seconds
            callers = threading.Thread(
                target=raise_calls, args=(base, dict(list(links.items())[:199]), until - 6, args.every, raised)
            )
            callers.start()
            in_threads(lambda n: pollers[n].run(until, random.Random(n + 1)), [(n,) for n in range(len(pollers))])
            callers.join()
        with app.app_context():
            db.engine.dispose()

    for state, (sent, raw) in weight.items():
        print(f"call page, {state}: {sent / 1024:.1f} KB as sent, {raw / 1024:.1f} KB uncompressed")
        emit(
            "calls",
            f"player's call page, {state}, as sent",
            sent / 1024,
            "KB",
            baseline="login page + CSS, as sent",
            baseline_value=login_sent / 1024,
            goal="< 10 KB",
            met=sent < 10 * 1024,
        )
    first_seen = []  # per call: when the first judge saw it, and how many judges saw it within 5 s
    within, every_judge = [], []  # every judge's delay for every call
    for table, at in raised.items():
        judges_saw = [max(0.0, seen[(table, e)] - at) for e in staffing.emails if (table, e) in seen]
        if judges_saw:
            first_seen.append(min(judges_saw))
        every_judge += judges_saw
        within.append(sum(1 for d in judges_saw if d <= 5.0) / len(staffing.emails))
    every_judge.sort()
    each_p50 = statistics.median(every_judge) if every_judge else float("nan")
    each_p90 = every_judge[max(0, int(0.9 * len(every_judge)) - 1)] if every_judge else float("nan")
    first_seen.sort()
    median = statistics.median(first_seen) if first_seen else float("nan")
    p90 = first_seen[max(0, int(0.9 * len(first_seen)) - 1)] if first_seen else float("nan")
    worst = first_seen[-1] if first_seen else float("nan")
    share = statistics.mean(within) if within else 0.0
    alone_p50 = statistics.median(alone_times)
    busy = sorted(times)
    busy_p50, busy_p95 = statistics.median(busy), busy[int(0.95 * len(busy)) - 1]
    print(
        f"{kind}, {args.judges} judges polling, {len(raised)} calls: first judge saw a call after "
        f"median {median:.2f} s, p90 {p90:.2f} s, max {worst:.2f} s; each judge after median {each_p50:.2f} s, "
        f"p90 {each_p90:.2f} s; {share:.1%} of judges saw each call within 5 s; "
        f"queue poll answered in p50 {busy_p50 * 1000:.0f} ms, p95 {busy_p95 * 1000:.0f} ms "
        f"(one judge alone: p50 {alone_p50 * 1000:.0f} ms)"
    )
    emit(
        "calls",
        f"{kind}: a call to the first of {args.judges} polling judges, median",
        median,
        "s",
        goal="< 5 s",
        met=median < 5,
    )
    emit("calls", f"{kind}: a call to the first judge, p90", p90, "s", goal="< 5 s", met=p90 < 5)
    emit("calls", f"{kind}: a call to the first judge, max", worst, "s")
    emit(
        "calls",
        f"{kind}: a call to each judge's phone, median (poll every {QUEUE_POLL_S:.0f} s)",
        each_p50,
        "s",
        goal="< 5 s",
        met=each_p50 < 5,
    )
    emit("calls", f"{kind}: a call to each judge's phone, p90", each_p90, "s", goal="< 5 s", met=each_p90 < 5)
    emit(
        "calls",
        f"{kind}: share of the {args.judges} judges who saw each call within 5 s",
        share * 100,
        "%",
        goal="> 95 %",
        met=share > 0.95,
    )
    emit(
        "calls",
        f"{kind}: queue poll answer under {args.judges} judges, p50",
        busy_p50 * 1000,
        "ms",
        baseline="one judge polling alone, p50",
        baseline_value=alone_p50 * 1000,
    )
    emit("calls", f"{kind}: queue poll answer under {args.judges} judges, p95", busy_p95 * 1000, "ms")


if __name__ == "__main__":
    main()
