"""How every write is made safe: one-time keys scoped to their event and record kind, storing a keyed record once,
the per-event write lock, and the size limits of typed text.

One-time keys: every form that creates a record carries a random key, so a save retried on bad wi-fi (or sent
again from the phone's outbox) stores one record. A key belongs to one record kind (its table) and one event: a
look-up never finds another event's record, and the same key at two events, or for two kinds, stores two records.
Statements are scoped by their investigation (which belongs to one event), so no event id is copied onto them.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .errors import EventClosed, FieldError
from .models import Base, Event, Statement

R = TypeVar("R", bound=Base)  # a record kind that carries a one-time key

# ---- size limits of typed text (characters) -------------------------------------------------------------------------
MAX_TEXT = 4000  # an incident's description, a deck check's notes
MAX_REASON = 500  # a one-line reason: deviation, withdrawal, adjustment, reopening
MAX_NAME = 200  # a person's, team's or event's name
MAX_CODE = 64  # a player ID
MAX_CONTEST = 2000  # what a player contests in an appeal
MAX_STATEMENT = 20000  # one statement in an investigation
MAX_WRITE_UP = 10000  # each part of the head judge's write-up

# ---- one-time keys -------------------------------------------------------------------------------------------------
KEY_MIN, KEY_MAX = 16, 64  # the forms make 32 hex digits; KEY_MAX is the column's length


def check_key(key: str | None) -> str:
    """The form's one-time key, trimmed; FieldError (shown on the form) when missing or of the wrong length."""
    key = (key or "").strip()
    if not KEY_MIN <= len(key) <= KEY_MAX:
        raise FieldError(
            "key",
            "This form has no valid one-time key (it may be an old copy of the page): "
            "reload the page and send it again.",
        )
    return key


def derived_key(key: str, suffix: str) -> str:
    """The key of a record made along with another (the time given back on an incident: `key:ext`). It fits the
    column whatever the length of `key`: a key too long for the suffix is replaced by its digest, the same each time,
    so a retried save still finds the record."""
    if len(key) + 1 + len(suffix) > KEY_MAX:
        key = hashlib.sha256(key.encode()).hexdigest()[: KEY_MAX - 1 - len(suffix)]
    return f"{key}:{suffix}"


def _scope_column(model: Any) -> Any:
    return model.investigation_id if model is Statement else model.event_id


def by_key(session: Session, model: type[R], key: str, *, scope: int) -> R | None:
    """The `model` record stored with one-time `key` in `scope` (the event's id; a statement's investigation id)."""
    keyed: Any = model  # each keyed model has client_key and its scope's column
    found: R | None = session.scalar(select(keyed).where(_scope_column(keyed) == scope, keyed.client_key == key))
    return found


def insert_once(session: Session, record: R, key: str, *, scope: int) -> tuple[R, bool]:
    """Store a new record carrying the one-time `key`. When another request stored the same key in the same scope
    between our check and this insert, the unique constraint stops ours; that request's record is returned instead.
    Returns (record, created)."""
    session.add(record)
    try:
        session.flush()
    except IntegrityError:
        session.rollback()
        existing = by_key(session, type(record), key, scope=scope)
        if existing is None:
            raise
        return existing, False
    return record, True


def begin_keyed_write(
    session: Session, model: type[R], key: str | None, event: Event, *, scope: int | None = None, lock: bool = True
) -> tuple[str, R | None]:
    """The prologue of every write a one-time key makes safe: the form's key checked (check_key), the record a
    resent form already stored with it looked up in `scope` (the event's id unless given), and only when there is
    none the event locked for the write (lock_event; `lock=False` where the record's own scope serialises it).
    Returns (key, the stored record or None): with a record the caller answers with it and writes nothing."""
    key = check_key(key)
    existing = by_key(session, model, key, scope=event.id if scope is None else scope)
    if existing is None and lock:
        lock_event(session, event)
    return key, existing


# ---- the event lock --------------------------------------------------------------------------------------------------


def lock_event(session: Session, event: Event, *, open_only: bool = True) -> datetime | None:
    """Serialise writes per event (PostgreSQL row lock; SQLite's BEGIN IMMEDIATE already serialises writers).
    Returns when the event was closed, read under the lock, so a close that commits first always wins; with
    `open_only` a closed event refuses the write (EventClosed)."""
    if session.get_bind().dialect.name == "sqlite":
        # Every writing transaction on SQLite began IMMEDIATE (judgeapp/database.py): the event row this session
        # read within it is current, and nobody else can write until we commit. No second read is needed.
        closed_at = event.closed_at
    else:
        closed_at = session.scalar(select(Event.closed_at).where(Event.id == event.id).with_for_update())
    if open_only and closed_at is not None:
        raise EventClosed(event)
    return closed_at
