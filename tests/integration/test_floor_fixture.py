"""The `floor` event that most request and service tests start from is built through the services once per process
and then inserted as rows into each later test's own database (tests/integration/conftest.py): the copy must be
exactly what a build writes, ids, sequences and timestamps included."""

from __future__ import annotations

import shutil
from datetime import timedelta

import pytest

from judgeapp import create_app
from judgeapp.extensions import db, limiter
from judgeapp.models import utcnow
from tests.conftest import TEST_DATABASE_URL, app_config, empty_postgres_database
from tests.integration.conftest import build_floor, database_is_empty, read_rows, write_rows

pytestmark = pytest.mark.db


def without_times(tables: dict) -> dict:
    return {
        name: [{k: v for k, v in row.items() if k not in times(row)} for row in rows] for name, rows in tables.items()
    }


def times(row: dict) -> set[str]:
    from datetime import datetime

    return {k for k, v in row.items() if isinstance(v, datetime)}


def empty_app(request, folder, smtp_server):
    folder.mkdir()
    if TEST_DATABASE_URL is None:
        shutil.copyfile(request.getfixturevalue("sqlite_schema"), folder / "test.sqlite3")
    mail = {"MAIL_BACKEND": "smtp", "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": smtp_server[1], "MAIL_USE_TLS": False}
    app = create_app(app_config(folder, **mail))
    with app.app_context():
        if TEST_DATABASE_URL is not None:
            empty_postgres_database()
        limiter.reset()
    return app


def built_then_copied(app, make_user, make_event, request, tmp_path, smtp_server, later: timedelta):
    """`floor` built through the services in the test's database, then its rows written into an empty one (another
    SQLite file; on PostgreSQL the worker's one database, emptied): (the app of the copy, built rows, copied rows)."""
    with app.app_context():
        assert database_is_empty()
    ids = build_floor(app, make_user, make_event)
    with app.app_context():
        built = read_rows()
        db.session.remove()
    if TEST_DATABASE_URL is not None:
        with app.app_context():
            empty_postgres_database()
        other = app
    else:
        other = empty_app(request, tmp_path / "other", smtp_server)
    with other.app_context():
        write_rows(built, later)
        copied = read_rows()
        db.session.remove()
    return other, ids, built, copied


def test_the_floor_rows_written_into_an_empty_database_read_back_as_the_build_wrote_them_moved_to_now(
    app, make_user, make_event, request, tmp_path, smtp_server
):
    later = timedelta(minutes=7, microseconds=3)
    _, _, built, copied = built_then_copied(app, make_user, make_event, request, tmp_path, smtp_server, later)
    assert {"users", "events", "players", "rounds", "audit_entries"} <= set(built)
    assert without_times(copied) == without_times(built)
    for name, rows in built.items():
        for row, copy in zip(rows, copied[name], strict=True):
            assert {k: copy[k] - row[k] for k in times(row)} == dict.fromkeys(times(row), later), name


def test_after_the_floor_rows_are_copied_new_rows_get_the_ids_after_the_copys_own(
    app, make_user, make_event, request, tmp_path, smtp_server
):
    from judgeapp.auth.services import create_user
    from judgeapp.events.player_services import add_player
    from judgeapp.models import Event

    other, floor, _, _ = built_then_copied(app, make_user, make_event, request, tmp_path, smtp_server, timedelta(0))
    with other.app_context():
        event = db.session.get(Event, floor["event_id"])
        user = create_user(db.session, email="newcomer@example.test", name="Newcomer", password="x" * 12)
        player = add_player(db.session, actor=event.organizer, event=event, name="Eri Sato", player_code="P-005")
        db.session.commit()
        assert user.id == max(p[0] for p in [*floor["people"].values(), floor["organizer"]]) + 1
        assert player.id == max(floor["players"].values()) + 1
        db.session.remove()


def test_the_floor_fixture_leaves_make_user_numbering_after_its_own_users(make_user, floor):
    assert make_user()[1] == "user7@example.test"


def test_the_floor_event_round_started_within_seconds_of_the_test_asking_for_it(app, floor):
    from sqlalchemy import select

    from judgeapp.models import Round

    with app.app_context():
        started = db.session.scalars(select(Round.started_at).where(Round.event_id == floor["event_id"])).one()
        assert timedelta(0) <= utcnow() - started < timedelta(seconds=30)
        db.session.remove()
