"""Pieces the benchmarks share: the bare one-row-insert route they measure against, and events and incidents
written in bulk (no service, no audit entry), for filling a database fast."""

from __future__ import annotations

import uuid
from datetime import date
from pathlib import Path
from typing import Any

from flask import Flask

from judgeapp import create_app
from judgeapp.extensions import csrf, db
from judgeapp.models import AuditEntry, Event, IncidentStatus, SubjectKind, utcnow

CATALOG = Path(__file__).resolve().parent.parent / "data" / "infractions.yaml"


def bench_app(database_url: str, **config: Any) -> Flask:
    """The app a benchmark measures: the shipped catalog, an in-memory rate-limit store, the given database, plus
    `config` (WTF_CSRF_ENABLED=False for a test client that posts, a cheaper password hash…)."""
    return create_app(
        {
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "JUDGEAPP_CATALOG": str(CATALOG),
            "RATELIMIT_STORAGE_URI": "memory://",
            **config,
        }
    )


def add_bare_route(app: Flask) -> Flask:
    """POST /bench/bare: one row, one commit, nothing else (no session, form, access check or history)."""

    @app.post("/bench/bare")
    @csrf.exempt
    def bare():
        db.session.add(AuditEntry(action="bench.bare", object_type="Bench", details={}))
        db.session.commit()
        return "", 204

    return app


def new_event(name: str, day: date, organizer_id: int) -> Event:
    """A level-2 Bushiroad event of 15 rounds, added and flushed (so it has its id)."""
    event = Event(
        name=name,
        date=day,
        venue="Hall",
        policy_id="bushiroad-afr",
        policy_version="1.11",
        level=2,
        rounds=15,
        round_minutes=50,
        organizer_id=organizer_id,
    )
    db.session.add(event)
    db.session.flush()
    return event


def incident_row(
    *, id: int, event_id: int, number: int, round_id: int, table_number: int, code: str, judge_id: int
) -> dict[str, Any]:
    """An incident for a bulk INSERT: a standing Warning for `code`, logged now."""
    return dict(
        id=id,
        event_id=event_id,
        number=number,
        client_key=uuid.uuid4().hex,
        round_id=round_id,
        table_number=table_number,
        subject_kind=SubjectKind.PLAYER,
        subject_name="x",
        infraction_code=code,
        subsection=code.rsplit(".", 1)[0] if code.count(".") > 1 else code,
        rank_id="warning",
        suggested_rank_id="warning",
        upgraded=False,
        upgrade_refs=[],
        description="",
        status=IncidentStatus.STANDING,
        judge_id=judge_id,
        created_at=utcnow(),
    )
