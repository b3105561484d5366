"""A database too busy to take a write in time (SQLite's write lock held past its busy timeout, as under a venue's
rush on a loaded server): the judge gets a readable "busy, try again" answer that the phone's outbox retries, never a
500, and nothing is half written. Found by the load tests at load ~25 (32 clients sending the same keys at once)."""

from __future__ import annotations

import contextlib
import sqlite3

import pytest
from sqlalchemy import event, func, select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, Incident
from tests.conftest import TEST_DATABASE_URL
from tests.integration.test_incidents import log, signed_in
from tests.integration.test_offline import outbox_send

pytestmark = pytest.mark.skipif(TEST_DATABASE_URL is not None, reason="SQLite's write lock and busy timeout")


@contextlib.contextmanager
def write_lock_held_elsewhere(app, busy_ms: int = 200):
    """Another connection holds the database's write lock; the app's connections wait `busy_ms` for it."""
    with app.app_context():
        engine = db.engine

        @event.listens_for(engine, "connect")
        def _short_wait(dbapi_conn, _record):  # after the app's own PRAGMAs (listeners run in order)
            dbapi_conn.execute(f"PRAGMA busy_timeout={busy_ms}")

        engine.dispose()
        path = engine.url.database
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def counts(app) -> tuple[int, int]:
    with app.app_context():
        return (
            db.session.scalar(select(func.count()).select_from(Incident)),
            db.session.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "incident.log")),
        )


def test_a_save_the_busy_database_cannot_take_is_answered_busy_try_again_and_the_outbox_resend_is_stored_once(
    app, floor
):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    uid = floor["people"]["floor_judge"][0]
    record = dict(key="phone-busy-key-0001", player_id=floor["players"]["P-001"], infraction="3.5.2", penalty="warning")
    with write_lock_held_elsewhere(app):
        busy = outbox_send(judge, floor["event_id"], uid, **record)
        assert busy.status_code == 503, busy.get_data(as_text=True)[:500]
        assert busy.headers["Retry-After"] == "5"  # static/js/outbox.js retries any 5xx, keeping the order
        assert "busy" in busy.get_data(as_text=True)
    assert counts(app) == (0, 0)  # nothing of it was written
    again = outbox_send(judge, floor["event_id"], uid, **record)
    assert again.status_code == 201 and again.get_json()["number"] == 1
    assert counts(app) == (1, 1)


def test_a_form_sent_while_the_database_is_busy_gets_a_readable_page_saying_nothing_was_saved(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    page = judge.get(f"/events/{floor['event_id']}/incidents/new")  # the form and its key, before the rush
    assert page.status_code == 200
    with write_lock_held_elsewhere(app):
        busy = log(judge, floor["event_id"], player_id=floor["players"]["P-001"], infraction="3.5.2")
        html = busy.get_data(as_text=True)
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "5"
        assert "The server is busy" in html and "Nothing was saved" in html
    assert counts(app) == (0, 0)


def test_only_lock_and_timeout_errors_count_as_busy_other_database_faults_stay_faults():
    from sqlalchemy.exc import OperationalError

    from judgeapp.database import is_busy

    class PostgresError(Exception):
        def __init__(self, sqlstate):
            self.sqlstate = sqlstate

    def wrapped(orig):
        return OperationalError("statement", {}, orig)

    assert is_busy(wrapped(sqlite3.OperationalError("database is locked")))
    assert is_busy(wrapped(PostgresError("40P01")))  # deadlock_detected
    assert is_busy(wrapped(PostgresError("55P03")))  # lock_not_available
    assert not is_busy(wrapped(sqlite3.OperationalError("no such table: incidents")))
    assert not is_busy(wrapped(sqlite3.OperationalError("disk I/O error")))
    assert not is_busy(wrapped(PostgresError("57P01")))  # admin_shutdown: a fault, not a rush
