"""Audit trail: every state change adds one entry in the same transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from .models import AuditEntry, User, utcnow


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[Any]]:
    """{field: [before, after]} for the fields that differ: what an audit entry's `changed` holds."""
    return {k: [before[k], after[k]] for k in before if before[k] != after[k]}


def _fields(
    actor: User | None, action: str, obj: Any, event_id: int | None, note: str | None, details: dict[str, Any]
) -> dict[str, Any]:
    """The columns of the entry for `action` on `obj` (which must have its id)."""
    return {
        "actor_id": actor.id if actor else None,
        "event_id": event_id,
        "action": action,
        "object_type": type(obj).__name__,
        "object_id": getattr(obj, "id", None),
        "details": details,
        "note": note,
    }


def record(
    session: Session,
    actor: User | None,
    action: str,
    obj: Any,
    *,
    event_id: int | None = None,
    note: str | None = None,
    **details: Any,
) -> None:
    """Write an audit entry for `action` on `obj` in the current transaction. The session is flushed first so the
    object has its id; the entry itself is one INSERT statement, not another unit-of-work flush (the save path's
    profile: bench/incidents.py)."""
    session.flush()
    session.execute(insert(AuditEntry).values(at=utcnow(), **_fields(actor, action, obj, event_id, note, details)))


def entry_for(
    actor: User | None, action: str, obj: Any, *, event_id: int | None = None, note: str | None = None, **details: Any
) -> AuditEntry:
    """The entry `record` writes, as an unflushed record: for a batch (an import) flushed once, then given one entry
    per object."""
    return AuditEntry(**_fields(actor, action, obj, event_id, note, details))
