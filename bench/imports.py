"""Saves at one event while another event imports a 130,000-row players file, against the same saves with no import.

The import goes through the whole request path (upload, CSRF, the batched service, the page after it); meanwhile a
floor judge of another event saves incidents in a loop, through the incident form. SQLite (WAL, BEGIN IMMEDIATE for
writes) has one write lock for the whole database, so this is where an import could stall every event. Figures: the
saves' max and p95 latency during the import, with the same saves measured first with no import as the baseline
(same run, same database file); the goal is every save under 1 s during the import.

Run: .venv/bin/python bench/imports.py [--rows 130000] (or make bench)
"""

from __future__ import annotations

import argparse
import io
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select
from werkzeug.datastructures import FileStorage
from werkzeug.test import stream_encode_multipart

from bench.fixtures import bench_app
from judgeapp.auth.services import create_user
from judgeapp.events import services
from judgeapp.extensions import CATALOG_KEY, db
from judgeapp.models import Player, Role

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
            services.assign_staff(
                db.session, actor=organizer, event=small, email=judge.email, name=judge.name, role=role
            )
        services.start_round(db.session, actor=judge, event=small)
        for n in range(16):
            services.add_player(db.session, actor=organizer, event=small, name=f"Player {n}", player_code=f"S-{n:03d}")
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
    from bench.results import emit

    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=130_000)
    parser.add_argument("--baseline-saves", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(Path(tmp) / "bench.sqlite3")
        big, small = setup(app)
        judge, organizer = signed_in(app, "judge@example.test"), signed_in(app, "org@example.test")
        baseline = [save_incident(judge, small, n) for n in range(args.baseline_saves)]
        body = players_file(args.rows)
        token = TOKEN_RE.search(organizer.get(f"/events/{big}/players").get_data(as_text=True)).group(1)
        stream, _, boundary = stream_encode_multipart(
            {"csrf_token": token, "file": FileStorage(io.BytesIO(body), "players.csv")}, use_tempfile=False
        )
        done, answer, took = threading.Event(), {}, {}

        def run_import():
            start = time.perf_counter()
            answer["response"] = organizer.post(
                f"/events/{big}/players/import",
                data=stream.getvalue(),
                content_type=f"multipart/form-data; boundary={boundary}",
            )
            took["import"] = time.perf_counter() - start
            done.set()

        importer = threading.Thread(target=run_import)
        importer.start()
        during, n = [], 0
        while not done.is_set():
            during.append(save_incident(judge, small, n))
            n += 1
        importer.join()
        assert answer["response"].status_code == 200
        assert f'data-count="players">{args.rows}<' in answer["response"].get_data(as_text=True)
        with app.app_context():
            assert (
                db.session.scalar(select(func.count()).select_from(Player).where(Player.event_id == big)) == args.rows
            )
    mb = len(body) / 1e6
    worst, p95 = max(during), statistics.quantiles(during, n=20, method="inclusive")[-1]
    base_max, base_p95 = max(baseline), statistics.quantiles(baseline, n=20, method="inclusive")[-1]
    print(
        f"import of {args.rows:,} rows ({mb:.1f} MB) through the request: {took['import']:.1f} s; "
        f"{len(during)} saves at another event meanwhile"
    )
    print(
        f"save latency during the import: max {worst * 1e3:.0f} ms, p95 {p95 * 1e3:.0f} ms, "
        f"median {statistics.median(during) * 1e3:.0f} ms"
    )
    print(
        f"same saves, no import:          max {base_max * 1e3:.0f} ms, p95 {base_p95 * 1e3:.0f} ms, "
        f"median {statistics.median(baseline) * 1e3:.0f} ms"
    )
    print(f"ratio: max {worst / base_max:.1f}×, p95 {p95 / base_p95:.1f}×")
    rows = f"{args.rows:,}-row players import"
    emit(
        "imports",
        f"save at another event during a {rows}, max",
        worst * 1000,
        "ms",
        baseline="same saves, no import, max",
        baseline_value=base_max * 1000,
        goal="< 1 s",
        met=worst < 1,
    )
    emit(
        "imports",
        f"save at another event during a {rows}, p95",
        p95 * 1000,
        "ms",
        baseline="same saves, no import, p95",
        baseline_value=base_p95 * 1000,
    )
    emit("imports", f"{rows} ({mb:.1f} MB), whole request", took["import"], "s")


if __name__ == "__main__":
    main()
