"""Saving an incident through the whole request path, against a bare route that only inserts one row.

The database is filled with incidents over 50 events. Both routes run in the same app and the same SQLite file
(WAL, synchronous=FULL), through Flask's WSGI test client, interleaved so that drift hits both alike.
The full path: session look-up, CSRF, form validation, player and history look-up, the engine, the insert of the
incident and its subject, the audit entry and the commit. Figures are medians; the goal is a ratio of at most 2×,
and no growth of the full path between a small and a large database.

Run: make bench (or .venv/bin/python bench/incidents.py [--events 50] [--per-event 2000] [--samples 300])
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert, select

from bench.fixtures import add_bare_route, bench_app, incident_row, new_event
from judgeapp.auth.services import create_user
from judgeapp.extensions import db
from judgeapp.models import (
    Incident,
    IncidentSubject,
    Player,
    Role,
    Round,
    StaffAssignment,
    utcnow,
)

PASSWORD = "bench-password-1"
PLAYERS = 64
CODES = ["3.5.2", "3.2.1", "3.3.1", "3.9.1", "3.20.1", "3.6.1.1", "3.5.3.2", "3.11"]


def make_app(path: Path):
    app = bench_app(f"sqlite:///{path}")

    add_bare_route(app)
    with app.app_context():
        db.create_all()
    return app


def fill(app, events: range, per_event: int, judge_id: int, organizer_id: int) -> None:
    """Events with 64 players, 15 rounds and `per_event` incidents each, inserted in bulk."""
    rng = random.Random(events.start)
    with app.app_context():
        for n in events:
            event = new_event(f"Bench event {n}", date(2026, 1, 1) + timedelta(days=n), organizer_id)
            db.session.add(StaffAssignment(event_id=event.id, user_id=judge_id, role=Role.FLOOR_JUDGE))
            rounds = [
                Round(event_id=event.id, number=r, started_at=utcnow(), length_minutes=50, started_by_id=judge_id)
                for r in range(1, 16)
            ]
            players = [
                Player(event_id=event.id, name=f"Player {n}-{p}", player_code=f"B{n}-{p:03d}") for p in range(PLAYERS)
            ]
            db.session.add_all(rounds + players)
            db.session.flush()
            first_id = (db.session.scalar(select(Incident.id).order_by(Incident.id.desc()).limit(1)) or 0) + 1
            rows, subjects = [], []
            for k in range(per_event):
                code = rng.choice(CODES)
                rows.append(
                    incident_row(
                        id=first_id + k,
                        event_id=event.id,
                        number=k + 1,
                        round_id=rounds[k * 15 // per_event].id,
                        table_number=rng.randint(1, 32),
                        code=code,
                        judge_id=judge_id,
                    )
                )
                subjects.append(dict(incident_id=first_id + k, player_id=players[rng.randrange(PLAYERS)].id))
            db.session.execute(insert(Incident), rows)
            db.session.execute(insert(IncidentSubject), subjects)
            db.session.commit()


def signed_in(app, event_id: int):
    """A judge's browser, signed in with the incident form open: (client, CSRF token, the event's player codes)."""
    client = app.test_client()
    page = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    answer = client.post("/login", data={"csrf_token": token, "email": "bench@example.test", "password": PASSWORD})
    assert answer.status_code == 302
    form = client.get(f"/events/{event_id}/incidents/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form).group(1)
    with app.app_context():
        codes = list(db.session.scalars(select(Player.player_code).where(Player.event_id == event_id)))
    return client, token, codes


def save(client, event_id: int, token: str, code: str) -> None:
    """One incident through the whole path, as the form sends it."""
    data = {
        "csrf_token": token,
        "key": uuid.uuid4().hex,
        "round": "15",
        "table": "3",
        "subject_kind": "player",
        "player": code,
        "infraction": "3.20.1",
        "penalty": "loss_of_game",
        "deviation_reason": "bench",
        "description": "Benchmark incident",
    }
    response = client.post(f"/events/{event_id}/incidents/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]


def measure(app, event_id: int, samples: int) -> tuple[list[float], list[float]]:
    client, token, codes = signed_in(app, event_id)
    full, bare = [], []
    for n in range(samples):
        start = time.perf_counter()
        save(client, event_id, token, codes[n % len(codes)])
        full.append(time.perf_counter() - start)
        start = time.perf_counter()
        assert client.post("/bench/bare").status_code == 204
        bare.append(time.perf_counter() - start)
    return full, bare


def statements_per_save(app, event_id: int) -> list[str]:
    """The SQL statements one save sends, BEGIN included (the commit is the driver's own call), read off the engine."""
    from sqlalchemy import event as sa_event

    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        seen.append(" ".join(statement.split())[:90])

    with app.app_context():
        engine = db.engine
    client, token, codes = signed_in(app, event_id)
    sa_event.listen(engine, "before_cursor_execute", record)
    try:
        save(client, event_id, token, codes[0])
    finally:
        sa_event.remove(engine, "before_cursor_execute", record)
    return seen


def profile_top(app, event_id: int, saves: int = 200, lines: int = 30) -> str:
    """The top of a cumulative CPU profile of `saves` saves (and as many bare inserts), our code and the libraries
    it calls on the way: where the full path's time goes."""
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    measure(app, event_id, saves)
    profile.disable()
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out).sort_stats("cumulative")
    stats.print_stats(r"judgeapp/|flask_login/utils|wtforms/form|flask_wtf/csrf|orm/session.py.*(commit|_flush)", lines)
    return out.getvalue().split("   ncalls", 1)[-1]


def line(label: str, full: list[float], bare: list[float]) -> float:
    from bench.results import emit

    f, b = statistics.median(full), statistics.median(bare)
    emit(
        "incidents",
        f"save an incident, {label.strip()}",
        f * 1000,
        "ms",
        baseline="bare one-row insert",
        baseline_value=b * 1000,
        goal="< 2× baseline",
        met=f / b < 2,
    )
    print(
        f"{label:<34} full path {f * 1e3:7.2f} ms   bare insert {b * 1e3:7.2f} ms   ratio {f / b:5.2f}×"
        f"   (p90 full {statistics.quantiles(full, n=10)[-1] * 1e3:.2f} ms)"
    )
    return f


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--per-event", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(Path(tmp) / "bench.sqlite3")
        with app.app_context():
            judge = create_user(db.session, email="bench@example.test", name="Bench Judge", password=PASSWORD)
            organizer = create_user(db.session, email="org@example.test", name="Org", password=PASSWORD, organizer=True)
            db.session.commit()
            judge_id, organizer_id = judge.id, organizer.id
        small = max(2, args.events // 10)
        start = time.perf_counter()
        fill(app, range(1, small + 1), args.per_event, judge_id, organizer_id)
        print(f"filled {small} events × {args.per_event} incidents in {time.perf_counter() - start:.1f} s")
        f_small = line(f"{small * args.per_event:>7,} incidents in the database", *measure(app, 1, args.samples))
        start = time.perf_counter()
        fill(app, range(small + 1, args.events + 1), args.per_event, judge_id, organizer_id)
        print(f"filled up to {args.events} events in {time.perf_counter() - start:.1f} s")
        with app.app_context():
            total = db.session.query(Incident).count()
        f_large = line(f"{total:>7,} incidents in the database", *measure(app, 2, args.samples))
        print(
            f"full path, large / small database: {f_large / f_small:.2f}× "
            f"(history look-up is per event and per player, indexed)"
        )
        statements = statements_per_save(app, 2)
        print(f"SQL statements per save: {len(statements)} (one transaction, one commit)")
        for statement in statements:
            print(f"  {statement}")
        if f_large / statistics.median(measure(app, 2, 50)[1]) >= 2:  # the goal not met: where the time goes
            print("goal not met; top of a CPU profile of 200 saves (cumulative; the bare inserts are the last rows):")
            print("   ncalls" + profile_top(app, 2))


if __name__ == "__main__":
    main()
