"""Forty judges against gunicorn (4 workers), in three parts, each against a baseline measured in the same run:

1. Throughput: 40 clients posting to a bare one-row-insert route (bench/served.py) for a while, then 40 judges
   logging incidents for as long (each opens the form once and sends incidents with fresh one-time keys, as the
   phone's outbox does). Goal: incidents acknowledged per second at least 0.5x the bare route's answers per second;
   latency p50/p95/p99 of both.
2. Integrity: 40 judges for `--seconds` (default ten minutes), each opening the form for every incident, 10 % resent
   with the same key, a worker killed with SIGKILL every 5 seconds. Goal: 0 lost, 0 doubled, 0 server errors.
3. One judge alone on the same server: the latency the 40-judge figures are compared with.

Run: make bench (SQLite, then PostgreSQL), or
     .venv/bin/python bench/load.py [--seconds 600] [--throughput-seconds 30]   (SQLite in a temporary folder)
     scripts/with-postgres.sh .venv/bin/python bench/load.py                     (PostgreSQL, from TEST_DATABASE_URL)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results import emit
from judgeapp.extensions import db
from tests.load.harness import (
    Gunicorn,
    Judge,
    Tally,
    WorkerKiller,
    check_database,
    fresh_app,
    in_threads,
    run_bare_clients,
    run_judges,
    set_up_event,
)


def queue_throughput(base: str, staffing, tally: Tally, seconds: float) -> float:
    """Incidents acknowledged per second while every judge sends incidents back to back, each with a fresh one-time
    key made on the phone (as the outbox sends its queue). Judges sign in and open the form before the clock starts,
    so password hashing and page rendering are not counted."""
    judges = [
        Judge(base, staffing.event_id, email, staffing.players, tally, random.Random(n))
        for n, email in enumerate(staffing.emails)
    ]
    tokens: dict[int, str] = {}

    def ready(n: int) -> None:
        judges[n].log_in()
        tokens[n] = judges[n].open_form()[0]

    in_threads(ready, [(n,) for n in range(len(judges))])
    start = time.monotonic()
    until = start + seconds

    def send(n: int) -> None:
        k = 0
        while time.monotonic() < until:
            judges[n].post(tokens[n], uuid.uuid4().hex, k)
            k += 1

    in_threads(send, [(n,) for n in range(len(judges))])
    return len(tally.acknowledged) / (time.monotonic() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--judges", type=int, default=40)
    parser.add_argument("--throughput-seconds", type=float, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp}/load.sqlite3"
        kind = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
        app = fresh_app(url)
        staffing = set_up_event(app, args.judges)
        with Gunicorn(url, workers=4, log=Path(tmp) / "gunicorn.log", app="bench.served:app") as server:
            run_bare_clients(server.url, args.judges, 2)  # warm-up: every worker has loaded the app
            bare = run_bare_clients(server.url, args.judges, args.throughput_seconds)
            bare_rate = len(bare) / args.throughput_seconds
            flow = Tally()
            flow_rate = queue_throughput(server.url, staffing, flow, args.throughput_seconds)
            alone = Tally()
            judge = Judge(server.url, staffing.event_id, staffing.emails[0], staffing.players, alone, random.Random(1))
            judge.run(incidents=40, resend=0)
            baseline = statistics.median(alone.latencies)
            tally = Tally()
            start = time.monotonic()
            with WorkerKiller(server, every=5.0):
                run_judges(server.url, staffing, tally, seconds=args.seconds, resend=0.1)
            elapsed = time.monotonic() - start
            killed = server.killed
        held = check_database(app, staffing.event_id)
        with app.app_context():
            db.engine.dispose()
    acknowledged = {**flow.acknowledged, **alone.acknowledged, **tally.acknowledged}
    lost = len(set(acknowledged) - set(held["rows"]))
    doubled = len(tally.mismatches) + len(flow.mismatches) + sum(1 for c in held["audit_counts"].values() if c != 1)
    errors = (
        sum(n for t in (tally, flow) for status, n in t.statuses.items() if status >= 500)
        + len(tally.unexpected)
        + len(flow.unexpected)
    )
    p50, p95, p99 = statistics.median(tally.latencies), tally.percentile(0.95), tally.percentile(0.99)
    rate = len(tally.acknowledged) / elapsed
    print(f"{kind}: {args.judges} judges for {elapsed:.0f} s, {killed} workers killed; {tally.summary()}")
    print(
        f"{kind}: lost {lost}, doubled {doubled}, server errors {errors}; integrity {held['integrity']}; "
        f"{rate:.1f} incidents/s; one judge alone: median {baseline * 1e3:.0f} ms"
    )
    print(
        f"{kind}: throughput, {args.judges} clients for {args.throughput_seconds:.0f} s each: bare insert "
        f"{bare_rate:.1f}/s (median {statistics.median(bare) * 1e3:.0f} ms), incidents {flow_rate:.1f}/s; "
        f"{flow.summary()}"
    )
    bench = f"load_{kind.lower()}"
    emit(
        bench,
        f"{kind}: incidents acknowledged per second, {args.judges} judges",
        flow_rate,
        "/s",
        baseline=f"bare insert route, {args.judges} clients",
        baseline_value=bare_rate,
        goal="≥ 0.5× baseline",
        met=flow_rate >= 0.5 * bare_rate,
    )
    if flow_rate < 0.5 * bare_rate:
        print(
            f"{kind}: goal not met ({flow_rate / bare_rate:.2f}× the bare route). Both runs are CPU-bound on this "
            f"machine's {os.cpu_count()} cores (4 workers, 40 clients in one process), so the ratio is that of CPU "
            "per request: bench/incidents.py prints the save path's statements and the top of its profile."
        )
    for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99)):
        emit(
            bench,
            f"{kind}: incident post latency {name}, {args.judges} judges",
            flow.percentile(q) * 1e3,
            "ms",
            baseline=f"bare insert {name}",
            baseline_value=sorted(bare)[min(len(bare) - 1, int(q * len(bare)))] * 1e3,
        )
    emit(
        bench,
        f"{kind}: lost + doubled + 5xx ({args.seconds:.0f} s, {killed} kills)",
        lost + doubled + errors,
        "records",
        goal="0",
        met=lost + doubled + errors == 0,
    )
    emit(
        bench,
        f"{kind}: incidents per second while workers are killed ({args.judges} judges, form per incident)",
        rate,
        "/s",
    )
    for name, value in (("median", p50), ("p95", p95), ("p99", p99)):
        emit(
            bench,
            f"{kind}: post latency {name}, {args.judges} judges",
            value * 1e3,
            "ms",
            baseline="one judge alone, median",
            baseline_value=baseline * 1e3,
        )


if __name__ == "__main__":
    main()
