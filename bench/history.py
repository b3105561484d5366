"""A player's history at an event, looked up with 1,000 incidents in the database and with 100,000, in the same run.

The player looked up always has the same five incidents; only the rest of the database grows. Two databases side by
side: one of 1,000 incidents (one event), and one of 200,000: 100 events of 1,000 incidents and one event of 100,000
(20,000 players), where a player of a 1,000-incident event and a player of the big event are looked up. The
look-ups are timed in turn, one of each per round, so load on the machine hits all alike. Measured:
priors_of_players (what every save and every suggestion reads) and player_history (the player page). Goal: 100k
at most 1.2x 1k. The query plans (SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN) are printed, to show the indexes.

Run: make bench, or .venv/bin/python bench/history.py                      (SQLite in a temporary folder)
     scripts/with-postgres.sh .venv/bin/python bench/history.py             (PostgreSQL, from TEST_DATABASE_URL)
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, func, insert, select, text
from sqlalchemy.engine import make_url

from bench.fixtures import bench_app, incident_row, new_event
from bench.results import emit
from judgeapp.auth.services import create_user
from judgeapp.extensions import CATALOG_KEY, db
from judgeapp.history import _incidents_of, player_history, priors_of_players
from judgeapp.models import Event, Incident, IncidentSubject, Player, Round, utcnow

CODES = ["3.5.2", "3.2.1", "3.3.1", "3.9.1", "3.20.1"]
PER_PLAYER = 5
RUNS = 400


def add_event(n: int, organizer_id: int, players: int) -> tuple[int, int]:
    """An event with one round and `players` players, each the subject of PER_PLAYER incidents (bulk inserts).
    Returns (event id, the first player's id)."""
    event = new_event(f"History bench {n}", date(2026, 1, 1), organizer_id)
    rnd = Round(event_id=event.id, number=1, started_at=utcnow(), length_minutes=50, started_by_id=organizer_id)
    db.session.add(rnd)
    db.session.flush()
    player_ids = list(
        db.session.scalars(
            insert(Player).returning(Player.id),
            [
                dict(
                    event_id=event.id, division_id=rnd.division_id, name=f"Player {n}-{p}", player_code=f"H{n}-{p:05d}"
                )
                for p in range(players)
            ],  # a bulk insert: its division given here (the flush hook sees ORM records only)
        )
    )
    first = (db.session.scalar(select(func.max(Incident.id))) or 0) + 1
    rows, subjects = [], []
    for k in range(players * PER_PLAYER):
        code = CODES[k % len(CODES)]
        rows.append(
            incident_row(
                id=first + k,
                event_id=event.id,
                number=k + 1,
                round_id=rnd.id,
                table_number=1,
                code=code,
                judge_id=organizer_id,
            )
        )
        subjects.append(dict(incident_id=first + k, player_id=player_ids[k % players]))
    for start in range(0, len(rows), 5000):
        db.session.execute(insert(Incident), rows[start : start + 5000])
        db.session.execute(insert(IncidentSubject), subjects[start : start + 5000])
    db.session.commit()
    return event.id, player_ids[0]


def interleaved(lookups: list) -> list[float]:
    """Median µs of each look-up, timed in turn (one of each per round), so load on the machine hits all alike."""
    for fn in lookups:
        for _ in range(20):
            fn()
    times: list[list[float]] = [[] for _ in lookups]
    for _ in range(RUNS):
        for n, fn in enumerate(lookups):
            start = time.perf_counter()
            fn()
            times[n].append(time.perf_counter() - start)
    return [statistics.median(t) * 1e6 for t in times]


def lookups(app, event_id: int, player_id: int) -> list:
    """priors_of_players and player_history of one player, each in the app's context."""

    def priors():
        with app.app_context():
            event = db.session.get(Event, event_id)
            assert len(priors_of_players(db.session, event, [player_id])) == PER_PLAYER

    def page():
        with app.app_context():
            event, player = db.session.get(Event, event_id), db.session.get(Player, player_id)
            player_history(db.session, app.extensions[CATALOG_KEY].policy(event.policy_id), event, player)

    return [priors, page]


def plans(event_id: int, player_id: int) -> str:
    """The query plan of the priors look-up on this database."""
    event = db.session.get(Event, event_id)
    subjects = _incidents_of([player_id])
    query = (
        select(Incident.number)
        .select_from(subjects)
        .join(Incident, Incident.id == subjects.c.incident_id)
        .join(Round, Round.id == Incident.round_id)
        .where(Incident.event_id == event.id, Incident.rank_id.is_not(None))
        .order_by(Incident.number)
    )
    compiled = query.compile(db.engine, compile_kwargs={"literal_binds": True})
    if db.engine.dialect.name == "sqlite":
        rows = db.session.execute(text(f"EXPLAIN QUERY PLAN {compiled}")).all()
        return "\n".join(f"  {row[-1]}" for row in rows)
    rows = db.session.execute(text(f"EXPLAIN {compiled}")).all()
    return "\n".join(f"  {row[0]}" for row in rows)


def second_database(url: str, name: str) -> str:
    """A fresh database beside `url` on the same server (PostgreSQL), or a second file (SQLite)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return str(parsed.set(database=str(Path(parsed.database).with_name(name + ".sqlite3"))))
    admin = create_engine(parsed, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return parsed.set(database=name).render_as_string(hide_password=False)


def filled(url: str, events: list[int]):
    """An app on `url` with an event of `players` players (five incidents each) per entry of `events`.
    Returns the app and, per event, (event id, the looked-up player's id)."""
    app = bench_app(url)
    with app.app_context():
        db.drop_all()
        db.create_all()
        organizer = create_user(
            db.session, email="org@example.test", name="Org", password="bench-password-1", organizer=True
        )
        db.session.commit()
        made = [add_event(n, organizer.id, players) for n, players in enumerate(events)]
        if db.engine.dialect.name == "postgresql":
            db.session.execute(text("ANALYZE"))
            db.session.commit()
    return app, made


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp}/history.sqlite3"
        kind = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
        small_app, [(small_event, small_player)] = filled(url, [200])  # 1,000 incidents
        large_app, made = filled(second_database(url, "history_large"), [200] * 100 + [20_000])
        (many_event, many_player), (big_event, big_player) = made[0], made[-1]
        with large_app.app_context():
            total = db.session.scalar(select(func.count()).select_from(Incident))
            print(
                f"{kind} plan of the priors look-up, {total:,} incidents in the database, an event of 100,000:\n"
                f"{plans(big_event, big_player)}"
            )
        with small_app.app_context():
            print(f"{kind} plan, 1,000 incidents in the database:\n{plans(small_event, small_player)}")
        small_priors, small_page, many_priors, many_page, big_priors, big_page = interleaved(
            lookups(small_app, small_event, small_player)
            + lookups(large_app, many_event, many_player)
            + lookups(large_app, big_event, big_player)
        )
        for app in (small_app, large_app):
            with app.app_context():
                db.engine.dispose()
    print(f"{kind}, 1,000 incidents: priors {small_priors:.0f} µs, player page history {small_page:.0f} µs")
    for label, priors, page in (
        ("100 events of 1,000", many_priors, many_page),
        ("one event of 100,000", big_priors, big_page),
    ):
        print(
            f"{kind}, {label}: priors {priors:.0f} µs ({priors / small_priors:.2f}× 1k), "
            f"player page history {page:.0f} µs ({page / small_page:.2f}× 1k)"
        )
        emit(
            "history",
            f"{kind}: a player's priors, {label} incidents",
            priors,
            "µs",
            baseline="1,000 incidents",
            baseline_value=small_priors,
            goal="≤ 1.2× baseline",
            met=priors <= 1.2 * small_priors,
        )
        emit(
            "history",
            f"{kind}: player page history, {label} incidents",
            page,
            "µs",
            baseline="1,000 incidents",
            baseline_value=small_page,
            goal="≤ 1.2× baseline",
            met=page <= 1.2 * small_page,
        )


if __name__ == "__main__":
    main()
