"""The post-event report of a generated event at 200, 500, 1,000 and 2,000 players (15 rounds; at 2,000 players:
1,500 incidents, 300 deck checks, 400 time extensions, 60 appeals, 6 disqualifications).

For each size, in the same app and SQLite file: the event's home page (the baseline: same session, access check and
page layout, little data), the report page, the incident CSV and the PDF with the DQ reports appended. Figures are
medians through Flask's WSGI test client. Goals: the page under 1 s and the PDF under 10 s on a 2-core machine.

Run: make bench (or .venv/bin/python bench/event_report.py [--sizes 200,2000] [--runs 5])
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgeapp import create_app  # noqa: E402
from judgeapp.auth.services import create_user  # noqa: E402
from judgeapp.extensions import CATALOG_KEY, db  # noqa: E402

from bench.generate import generate_event, scaled  # noqa: E402

PASSWORD = "bench-password-1"


def timed(fn, runs: int) -> tuple[float, object]:
    result = fn()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def measure(players: int, runs: int, workdir: Path) -> dict:
    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir / f'e{players}.db'}",
                      "JUDGEAPP_CATALOG": str(ROOT / "data" / "infractions.yaml"),
                      "RATELIMIT_STORAGE_URI": "memory://", "WTF_CSRF_ENABLED": False})
    size = scaled(players)
    with app.app_context():
        db.create_all()
        org = create_user(db.session, email="org@bench.test", name="Org", password=PASSWORD, organizer=True)
        head = create_user(db.session, email="head@bench.test", name="Head", password=PASSWORD)
        judges = [create_user(db.session, email=f"j{n}@bench.test", name=f"Judge {n}", password=PASSWORD)
                  for n in range(size.judges)]
        start = time.perf_counter()
        event = generate_event(db.session, app.extensions[CATALOG_KEY].policy("bushiroad-afr"), org, head, judges,
                               size)
        db.session.commit()
        generated, event_id = time.perf_counter() - start, event.id
    client = app.test_client()
    assert client.post("/login", data={"email": "org@bench.test", "password": PASSWORD}).status_code == 302

    def get(url):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return response.data

    base, _ = timed(lambda: get(f"/events/{event_id}"), runs)
    page, html = timed(lambda: get(f"/events/{event_id}/report"), runs)
    export, body = timed(lambda: get(f"/events/{event_id}/export/incidents.csv"), runs)
    pdf, document = timed(lambda: get(f"/events/{event_id}/report.pdf"), max(1, runs // 2))
    info = subprocess.run(["pdfinfo", "-"], input=document, capture_output=True).stdout.decode()
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1)) if "Pages:" in info else 0
    with app.app_context():
        db.engine.dispose()
    return {"players": players, "incidents": size.incidents, "generated": generated, "base": base, "page": page,
            "csv": export, "pdf": pdf, "html_kb": len(html) / 1024, "pdf_kb": len(document) / 1024,
            "csv_rows": body.count(b"\r\n") - 1, "pdf_pages": pages}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="200,500,1000,2000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"Post-event report, generated events; {os.cpu_count()} CPUs; medians of {args.runs} runs "
          f"(PDF: {max(1, args.runs // 2)})")
    with tempfile.TemporaryDirectory() as tmp:
        results = [measure(n, args.runs, Path(tmp)) for n in sizes]
    first = results[0]
    print(f"{'players':>8} {'incid.':>6} {'baseline':>9} {'page':>9} {'×base':>6} {'CSV':>8} {'PDF':>8} "
          f"{'pages':>5} {'page×':>6} {'PDF×':>5}")
    for r in results:
        print(f"{r['players']:>8} {r['incidents']:>6} {r['base'] * 1000:>7.1f}ms {r['page'] * 1000:>7.1f}ms "
              f"{r['page'] / r['base']:>5.1f}× {r['csv'] * 1000:>6.1f}ms {r['pdf']:>7.2f}s {r['pdf_pages']:>5} "
              f"{r['page'] / first['page']:>5.1f}× {r['pdf'] / first['pdf']:>4.1f}×")
    last = results[-1]
    print(f"growth columns (page×, PDF×) are against the {first['players']}-player event in the same run")
    print(f"goal at {last['players']} players: page < 1 s -> {last['page']:.3f} s "
          f"({'met' if last['page'] < 1 else 'NOT met'}); PDF < 10 s -> {last['pdf']:.2f} s "
          f"({'met' if last['pdf'] < 10 else 'NOT met'})")
    from bench.results import emit

    for r in (first, last):
        n, base = r["players"], r["base"] * 1000
        emit("event_report", f"report page, {n:,} players", r["page"] * 1000, "ms", baseline="event home page",
             baseline_value=base, goal="< 1 s" if r is last else "", met=r["page"] < 1 if r is last else None)
        emit("event_report", f"incident CSV, {n:,} players", r["csv"] * 1000, "ms", baseline="event home page",
             baseline_value=base)
        emit("event_report", f"report PDF, {n:,} players ({r['pdf_pages']} pages)", r["pdf"] * 1000, "ms",
             baseline="event home page", baseline_value=base, goal="< 10 s" if r is last else "",
             met=r["pdf"] < 10 if r is last else None)


if __name__ == "__main__":
    main()
