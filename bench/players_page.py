"""The players page of an event of 130,000 players (issue 34: "the players page lists all 130,000 players of a large
import at once"): its bytes as sent, and its time against the same page of a 16-player event in the same run.

The 130,000 players come from a real import of a generated file (name, player ID, reading, team), through the
import service the job worker runs (judgeapp/events/imports.apply, batched as the app batches it). Then the page is
asked for as a phone would: the first page, a page in the middle, the last page, and a search by the reading of one
player, in English name order and again with the event in Japanese (gojūon order of the readings). Pages are never
compressed (BREACH: judgeapp/config.py), so the bytes as sent are the page's own bytes; gzip is shown for reference.
Goal: every one of these pages under 10 KB as sent. Baseline for the time: the same page of the 16-player event.

Run: .venv/bin/python bench/players_page.py [--rows 130000] (or make bench)
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select, update

from bench.imports import make_app, setup, signed_in
from bench.results import emit
from judgeapp.events import imports
from judgeapp.extensions import db
from judgeapp.models import Division, Event, Player

KANA = "アイウエオカキクケコ"  # digit n as the nth kana: a reading per player, distinct
GOAL_BYTES = 10 * 1024


def reading_of(n: int) -> str:
    return "".join(KANA[int(d)] for d in f"{n:06d}") + " ヤマ"


def players_file(rows: int) -> bytes:
    header = "name,player id,reading,team\n"
    lines = (f"Player {n} Surname,BIG-{n:07d},{reading_of(n)},Team {n % 997}\n" for n in range(rows))
    return (header + "".join(lines)).encode()


def timed_get(client, url: str, times: int = 5) -> tuple[bytes, float]:
    """The page's body and its median time over `times` asks (after one to warm)."""
    body = client.get(url).get_data()
    took = []
    for _ in range(times):
        start = time.perf_counter()
        answer = client.get(url)
        took.append(time.perf_counter() - start)
        assert answer.status_code == 200, answer.status_code
        body = answer.get_data()
    return body, statistics.median(took)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=130_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(Path(tmp) / "bench.db")
        big, small = setup(app)
        data = players_file(args.rows)
        start = time.perf_counter()
        with app.app_context():
            event = db.session.get(Event, big)
            upload = imports.receive(db.session, actor=event.organizer, event=event, data=data, filename="big.csv")
            db.session.commit()
            imports.apply(
                db.session, actor=event.organizer, event=event, upload=upload,
                batch_rows=app.config["JUDGEAPP_IMPORT_BATCH_ROWS"], end_batch=db.session.commit,
            )  # fmt: skip
            db.session.commit()
            imported = db.session.scalar(select(func.count()).select_from(Player).where(Player.event_id == big))
            assert imported == args.rows, imported
        import_took = time.perf_counter() - start
        organizer = signed_in(app, "org@example.test")
        target = args.rows * 2 // 3
        pages = -(-args.rows // 50)
        asks = {
            "first page": f"/events/{big}/players",
            "a middle page": f"/events/{big}/players?page={pages // 2}",
            "the last page": f"/events/{big}/players?page={pages}",
            "search by reading": f"/events/{big}/players?q={reading_of(target)[:6]}",
        }
        _, base = timed_get(organizer, f"/events/{small}/players")
        figures = []
        for language in ("en", "ja"):
            with app.app_context():
                db.session.get(Event, big).language = language
                db.session.commit()
            for what, url in asks.items():
                body, took = timed_get(organizer, url)
                if what == "search by reading":
                    assert f"BIG-{target:07d}".encode() in body, "the player searched for is found"
                figures.append((language, what, len(body), len(gzip.compress(body)), took))
        # The same event in two divisions (a third of the players in the second): the page lists them division by
        # division (issue 34), an order no index of the players gives.
        with app.app_context():
            event = db.session.get(Event, big)
            event.language = "en"
            second = Division(event_id=big, name="Seniors", position=1)
            db.session.add(second)
            db.session.flush()
            db.session.execute(
                update(Player).where(Player.event_id == big, Player.id % 3 == 0).values(division_id=second.id)
            )
            db.session.commit()
        for what, url in asks.items():
            body, took = timed_get(organizer, url)
            figures.append(("en, two divisions", what, len(body), len(gzip.compress(body)), took))
    print(f"import of {args.rows:,} players: {import_took:.1f} s")
    print(f"baseline: the 16-player event's players page, {base * 1e3:.1f} ms")
    for language, what, size, zipped, took in figures:
        print(
            f"[{language}] {what}: {size:,} bytes as sent ({zipped:,} gzipped), {took * 1e3:.1f} ms "
            f"({took / base:.1f}× the baseline)"
        )
        emit(
            "players_page",
            f"players page at {args.rows:,} players, {what} ({language}): bytes as sent",
            size,
            "bytes",
            goal="under 10 KB",
            met=size < GOAL_BYTES,
        )
        emit(
            "players_page",
            f"players page at {args.rows:,} players, {what} ({language}): time",
            took * 1000,
            "ms",
            baseline="the same page at 16 players",
            baseline_value=base * 1000,
        )


if __name__ == "__main__":
    main()
