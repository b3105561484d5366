"""Fixtures for request tests. Only the tests whose database behaviour can differ on PostgreSQL carry the `db` marker
and run again there (make test-postgres; docs/contributing/tests.md says which kinds): a request test that only reads
and writes rows through the ORM runs once, on SQLite."""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import exists, func, literal, or_, select, text

from judgeapp.extensions import db
from judgeapp.models import utcnow


def build_floor(app, make_user, make_event) -> dict:
    """Level 2 Bushiroad event, round 1 running, a head judge, two floor judges, a scorekeeper and four players,
    written through the services as a test would."""
    from judgeapp.events.player_services import add_player
    from judgeapp.events.round_services import start_round
    from judgeapp.events.staff_services import assign_staff
    from judgeapp.models import Event, Role, User

    people = {
        role: make_user(name=role.replace("_", " ").title())
        for role in ("head_judge", "floor_judge", "other_floor", "scorekeeper", "outsider")
    }
    organizer = make_user(organizer=True, name="Organizer")
    event_id = make_event(organizer[0])
    with app.app_context():  # the roles, the round and the players in one transaction (one commit instead of five)
        event = db.session.get(Event, event_id)
        for role, (_, email) in people.items():
            if role != "outsider":
                assign_staff(
                    db.session,
                    actor=event.organizer,
                    event=event,
                    email=email,
                    name="",
                    role=Role({"other_floor": "floor_judge"}.get(role, role)),
                )
        start_round(db.session, actor=db.session.get(User, people["head_judge"][0]), event=event)
        players = {}
        for name, code, team in [
            ("Aiko Mori", "P-001", "Blue Lions"),
            ("Ben Ode", "P-002", "Blue Lions"),
            ("Chen Yu", "P-003", None),
            ("Dana Roy", "P-004", None),
        ]:
            players[code] = add_player(
                db.session, actor=event.organizer, event=event, name=name, player_code=code, team=team
            )
        db.session.commit()
        ids = {code: p.id for code, p in players.items()}
    return {"event_id": event_id, "people": people, "players": ids, "organizer": organizer}


@dataclass(frozen=True)
class Rows:
    """Every row of every model table as `build_floor` left an empty database, read back through SQLAlchemy Core,
    with the moment they were written (to move their timestamps to a later test's now), the fixture's answer and how
    many of make_user's address numbers it used."""

    tables: dict[str, list[dict[str, Any]]]
    written_at: datetime
    ids: dict
    user_numbers: int


# One copy per test process and per app configuration (the catalog, the password hash, the database's kind: see
# `_configuration_key`); filled by the first test of the process that builds `floor` on an empty database.
_floor_rows: dict[str, Rows] = {}


def _configuration_key(app) -> str:
    """What the rows can depend on: the app's configuration but for what names this test's own files (its folder)."""
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    folder = str(app.config.get("JOBS_STORE", "")).rsplit("/", 1)[0]
    kept = {}
    for name, value in sorted(app.config.items()):
        try:
            shown = json.dumps(value, sort_keys=True, default=str)
        except (TypeError, ValueError):
            continue
        if folder and folder in shown:
            continue
        kept[name] = shown
    kept["dialect"] = uri.split(":", 1)[0]
    return hashlib.sha256(repr(kept).encode()).hexdigest()


def database_is_empty() -> bool:
    """No row in any of the models' tables (in an app context)."""
    tables = db.metadata.sorted_tables
    return not db.session.scalar(select(or_(*[exists(select(literal(1)).select_from(t)) for t in tables])))


def read_rows() -> dict[str, list[dict[str, Any]]]:
    """Every row of every model table, in primary-key order (in an app context)."""
    found = {}
    for table in db.metadata.sorted_tables:
        rows = [dict(row) for row in db.session.execute(select(table).order_by(*table.primary_key.columns)).mappings()]
        if rows:
            found[table.name] = rows
    return found


def write_rows(tables: dict[str, list[dict[str, Any]]], later_by) -> None:
    """Insert the rows, parents first, each timestamp moved `later_by`, in one transaction; on PostgreSQL each table's
    id sequence then continues after the highest id, as it would after the services' own inserts (in an app context,
    on an empty database)."""
    for table in db.metadata.sorted_tables:
        rows = tables.get(table.name)
        if not rows:
            continue
        moved = [
            {k: (v + later_by if isinstance(v, datetime) else copy.deepcopy(v)) for k, v in row.items()} for row in rows
        ]
        db.session.execute(table.insert(), moved)
        if db.engine.dialect.name == "postgresql" and "id" in table.c:
            db.session.execute(
                text("SELECT setval(pg_get_serial_sequence(:t, 'id'), :n)"),
                {"t": table.name, "n": db.session.scalar(select(func.max(table.c.id)))},
            )
    db.session.commit()


@pytest.fixture
def floor(app, make_user, make_event):
    """Level 2 Bushiroad event, round 1 running, a head judge, two floor judges, a scorekeeper and four players.

    Built through the services by the first test of this process that asks for it on an empty database; every later
    test on an empty database gets the same rows inserted into its own database (its SQLite file, or the worker's
    PostgreSQL database just emptied: nothing is shared between tests but this process's read-only copy), with the
    same ids and every timestamp moved to now, in one transaction (tests/integration/test_floor_fixture.py checks the
    copy against a build). A test whose database already holds rows when it asks gets `floor` built as before."""
    key = _configuration_key(app)
    with app.app_context():
        empty = database_is_empty()
        kept = _floor_rows.get(key) if empty else None
        if kept is not None:
            write_rows(kept.tables, utcnow() - kept.written_at)
            for _ in range(kept.user_numbers):
                make_user.numbers.next()
            db.session.remove()
            return copy.deepcopy(kept.ids)
        db.session.remove()
    before = make_user.numbers.issued
    ids = build_floor(app, make_user, make_event)
    if empty and before == 0:
        written_at = utcnow()
        with app.app_context():
            _floor_rows[key] = Rows(read_rows(), written_at, copy.deepcopy(ids), make_user.numbers.issued)
            db.session.remove()
    return ids
