"""Forty judges posting incidents for ten minutes against gunicorn (4 workers), 10 % resent with the same key, a
worker killed with SIGKILL every 5 seconds. Prints lost, doubled and failed requests (goal: 0 each), throughput, and
latency percentiles against the baseline: one judge alone posting on the same server in the same run.

Run: make bench (SQLite, then PostgreSQL), or
     .venv/bin/python bench/load.py [--seconds 600]                     (SQLite in a temporary folder)
     scripts/with-postgres.sh .venv/bin/python bench/load.py            (PostgreSQL, from TEST_DATABASE_URL)
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results import emit  # noqa: E402
from judgeapp import create_app  # noqa: E402
from judgeapp.extensions import db  # noqa: E402
from tests.load.harness import (Gunicorn, Judge, Tally, WorkerKiller, check_database, run_judges,  # noqa: E402
                                set_up_event)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--judges", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp}/load.sqlite3"
        kind = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
        app = create_app({"SECRET_KEY": "load-test-secret", "SQLALCHEMY_DATABASE_URI": url,
                          "JUDGEAPP_CATALOG": str(ROOT / "data" / "infractions.yaml"),
                          "RATELIMIT_STORAGE_URI": "memory://"})
        with app.app_context():
            db.drop_all()
            db.create_all()
        staffing = set_up_event(app, args.judges)
        with Gunicorn(url, workers=4, log=Path(tmp) / "gunicorn.log") as server:
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
    acknowledged = {**alone.acknowledged, **tally.acknowledged}
    lost = len(set(acknowledged) - set(held["rows"]))
    doubled = len(tally.mismatches) + sum(1 for c in held["audit_counts"].values() if c != 1)
    errors = sum(n for status, n in tally.statuses.items() if status >= 500) + len(tally.unexpected)
    p50, p95, p99 = statistics.median(tally.latencies), tally.percentile(0.95), tally.percentile(0.99)
    rate = len(tally.acknowledged) / elapsed
    print(f"{kind}: {args.judges} judges for {elapsed:.0f} s, {killed} workers killed; {tally.summary()}")
    print(f"{kind}: lost {lost}, doubled {doubled}, server errors {errors}; integrity {held['integrity']}; "
          f"{rate:.1f} incidents/s; one judge alone: median {baseline * 1e3:.0f} ms")
    bench = f"load_{kind.lower()}"
    emit(bench, f"{kind}: lost + doubled + 5xx ({args.seconds:.0f} s, {killed} kills)", lost + doubled + errors,
         "records", goal="0", met=lost + doubled + errors == 0)
    emit(bench, f"{kind}: incidents acknowledged per second", rate, "/s")
    for name, value in (("median", p50), ("p95", p95), ("p99", p99)):
        emit(bench, f"{kind}: post latency {name}, {args.judges} judges", value * 1e3, "ms",
             baseline="one judge alone, median", baseline_value=baseline * 1e3)


if __name__ == "__main__":
    main()
