"""The helpers of the import benchmark (an organizer's big event, a judge saving incidents at another event, a
players file): bench/jobs.py measures the import, which runs as a job since issue 32; this file's own run is the
same, through bench/jobs.py. What follows describes the measurement as it was, through one request:

Saves at one event while another event imports a 130,000-row players file, against the same saves with no import.

The import goes through the whole request path (upload, CSRF, the batched service, the page after it); meanwhile a
floor judge of another event saves incidents in a loop, through the incident form. SQLite (WAL, BEGIN IMMEDIATE for
writes) has one write lock for the whole database, so this is where an import could stall every event. Figures: the
saves' max and p95 latency during the import, with the same saves measured first with no import as the baseline
(same run, same database file); the goal is every save under 1 s during the import.

Run: .venv/bin/python bench/imports.py [--rows 130000] (or make bench)
"""

from __future__ import annotations

import re
import sys
import time
import uuid
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from bench.fixtures import bench_app
from judgeapp.auth.services import create_user
from judgeapp.events import player_services, round_services, services, staff_services
from judgeapp.extensions import CATALOG_KEY, db
from judgeapp.models import Role

PASSWORD = "bench-password-1"
TOKEN_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def make_app(path: Path):
    app = bench_app(f"sqlite:///{path}", JUDGEAPP_PASSWORD_HASH="pbkdf2:sha256:1000")
    with app.app_context():
        db.create_all()
    return app


def setup(app) -> tuple[int, int]:
    """An organizer's big event (empty) and a small event with a round running, 16 players and a floor judge."""
    with app.app_context():
        organizer = create_user(db.session, email="org@example.test", name="Org", password=PASSWORD, organizer=True)
        judge = create_user(db.session, email="judge@example.test", name="Judge", password=PASSWORD)
        db.session.flush()
        catalog = app.extensions[CATALOG_KEY]
        events = []
        for name in ("Big Open", "Store Championship"):
            events.append(
                services.create_event(
                    db.session,
                    catalog,
                    organizer=organizer,
                    data=services.EventData(
                        name=name,
                        date=date(2026, 11, 28),
                        venue="Hall",
                        policy_id="bushiroad-afr",
                        level=2,
                        rounds=5,
                        round_minutes=50,
                    ),
                )
            )
        db.session.flush()
        small = events[1]
        for role in (Role.HEAD_JUDGE, Role.FLOOR_JUDGE):
            staff_services.assign_staff(
                db.session, actor=organizer, event=small, email=judge.email, name=judge.name, role=role
            )
        round_services.start_round(db.session, actor=judge, event=small)
        for n in range(16):
            player_services.add_player(
                db.session, actor=organizer, event=small, name=f"Player {n}", player_code=f"S-{n:03d}"
            )
        db.session.commit()
        return events[0].id, small.id


def signed_in(app, email: str):
    client = app.test_client()
    token = TOKEN_RE.search(client.get("/login").get_data(as_text=True)).group(1)
    assert client.post("/login", data={"csrf_token": token, "email": email, "password": PASSWORD}).status_code == 302
    return client


def save_incident(client, event_id: int, n: int) -> float:
    url = f"/events/{event_id}/incidents/new"
    token = TOKEN_RE.search(client.get(url).get_data(as_text=True)).group(1)
    data = {
        "csrf_token": token,
        "key": uuid.uuid4().hex,
        "round": "1",
        "table": "3",
        "subject_kind": "player",
        "player": f"S-{n % 16:03d}",
        "infraction": "3.20.1",
        "penalty": "loss_of_game",
        "deviation_reason": "bench",
        "description": "Benchmark incident",
    }
    start = time.perf_counter()
    response = client.post(url, data=data)
    took = time.perf_counter() - start
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    return took


def players_file(rows: int) -> bytes:
    header = "name,player id,team\n"
    return (header + "".join(f"Player {n} Surname,BIG-{n:07d},Team {n % 997}\n" for n in range(rows))).encode()


def main() -> None:
    from bench.jobs import main as jobs_main

    jobs_main()  # the import is a job now: upload answered at once, the worker imports


if __name__ == "__main__":
    main()
