"""What Japanese costs: the same pages, PDF and searches in Japanese against English, measured in the same run.

- The incident form, the event page and the quick reference, rendered for a judge whose account is in Japanese, against
  the same page for a judge in English (same event, same data; medians through Flask's WSGI test client).
- Finding a player among 2,000 by a half-width katakana reading (judgeapp/names.py: width and kana folded) against an
  exact player-ID lookup in the same list.
Goal: a Japanese page costs at most 1.2x its English twin (translation lookups and Babel's date formats are small
next to rendering).

Run: make bench (or .venv/bin/python bench/languages.py [--runs 30])
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fixtures import bench_app
from bench.results import emit as record
from judgeapp.extensions import db

PASSWORD = "bench-password-1"
PAGE_GOAL = 1.2


def emit(bench: str, figure: str, value: float, unit: str, **kw) -> None:
    """Record the figure for bench/all.py's table and print it."""
    record(bench, figure, value, unit, **kw)
    base = kw.get("baseline_value")
    print(f"{figure:<52} {value:10.2f} {unit}" + (f"   {value / base:5.2f}× {kw['baseline']}" if base else ""))


def median_of(fn, runs: int) -> float:
    fn()  # warm-up: templates compiled, catalogs read
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def setup(workdir: Path):
    from judgeapp.auth.services import create_user
    from judgeapp.events import player_services, round_services, services, staff_services
    from judgeapp.extensions import CATALOG_KEY
    from judgeapp.models import Role

    app = bench_app(f"sqlite:///{workdir / 'languages.db'}", WTF_CSRF_ENABLED=False)
    with app.app_context():
        db.create_all()
        org = create_user(db.session, email="org@bench.test", name="Org", password=PASSWORD, organizer=True)
        judges = {}
        for lang in ("en", "ja"):
            judges[lang] = create_user(db.session, email=f"{lang}@bench.test", name=lang, password=PASSWORD)
            judges[lang].locale = lang
        events = {}
        for lang in ("en", "ja"):
            event = services.create_event(
                db.session,
                app.extensions[CATALOG_KEY],
                organizer=org,
                data=services.EventData(
                    name=f"Bench {lang}",
                    date=date(2026, 11, 28),
                    venue="Hall",
                    policy_id="bushiroad-afr",
                    level=2,
                    rounds=5,
                    round_minutes=50,
                    language=lang,
                ),
            )
            for judge in judges.values():
                staff_services.assign_staff(
                    db.session, actor=org, event=event, email=judge.email, name="", role=Role.FLOOR_JUDGE
                )
            for n in range(1, 201):
                p = player_services.add_player(
                    db.session, actor=org, event=event, name=f"山田 太郎{n}", player_code=f"P-{n:04d}"
                )
                p.reading = f"やまだ たろう{n}"
            round_services.start_round(db.session, actor=org, event=event)
            events[lang] = event.id
        db.session.commit()
    return app, events


def client_for(app, lang: str):
    client = app.test_client()
    assert client.post("/login", data={"email": f"{lang}@bench.test", "password": PASSWORD}).status_code == 302
    return client


def pages(app, events, runs: int) -> None:
    clients = {lang: client_for(app, lang) for lang in ("en", "ja")}

    def page(lang, path):
        def get():
            response = clients[lang].get(path.format(event=events["en"]))
            assert response.status_code == 200, (path, response.status_code)

        return get

    for label, path in [
        ("incident form", "/events/{event}/incidents/new"),
        ("event page", "/events/{event}"),
        ("quick reference", "/reference/bushiroad-afr?level=2"),
    ]:
        en = median_of(page("en", path), runs)
        ja = median_of(page("ja", path), runs)
        emit(
            "languages",
            f"{label}, judge in Japanese",
            ja * 1000,
            "ms",
            baseline="same page in English",
            baseline_value=en * 1000,
            goal=f"≤ {PAGE_GOAL}× baseline",
            met=ja <= PAGE_GOAL * en,
        )


def names(runs: int) -> None:
    from judgeapp.names import search_key

    people = [(f"P-{n:04d}", f"山田 太郎{n}", f"やまだ たろう{n}") for n in range(2000)]
    keys = [(code, search_key(name), search_key(reading)) for code, name, reading in people]
    wanted = search_key("ﾔﾏﾀﾞ ﾀﾛｳ1999")

    def by_reading():
        assert any(wanted in reading for _, _, reading in keys)

    def by_code():
        assert any(code == "P-1999" for code, _, _ in keys)

    folded = median_of(by_reading, runs)
    exact = median_of(by_code, runs)
    emit(
        "languages",
        "find 1 of 2,000 players by half-width katakana",
        folded * 1e6,
        "µs",
        baseline="exact player-ID scan",
        baseline_value=exact * 1e6,
    )
    one = median_of(lambda: search_key("ﾔﾏﾀﾞ ﾀﾛｳ"), runs * 10)
    emit("languages", "fold one typed name (width, kana)", one * 1e6, "µs")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app, events = setup(Path(tmp))
        pages(app, events, args.runs)
    names(args.runs)


if __name__ == "__main__":
    main()
